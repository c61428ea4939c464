"""The API catalog: data integrity, lookups, Cast tables, routes and overload resolution."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

from ascendir.catalog import (
    ARCHS,
    FAMILIES,
    PARAM_KINDS,
    VEC_POSITIONS,
    Catalog,
    CatalogError,
    SignatureError,
    build_catalog,
    load_catalog,
)
from ascendir.catalog.loader import DATA_DIR
from ascendir.catalog.resolve import ArgInfo, NoMatch, Resolution, resolve
from ascendir.catalog.signature import TypeContext, parse_signature

if sys.version_info >= (3, 11):
    import tomllib
else:  # python 3.10
    import tomli as tomllib


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return load_catalog()


def local(dtype: str | None = None, position: str | None = None) -> ArgInfo:
    return ArgInfo("local_tensor", dtype, position)


def gm(dtype: str | None = None) -> ArgInfo:
    return ArgInfo("global_tensor", dtype)


def lit(dtype: str = "int32_t") -> ArgInfo:
    return ArgInfo("scalar", dtype, is_literal=True)


def struct(name: str | None = None) -> ArgInfo:
    return ArgInfo("struct", type_name=name)


def enum(name: str) -> ArgInfo:
    return ArgInfo("enum", type_name=name)


def resolved(result: Resolution | NoMatch) -> Resolution:
    assert isinstance(result, Resolution), result
    return result


def rejected(result: Resolution | NoMatch) -> NoMatch:
    assert isinstance(result, NoMatch), result
    return result


# ---------------------------------------------------------------- data integrity


def test_every_data_file_parses() -> None:
    files = sorted(DATA_DIR.glob("*.toml"))
    assert {f.name for f in files} >= {
        "memory.toml",
        "data_movement.toml",
        "vector.toml",
        "cube.toml",
        "sync.toml",
        "system.toml",
        "structs.toml",
        "enums.toml",
        "types.toml",
        "cast.toml",
    }
    for path in files:
        with path.open("rb") as fh:
            assert tomllib.load(fh), path.name


def test_load_is_cached() -> None:
    # How long an uncached build takes is bench/perf/frontend.py's business (its cold start with an
    # empty cache dir); here only that later loads reuse the first.
    assert load_catalog() is load_catalog()


def test_every_api_is_well_formed(cat: Catalog) -> None:
    positions = set(cat.enums["TPosition"].names)
    assert len(cat.apis) >= 120
    for api in cat.apis:
        where = api.qualified_name
        assert api.overloads, where
        assert api.family in FAMILIES, where
        assert api.summary and api.ref, where
        if api.receiver is not None:
            assert api.receiver in cat.classes, where
        assert len({ov.id for ov in api.overloads}) == len(api.overloads), where
        class_vars = {tp.name for tp in cat.classes[api.receiver].type_params} if api.receiver else set()
        for ov in api.overloads:
            type_vars = class_vars | {tp.name for tp in ov.type_params if tp.is_type}
            for param in (*ov.params, *([ov.returns] if ov.returns else [])):
                assert param.kind in PARAM_KINDS, (where, ov.id, param)
                if param.positions is not None:
                    assert param.kind == "local_tensor" and param.positions <= positions, (where, param)
                if param.elem is not None:
                    assert param.elem in type_vars or param.elem in cat.element_types, (where, param)
                if param.kind in {"local_tensor", "global_tensor", "scalar", "mask_array"}:
                    assert param.elem is not None, (where, param)
                if param.kind == "struct":
                    assert cat.struct(param.type_name or "") is not None, (where, param)
                if param.kind == "enum":
                    assert cat.enum(param.type_name or "") is not None, (where, param)
                if param.kind == "object":
                    assert cat.class_def(param.type_name or "") is not None, (where, param)
            for tp in ov.type_params:
                if not tp.is_type and tp.kind != "auto":
                    known = cat.enum(tp.kind) or cat.canonical_type(tp.kind)
                    assert known, (where, tp)
        for arch, per_var in api.dtypes.items():
            assert arch in ARCHS
            for types in per_var.values():
                assert all(t in cat.element_types for t in types), where


def test_struct_fields_name_known_types(cat: Catalog) -> None:
    for struct_def in cat.structs.values():
        for f in struct_def.fields:
            # a fixed-size array of a known type (uint16_t[4]) or a LocalTensor of one (MrgSortSrcList's lists)
            base = re.sub(r"^LocalTensor<(.+)>$", r"\1", re.sub(r"\[\d+\]$", "", f.c_type))
            known = (
                base in struct_def.type_params
                or cat.canonical_type(base) is not None
                or cat.enum(base) is not None
                or cat.struct(base) is not None
            )
            assert known, (struct_def.name, f)
            if f.min is not None and f.max is not None:
                assert f.min <= f.max
        if struct_def.fields_complete:
            assert struct_def.fields, struct_def.name


REFERENCE_APIS = [
    # free functions named in reference sections 2-5
    "DataCopy", "DataCopyPad", "Add", "Sub", "Mul", "Div", "Max", "Min", "Adds", "Muls", "Maxs", "Mins",
    "Exp", "Ln", "Sqrt", "Rsqrt", "Reciprocal", "Abs", "Relu", "LeakyRelu", "Axpy", "And", "Or", "Not",
    "ShiftLeft", "ShiftRight", "Duplicate", "Cast", "Compare", "CompareScalar", "Select", "ReduceSum",
    "ReduceMax", "ReduceMin", "WholeReduceSum", "WholeReduceMax", "WholeReduceMin", "BlockReduceSum",
    "BlockReduceMax", "BlockReduceMin", "Transpose", "Brcb", "Gather", "GatherMask", "CreateVecIndex",
    "Sort", "MrgSort", "SoftMax", "LayerNorm", "Sigmoid", "Gelu", "SwiGLU", "RmsNorm", "Tanh", "LoadData",
    "Mmad", "Fixpipe", "REGIST_MATMUL_OBJ", "SetFlag", "WaitFlag", "PipeBarrier", "SyncAll",
    "CrossCoreSetFlag", "CrossCoreWaitFlag", "SetAtomicAdd", "SetAtomicNone", "GetBlockIdx", "GetBlockNum",
    "GetSubBlockIdx", "InitSocState", "GetSysWorkSpacePtr", "GetUserWorkspace", "SetSysWorkspace",
    "DataCacheCleanAndInvalid", "SetMaskCount", "SetMaskNorm", "SetVectorMask", "ResetMask",
]  # fmt: skip
REFERENCE_METHODS = [
    ("TPipe", ["InitBuffer", "Reset", "AllocEventID", "ReleaseEventID", "FetchEventID"]),
    ("TQue", ["AllocTensor", "FreeTensor", "EnQue", "DeQue", "VacantInQue", "HasTensorInQue",
              "GetTensorCountInQue", "FreeAllEvent"]),
    ("TBuf", ["Get", "GetWithOffset"]),
    ("GlobalTensor", ["SetGlobalBuffer", "operator[]", "GetValue", "SetValue", "GetPhyAddr", "SetL2CacheHint"]),
    ("LocalTensor", ["operator[]", "GetValue", "SetValue", "ReinterpretCast", "GetSize", "GetLength",
                     "GetPhyAddr", "GetPosition"]),
    ("Matmul", ["SetTensorA", "SetTensorB", "SetBias", "SetTail", "SetOrgShape", "SetSingleShape", "Iterate",
                "GetTensorC", "IterateAll", "End"]),
    ("TQueSync", ["SetFlag", "WaitFlag"]),
]  # fmt: skip


@pytest.mark.parametrize("name", REFERENCE_APIS)
def test_reference_api_is_catalogued(cat: Catalog, name: str) -> None:
    assert cat.api(name) is not None


@pytest.mark.parametrize(("receiver", "names"), REFERENCE_METHODS)
def test_reference_methods_are_catalogued(cat: Catalog, receiver: str, names: list[str]) -> None:
    for name in names:
        api = cat.api(name, receiver=receiver)
        assert api is not None and api.receiver == receiver, name
    # free-function lookup does not find methods
    assert cat.api("AllocTensor") is None


def test_families_and_call_forms(cat: Catalog) -> None:
    binary = {api.name for api in cat.apis_in_family("vec_binary")}
    assert {"Add", "Sub", "Mul", "Div", "Max", "Min", "And", "Or"} <= binary
    assert [ov.id for ov in cat.api("Add").overloads] == ["count", "mask", "bitmask"]  # type: ignore[union-attr]
    mask = cat.api("Add").overload("bitmask").param("mask")  # type: ignore[union-attr]
    assert mask is not None and mask.kind == "mask_array" and mask.array_len == 2
    dst = cat.api("Exp").overload("count").params[0]  # type: ignore[union-attr]
    assert dst.positions == VEC_POSITIONS
    assert cat.api("Add").operator == "+"  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="unknown family"):
        cat.apis_in_family("vector")


def test_dtypes_are_the_reference_table(cat: Catalog) -> None:
    add, div, dup = cat.api("Add"), cat.api("Div"), cat.api("Duplicate")
    assert add and div and dup
    assert add.allowed_dtypes(2201, "T") == ("half", "int16_t", "int32_t", "float")
    assert div.allowed_dtypes("2201", "T") == ("half", "float")
    assert "bfloat16_t" in (dup.allowed_dtypes(2201, "T") or ())
    assert add.allowed_dtypes(2002, "T") is None  # not in the reference: not catalogued
    mmad = cat.api("Mmad")
    assert mmad is not None
    assert {"half", "int8_t", "float", "bfloat16_t", "int4b_t"} == set(mmad.allowed_dtypes(2201, "U") or ())
    assert {"T": "float", "U": "half", "S": "half"} in [dict(c) for c in mmad.dtype_combos["2201"]]


def test_method_lookup_accepts_template_arguments_and_aliases(cat: Catalog) -> None:
    assert cat.api("GetValue", receiver="GlobalTensor<half>") is cat.api("GetValue", receiver="GlobalTensor")
    assert cat.api("EnQue", receiver="TQueBind<TPosition::VECIN, TPosition::VECOUT, 1>") is cat.api(
        "EnQue", receiver="TQue"
    )
    assert cat.api("GetValue", receiver="LocalTensor") is not cat.api("GetValue", receiver="GlobalTensor")


def test_closest_suggests_spellings(cat: Catalog) -> None:
    assert "ReduceMax" in cat.closest("ReduceMx")
    assert cat.closest("DataCpy")[0] == "DataCopy"
    assert "AllocTensor" in cat.closest("AlocTensor", receiver="TQue")
    assert cat.closest("Zzzzzz") == []


# ---------------------------------------------------------------- types, enums, structs


def test_element_types_and_aliases(cat: Catalog) -> None:
    int_type = cat.element_type("int")
    assert int_type is not None and int_type.name == "int32_t" and int_type.size == 4 and int_type.signed
    assert cat.canonical_type("unsigned") == "uint32_t"
    assert cat.canonical_type("const float") == "float"
    assert cat.canonical_type("size_t") == "uint64_t"
    half = cat.element_type("half")
    assert half is not None and half.size == 2 and half.is_float
    bf16 = cat.element_type("bfloat16_t")
    assert bf16 is not None and bf16.bits == 16
    assert cat.element_type("bool") is not None
    assert cat.element_type("LocalTensor") is None


def test_enums(cat: Catalog) -> None:
    tpos = cat.enum("TPosition")
    assert tpos is not None and tpos.scoped
    assert tpos.value("GM").value == 0  # type: ignore[union-attr]
    assert tpos.value("VECIN").value == 9  # type: ignore[union-attr]
    assert tpos.names[-2:] == ("C2PIPE2GM", "C2PIPE2LOCAL")
    assert cat.enum("QuePosition") is tpos
    hard = cat.enum("HardEvent")
    assert hard is not None and len(hard.values) == 32 and "MTE2_V" in hard.names and "FIX_MTE3" in hard.names
    pipes = cat.enum("pipe_t")
    assert pipes is not None and not pipes.scoped
    assert pipes.names == (
        "PIPE_S",
        "PIPE_V",
        "PIPE_M",
        "PIPE_MTE1",
        "PIPE_MTE2",
        "PIPE_MTE3",
        "PIPE_FIX",
        "PIPE_ALL",
    )
    assert cat.enum("event_t").names[-1] == "EVENT_ID7"  # type: ignore[union-attr]
    assert set(cat.enum("CMPMODE").names) == {"LT", "GT", "GE", "EQ", "NE", "LE"}  # type: ignore[union-attr]
    assert "CAST_ODD" in cat.enum("RoundMode").names  # type: ignore[union-attr]


def test_enum_value_lookup(cat: Catalog) -> None:
    found = cat.enum_value("AscendC::HardEvent::MTE2_V")
    assert found is not None and found[0].name == "HardEvent" and found[1].name == "MTE2_V"
    assert cat.enum_value("QuePosition::VECOUT")[0].name == "TPosition"  # type: ignore[index]
    assert cat.enum_value("PIPE_MTE3")[0].name == "pipe_t"  # type: ignore[index]
    assert cat.enum_value("EVENT_ID3")[1].value == 3  # type: ignore[index]
    assert cat.enum_value("VECIN") is None  # scoped values need their enum
    assert cat.enum_value("HardEvent::NOPE") is None


def test_structs(cat: Catalog) -> None:
    brp = cat.struct("BinaryRepeatParams")
    assert brp is not None
    assert [f.name for f in brp.fields] == [
        "dstBlkStride",
        "src0BlkStride",
        "src1BlkStride",
        "dstRepStride",
        "src0RepStride",
        "src1RepStride",
    ]
    assert {f.c_type for f in brp.fields} == {"uint8_t"}
    dcp = cat.struct("DataCopyParams")
    assert dcp is not None
    block_count = dcp.field("blockCount")
    assert block_count is not None and (block_count.min, block_count.max) == (1, 4095)
    ext = cat.struct("DataCopyExtParams")
    assert ext is not None and ext.field("blockLen").max == 2097151  # type: ignore[union-attr]
    pad = cat.struct("DataCopyPadExtParams<half>")
    assert pad is not None and pad.type_params == ("T",) and pad.field("paddingValue").c_type == "T"  # type: ignore[union-attr]
    mmad = cat.struct("MmadParams")
    assert mmad is not None and mmad.field("k").max == 4095 and not mmad.ordered  # type: ignore[union-attr]
    assert cat.struct("Nd2NzParams").field("dstNzMatrixStride") is not None  # type: ignore[union-attr]


def test_mask_rules(cat: Catalog) -> None:
    assert cat.mask_rule(16).continuous_max == 128  # type: ignore[union-attr]
    assert cat.mask_rule(16).bitmask_words == 2  # type: ignore[union-attr]
    assert cat.mask_rule(32).continuous_max == 64  # type: ignore[union-attr]
    assert cat.mask_rule(64).continuous_max == 32  # type: ignore[union-attr]
    assert cat.mask_rule(8) is None


# ---------------------------------------------------------------- Cast, routes, queues


def test_cast_modes_on_2201(cat: Catalog) -> None:
    assert cat.cast_modes(2201, "half", "float") == {"CAST_NONE"}
    assert cat.cast_modes(2201, "float", "half") == {
        "CAST_RINT", "CAST_FLOOR", "CAST_CEIL", "CAST_ROUND", "CAST_TRUNC", "CAST_ODD", "CAST_NONE",
    }  # fmt: skip
    half_to_int32 = cat.cast_modes(2201, "half", "int32_t")
    assert half_to_int32 is not None and "CAST_NONE" not in half_to_int32 and "CAST_RINT" in half_to_int32
    assert cat.cast_modes("2201", "int", "float") == cat.cast_modes(2201, "int32_t", "float")
    assert cat.cast_modes(2201, "float", "bfloat16_t") == {
        "CAST_RINT", "CAST_FLOOR", "CAST_CEIL", "CAST_ROUND", "CAST_TRUNC",
    }  # fmt: skip
    assert cat.cast_modes(2201, "float", "uint8_t") == frozenset()  # no such route
    assert cat.cast_modes(2201, "int32_t", "half") is None  # via SetDeqScale: modes not catalogued
    assert cat.cast_route(2201, "int32_t", "half") is not None


def test_cast_modes_of_the_other_catalogued_archs(cat: Catalog) -> None:
    assert cat.cast_modes(2002, "half", "float") == {"CAST_NONE"}
    assert cat.cast_modes(2002, "half", "int16_t") == {"CAST_RINT"}  # 310P: one mode only
    assert cat.cast_modes(1001, "float", "half") == {"CAST_ODD", "CAST_NONE"}
    assert cat.cast_modes(1001, "float", "int32_t") == frozenset()  # the 910 has no float -> int32 route
    assert cat.cast_modes(2201, "int64_t", "float") == {"CAST_RINT", "CAST_FLOOR", "CAST_CEIL", "CAST_ROUND", "CAST_TRUNC"}


def test_cast_modes_unknown_outside_the_catalogued_archs(cat: Catalog) -> None:
    assert cat.cast_modes(3510, "float", "half") is None
    assert cat.cast_modes(2201, "half", "not_a_type") is None


def test_data_copy_routes(cat: Catalog) -> None:
    assert cat.route_allowed("DataCopy", "GM", "VECIN")
    assert cat.route_allowed("DataCopy", "VECOUT", "GM")
    assert cat.route_allowed("DataCopy", "VECIN", "VECCALC")
    assert cat.route_allowed("DataCopy", "C1", "C2")
    assert cat.route_allowed("DataCopy", "GM", "A1", overload="nd2nz")
    assert cat.route_allowed("DataCopy", "CO1", "CO2", overload="enhanced")
    assert not cat.route_allowed("DataCopy", "CO1", "CO2", overload="count_local_to_local")
    assert not cat.route_allowed("DataCopy", "VECIN", "GM")
    assert not cat.route_allowed("DataCopy", "GM", "A2")
    assert cat.route_allowed("DataCopyPad", "GM", "VECCALC")
    assert {(r.src, r.dst) for r in cat.routes_for("DataCopyPad")} >= {("GM", "VECIN"), ("VECOUT", "GM")}


def test_queue_bindings_and_events(cat: Catalog) -> None:
    vecin = cat.queue_binding("TPosition::VECIN")
    assert vecin is not None and (vecin.src, vecin.dst) == ("GM", "VECIN")
    assert cat.queue_binding("A2").src == "A1"  # type: ignore[union-attr]
    assert cat.queue_binding("VECCALC") is None  # a TQue may not live there
    gm_ub = cat.queue_event("GM", "UB", 2201)
    assert gm_ub is not None and (gm_ub.forward, gm_ub.backward) == ("MTE2_V", "V_MTE2")
    assert cat.queue_event("L0C", "GM", 2201).forward == "M_FIX"  # type: ignore[union-attr]
    assert cat.queue_event("L0C", "GM", 2002) is None
    assert cat.queue_event("L0C", "UB", 2002).forward == "M_V"  # type: ignore[union-attr]
    assert Catalog.hard_event_pipes("HardEvent::MTE2_V") == ("PIPE_MTE2", "PIPE_V")
    assert Catalog.hard_event_pipes("M_FIX") == ("PIPE_M", "PIPE_FIX")


def test_queue_events_of_a_queue_type(cat: Catalog) -> None:
    """What the simulator's lowering and the checker's queue flags both read: a TQue's events from its binding,
    a TQueBind's from the memories of its two positions."""
    from ascendir.chips import tposition_memory

    def events(position: str, source: str, arch: int = 2201) -> tuple[str, str] | None:
        found = cat.queue_events_of(position, source, arch, lambda p: tposition_memory(p, arch))
        return (found.forward, found.backward) if found is not None else None

    assert events("VECIN", "") == ("MTE2_V", "V_MTE2")
    assert events("VECOUT", "") == ("V_MTE3", "MTE3_V")
    assert events("VECOUT", "VECIN") == ("MTE2_MTE3", "MTE3_MTE2")  # TQueBind<VECIN, VECOUT>: UB -> UB
    assert events("A1", "") == events("B1", "") == ("MTE2_MTE1", "MTE1_MTE2")
    assert events("A2", "") == ("MTE1_M", "M_MTE1")
    assert events("CO1", "") == ("M_FIX", "FIX_M")  # L0C -> GM on 2201
    assert events("CO1", "", 2002) == ("M_V", "V_M")  # L0C -> UB where CO2 is UB
    assert events("CO2", "") is None  # GM -> GM: no event
    assert events("VECCALC", "") is None  # no TQue there


# ---------------------------------------------------------------- overload resolution


def test_resolve_add_count_and_mask_forms(cat: Catalog) -> None:
    count = resolved(resolve(cat, "Add", [local("half"), local("half"), local("half"), lit()]))
    assert count.overload.id == "count" and count.bindings == {"T": "half"}
    assert [p.name for p in count.params] == ["dst", "src0", "src1", "count"]
    args = [
        local("float"),
        local("float"),
        local("float"),
        lit("uint64_t"),
        lit(),
        struct("BinaryRepeatParams"),
    ]
    mask = resolved(resolve(cat, "Add", args))
    assert (
        mask.overload.id == "mask" and mask.bindings["T"] == "float" and mask.bindings["isSetMask"] == "true"
    )
    args[3] = ArgInfo("mask_array", "uint64_t")
    assert resolved(resolve(cat, "Add", args)).overload.id == "bitmask"
    explicit = resolved(resolve(cat, "Add", args, template_args=["float", "false"]))
    assert explicit.bindings == {"T": "float", "isSetMask": "false"}


def test_resolve_unknown_arguments_match(cat: Catalog) -> None:
    unknown = ArgInfo("unknown")
    result = resolved(resolve(cat, "Add", [unknown] * 4))
    assert result.overload.id == "count" and result.bindings == {}


def test_resolve_cast_binds_template_arguments_in_order(cat: Catalog) -> None:
    args = [local("float"), local("half"), enum("RoundMode"), lit()]
    result = resolved(resolve(cat, "Cast", args, template_args=["float", "half"]))
    assert result.overload.id == "count"
    assert result.bindings == {"T": "float", "U": "half"}
    deduced = resolved(resolve(cat, "Cast", args))
    assert deduced.bindings == {"T": "float", "U": "half"}
    swapped = rejected(resolve(cat, "Cast", args, template_args=["half", "float"]))
    assert any("T deduced as both half and float" in line for line in swapped.candidates)
    # RoundMode must be an enum argument, not an integer
    assert isinstance(resolve(cat, "Cast", [local("float"), local("half"), lit(), lit()]), NoMatch)


def test_resolve_data_copy_forms(cat: Catalog) -> None:
    assert (
        resolved(resolve(cat, "DataCopy", [local("half"), gm("half"), lit()])).overload.id
        == "count_gm_to_local"
    )
    assert (
        resolved(resolve(cat, "DataCopy", [gm("half"), local("half"), lit()])).overload.id
        == "count_local_to_gm"
    )
    assert (
        resolved(resolve(cat, "DataCopy", [local("half"), local("half"), lit()])).overload.id
        == "count_local_to_local"
    )
    params = resolved(resolve(cat, "DataCopy", [local("float"), gm("float"), struct("DataCopyParams")]))
    assert params.overload.id == "params_gm_to_local"
    nd2nz = resolved(resolve(cat, "DataCopy", [local("half"), gm("half"), struct("Nd2NzParams")]))
    assert nd2nz.overload.id == "nd2nz"
    pad_args = [local("half"), gm("half"), struct("DataCopyExtParams"), struct("DataCopyPadExtParams<half>")]
    pad = resolved(resolve(cat, "DataCopyPad", pad_args))
    # the 950 PaddingMode template parameter takes its default
    assert pad.overload.id == "ext_gm_to_local" and pad.bindings == {"T": "half", "mode": "PaddingMode::Normal"}
    pad_out = resolved(resolve(cat, "DataCopyPad", [gm("half"), local("half"), struct("DataCopyExtParams")]))
    assert pad_out.overload.id == "ext_local_to_gm"
    old_pad = resolved(
        resolve(
            cat,
            "DataCopyPad",
            [local("half"), gm("half"), struct("DataCopyParams"), struct("DataCopyPadParams")],
        )
    )
    assert old_pad.overload.id == "params_gm_to_local"
    mismatch = rejected(resolve(cat, "DataCopyPad", [*pad_args[:3], struct("DataCopyPadExtParams<float>")]))
    assert any("T deduced as both half and float" in line for line in mismatch.candidates)


def test_resolve_wrong_arity_lists_every_candidate(cat: Catalog) -> None:
    result = rejected(resolve(cat, "ReduceMax", [local("half"), local("half"), local("half")]))
    assert result.message == "no matching function for call to 'ReduceMax'"
    assert len(result.candidates) == len(cat.api("ReduceMax").overloads)  # type: ignore[union-attr]
    assert any("expects 4 to 5 arguments, got 3" in line for line in result.candidates)
    assert all(line.startswith("ReduceMax<T") for line in result.candidates)


def test_resolve_inconsistent_type_variable(cat: Catalog) -> None:
    result = rejected(resolve(cat, "Add", [local("half"), local("float"), local("half"), lit()]))
    assert "T deduced as both half and float (argument 2)" in result.candidates[0]


def test_resolve_kind_mismatch_message(cat: Catalog) -> None:
    result = rejected(resolve(cat, "Exp", [local("half"), lit(), lit()]))
    assert "argument 2 is a scalar, expected LocalTensor<T>" in result.candidates[0]


def test_resolve_prefers_fewest_defaults(cat: Catalog) -> None:
    # SetOrgShape(m, n, k) matches both the 3-argument form and, with defaults, nothing else; the
    # 5-argument form needs at least 4 arguments.
    three = resolved(resolve(cat, "SetOrgShape", [lit()] * 3, receiver="Matmul"))
    assert three.overload.id == "mnk"
    four = resolved(resolve(cat, "SetOrgShape", [lit()] * 4, receiver="Matmul"))
    assert four.overload.id == "mnkakb" and len(four.params) == 4
    # ReduceMax count form without calIndex uses one default; still the only match.
    reduce = resolved(resolve(cat, "ReduceMax", [local("half")] * 3 + [lit()]))
    assert reduce.overload.id == "count"


def test_resolve_methods_and_receivers(cat: Catalog) -> None:
    alloc = resolved(
        resolve(cat, "AllocTensor", [], template_args=["half"], receiver="TQue<TPosition::VECIN, 1>")
    )
    assert alloc.overload.id == "plain" and alloc.bindings["T"] == "half"
    assert alloc.overload.returns is not None and alloc.overload.returns.receiver_position
    init = resolved(
        resolve(cat, "InitBuffer", [ArgInfo("object", type_name="TQue"), lit(), lit()], receiver="TPipe")
    )
    assert init.overload.id == "queue"
    tbuf = resolved(
        resolve(cat, "InitBuffer", [ArgInfo("object", type_name="TBuf"), lit()], receiver="TPipe")
    )
    assert tbuf.overload.id == "buffer"
    wrong = rejected(
        resolve(cat, "InitBuffer", [ArgInfo("object", type_name="TBuf"), lit(), lit()], receiver="TPipe")
    )
    assert any("argument 1 is a TBuf, expected TQue" in line for line in wrong.candidates)
    ok = resolve(cat, "SetGlobalBuffer", [ArgInfo("pointer", "half"), lit()], receiver="GlobalTensor<half>")
    assert resolved(ok).overload.id == "sized"
    bad = rejected(
        resolve(cat, "SetGlobalBuffer", [ArgInfo("pointer", "float"), lit()], receiver="GlobalTensor<half>")
    )
    assert "T deduced as both half and float" in bad.candidates[0]


def test_resolve_sync_template_and_unscoped_enum_arguments(cat: Catalog) -> None:
    ok = resolved(resolve(cat, "SetFlag", [enum("event_t")], template_args=["HardEvent::MTE2_V"]))
    assert ok.bindings == {"event": "HardEvent::MTE2_V"}
    wrong = rejected(resolve(cat, "SetFlag", [lit()], template_args=["PIPE_V"]))
    assert "pipe_t value, expected HardEvent" in wrong.candidates[0]
    barrier = resolved(resolve(cat, "PipeBarrier", [], template_args=["PIPE_V"]))
    assert barrier.bindings == {"pipe": "PIPE_V"}
    too_many = rejected(resolve(cat, "PipeBarrier", [], template_args=["PIPE_V", "PIPE_S"]))
    assert "too many template arguments" in too_many.candidates[0]
    # a scoped enum does not convert to an integer parameter
    assert isinstance(resolve(cat, "SetFlag", [enum("RoundMode")], template_args=["HardEvent::V_S"]), NoMatch)


def test_resolve_unknown_api_suggests(cat: Catalog) -> None:
    result = rejected(resolve(cat, "ReduceMx", []))
    assert "ReduceMax" in result.message and result.candidates == ()
    member = rejected(resolve(cat, "Alloc", [], receiver="TQue"))
    assert "no member named 'Alloc' in 'TQue'" in member.message


def test_resolve_select_tensor_or_scalar(cat: Catalog) -> None:
    base = [local("half"), local("uint8_t"), local("half")]
    tensor = resolved(resolve(cat, "Select", [*base, local("half"), enum("SELMODE"), lit()]))
    scalar = resolved(resolve(cat, "Select", [*base, ArgInfo("scalar", "half"), enum("SELMODE"), lit()]))
    assert (tensor.overload.id, scalar.overload.id) == ("tensor_count", "scalar_count")
    assert tensor.bindings == {"T": "half", "U": "uint8_t"}


# ---------------------------------------------------------------- signature language and data checks


def _ctx(cat: Catalog) -> TypeContext:
    return TypeContext(
        canonical_type=cat.canonical_type,
        structs={name: s.type_params for name, s in cat.structs.items()},
        enums=frozenset(cat.enums),
        classes=frozenset(cat.classes),
        positions=frozenset(cat.enums["TPosition"].names),
    )


def test_signature_parser(cat: Catalog) -> None:
    tparams, params, returns = parse_signature(
        "<T, isSetMask: bool = true>(dst: LocalTensor<T>@{A1,B1}, m: uint64_t[2], p: __gm__ T*, n: int = 0) -> T",
        _ctx(cat),
    )
    assert [str(tp) for tp in tparams] == ["T", "isSetMask: bool = true"]
    assert params[0].positions == frozenset({"A1", "B1"}) and params[0].elem == "T"
    assert (params[1].kind, params[1].array_len) == ("mask_array", 2)
    assert (params[2].kind, params[2].elem, params[2].type_text) == ("pointer", "T", "__gm__ T*")
    assert (params[3].elem, params[3].default) == ("int32_t", "0")
    assert returns is not None and returns.kind == "scalar"
    assert not any(p.output for p in params)
    _, (count,), _ = parse_signature("(rsvdCnt: uint64_t&)", _ctx(cat))
    assert count.output and count.kind == "scalar" and str(count) == "rsvdCnt: uint64_t&"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("<T>(dst: LocalTensor<X>)", "neither a declared type variable"),
        ("(x: Float)", "unknown type 'Float'"),
        ("(x: int32_t = 1, y: int32_t)", "without a default follows"),
        ("(x: int32_t@VEC)", "positions only apply to LocalTensor"),
        ("<T>(dst: LocalTensor<T>@VECTOR)", "unknown TPosition"),
        ("<T>(a: T, a: T)", "declared twice"),
        ("<n: int32_t>(x: n)", "non-type template parameter"),
        ("(x: int32_t", "expected ')'"),
        ("<T>(dst: LocalTensor<T>&)", "only scalars are marked as outputs"),
    ],
)
def test_signature_errors(cat: Catalog, text: str, error: str) -> None:
    with pytest.raises(SignatureError, match=re.escape(error)):
        parse_signature(text, _ctx(cat))


def _copy_data(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target)
    return target


@pytest.mark.parametrize(
    ("extra", "error"),
    [
        ('[[api]]\nname = "Foo"\nfamily = "vector"\nsummary = "s"\nref = "r"\noverloads = [{ id = "a", sig = "()" }]\n',
         "unknown family"),
        ('[[api]]\nname = "Foo"\nfamily = "system"\nsummary = "s"\nref = "r"\noverloads = [{ id = "a", sig = "(x: Nope)" }]\n',
         "unknown type 'Nope'"),
        ('[[api]]\nname = "Add"\nfamily = "system"\nsummary = "s"\nref = "r"\noverloads = [{ id = "a", sig = "()" }]\n',
         "defined twice"),
        ('[[api]]\nname = "Foo"\nfamily = "system"\nsummary = "s"\nref = "r"\noverloads = []\n', "no overloads"),
        (('[[api]]\nname = "Foo"\nfamily = "system"\nsummary = "s"\nref = "r"\ndtypes."2201".T = ["half"]\n'
          'overloads = [{ id = "a", sig = "()" }]\n'), "no overload declares"),
        ('[[route]]\napi = "DataCopy"\nsrc = ["GM"]\ndst = ["L0A"]\n', "unknown position"),
        ('[[api]]\nname = "Foo"\nfamily = "system"\nsumary = "s"\nref = "r"\n', "unknown key"),
    ],
)  # fmt: skip
def test_bad_data_is_rejected(tmp_path: Path, extra: str, error: str) -> None:
    data = _copy_data(tmp_path)
    (data / "zz_extra.toml").write_text(extra)
    with pytest.raises(CatalogError, match=re.escape(error)):
        build_catalog(data)


def test_copied_data_builds_the_same_catalog(tmp_path: Path, cat: Catalog) -> None:
    other = build_catalog(_copy_data(tmp_path))
    assert [api.qualified_name for api in other.apis] == [api.qualified_name for api in cat.apis]
    assert other.overload_count == cat.overload_count


# ---------------------------------------------------------------- APIs vendor kernels use (asc-devkit)


def test_resolve_mrgsort_lists_and_info_forms(cat: Catalog) -> None:
    lists = [local("float"), struct("MrgSortSrcList<float>"), ArgInfo("mask_array", "uint16_t"),
             ArgInfo("mask_array", "uint32_t"), lit("uint16_t"), lit()]
    suspended = resolved(resolve(cat, "MrgSort", lists, template_args=["float", "true"]))
    assert suspended.overload.id == "plain"
    assert suspended.bindings == {"T": "float", "isExhaustedSuspension": "true"}
    info_args = [local("half"), struct("MrgSortSrcList<half>"), struct("MrgSort4Info")]
    info = resolved(resolve(cat, "MrgSort", info_args))
    assert info.overload.id == "info" and info.bindings == {"T": "half"}
    mixed_args = [local("half"), struct("MrgSortSrcList<float>"), struct("MrgSort4Info")]
    mixed = rejected(resolve(cat, "MrgSort", mixed_args))
    assert any("T deduced as both half and float" in c for c in mixed.candidates)
    info_struct = cat.struct("MrgSort4Info")
    # complete, in the constructor's order: (elementLengths, ifExhaustedSuspension, validBit, repeatTimes)
    assert info_struct is not None and info_struct.fields_complete and info_struct.ordered
    assert [f.name for f in info_struct.fields] == ["elementLengths", "ifExhaustedSuspension", "validBit", "repeatTimes"]
    assert [f.c_type for f in cat.struct("MrgSortSrcList").fields] == ["LocalTensor<T>"] * 4  # type: ignore[union-attr]


def test_resolve_sort_preparation_and_extraction(cat: Catalog) -> None:
    concat = resolved(resolve(cat, "Concat", [local("float"), local("float"), local("float"), lit()]))
    assert concat.bindings == {"T": "float"}
    extract = resolved(resolve(cat, "Extract", [local("half"), local("uint32_t"), local("half"), lit()]))
    assert extract.overload.id == "plain"
    # the index output is always uint32_t
    assert isinstance(resolve(cat, "Extract", [local("half"), local("half"), local("half"), lit()]), NoMatch)
    sort32 = resolved(resolve(cat, "Sort32", [local("float"), local("float"), local("uint32_t"), lit()]))
    assert sort32.bindings == {"T": "float"}
    length = resolved(resolve(cat, "GetSortLen", [lit("uint32_t")], template_args=["float"]))
    assert length.overload.returns is not None and length.overload.returns.elem == "uint32_t"
    assert resolved(resolve(cat, "GetSortOffset", [lit()], template_args=["half"])).bindings == {"T": "half"}
    counts = [ArgInfo("scalar", "uint16_t")] * 4
    assert resolved(resolve(cat, "GetMrgSortResult", counts)).overload.id == "plain"
    sort = cat.api("Sort")
    assert sort is not None and sort.allowed_dtypes(2201, "T") == ("half", "float")


def test_resolve_transdata_to_5hd_forms(cat: Catalog) -> None:
    params = struct("TransDataTo5HDParams")
    addresses = resolved(resolve(cat, "TransDataTo5HD", [local("uint64_t"), local("uint64_t"), params],
                                 template_args=["half"]))
    assert addresses.overload.id == "addr_tensor" and addresses.bindings == {"T": "half"}
    lists = resolved(resolve(cat, "TransDataTo5HD", [ArgInfo("mask_array"), ArgInfo("mask_array"), params],
                             template_args=["int8_t"]))
    assert lists.overload.id in {"addr_list", "tensor_list"}
    # the address tensors must be uint64_t, and the data tensors do not go in directly
    assert isinstance(resolve(cat, "TransDataTo5HD", [local("half"), local("half"), params]), NoMatch)
    fields = [f.name for f in cat.structs["TransDataTo5HDParams"].fields]
    assert fields == ["dstHighHalf", "srcHighHalf", "repeatTimes", "dstRepStride", "srcRepStride"]
    api = cat.api("TransDataTo5HD")
    assert api is not None and "float" in (api.allowed_dtypes(2201, "T") or ())


def test_resolve_vector_copy_mask_forms(cat: Catalog) -> None:
    head = [local("half", "VECCALC"), local("half", "VECIN")]
    cont = resolved(resolve(cat, "Copy", [*head, lit(), lit(), struct("CopyRepeatParams")]))
    bits = resolved(resolve(cat, "Copy", [*head, ArgInfo("mask_array", "uint64_t"), lit(), struct()]))
    assert (cont.overload.id, bits.overload.id) == ("mask", "bitmask")
    assert cat.api("Copy").family == "vec_unary"  # type: ignore[union-attr]  # runs on PIPE_V
    # the count form is Ascend 950 only, and no catalogued chip is a 950
    assert isinstance(resolve(cat, "Copy", [*head, lit()]), NoMatch)
    assert [f.name for f in cat.structs["CopyRepeatParams"].fields] == [
        "dstStride", "srcStride", "dstRepeatSize", "srcRepeatSize"]


def test_resolve_softmax_without_sum_and_max(cat: Catalog) -> None:
    tiling = ArgInfo("struct", type_name="SoftMaxTiling")
    shape = struct("SoftMaxShapeInfo")
    bare = resolved(resolve(cat, "SoftMax", [local("float"), local("float"), tiling, shape],
                            template_args=["float", "false", "false"]))
    assert bare.overload.id == "no_sum_max"
    half_float = [local("half"), local("float"), local("float"), local("half"), tiling]
    mixed = resolved(resolve(cat, "SoftMax", half_float, template_args=["half"]))
    assert mixed.overload.id == "half_float"
    same = resolved(resolve(cat, "SoftMax", [local("half")] * 4 + [tiling]))
    assert same.overload.id == "plain"


def test_resolve_mean_with_accumulation_type(cat: Catalog) -> None:
    shape = struct("MeanParams")
    wide = resolved(resolve(cat, "Mean", [local("half"), local("half"), local("uint8_t"), shape],
                            template_args=["half", "float"]))
    assert wide.overload.id == "tmp" and wide.bindings["accType"] == "float"
    assert resolved(resolve(cat, "Mean", [local("float"), local("float"), shape])).overload.id == "plain"
    assert [(f.name, f.default) for f in cat.structs["MeanParams"].fields] == [
        ("outter", "1"), ("inner", None), ("n", None)]


def test_resolve_tbuf_queue_interface_and_tensor_size(cat: Catalog) -> None:
    tbuf = "TBuf<TPosition::VECCALC>"
    alloc = resolved(resolve(cat, "AllocTensor", [], template_args=["float"], receiver=tbuf))
    assert alloc.overload.returns is not None and alloc.overload.returns.receiver_position
    free = resolved(resolve(cat, "FreeTensor", [local("float")], receiver=tbuf))
    assert free.bindings == {"T": "float"}
    assert resolved(resolve(cat, "SetSize", [lit()], receiver="LocalTensor<half>")).overload.id == "plain"
    assert resolved(resolve(cat, "Init", [], receiver="TPipe")).overload.id == "plain"
    # methods stay methods: no free AllocTensor or SetSize
    assert cat.api("SetSize") is None


def test_div_ceil_is_ascendc_but_ceil_div_is_not(cat: Catalog) -> None:
    div_ceil = resolved(resolve(cat, "DivCeil", [lit("uint32_t"), lit()]))
    assert div_ceil.overload.returns is not None and div_ceil.overload.returns.elem == "uint32_t"
    # CeilDiv is a name projects give their own helpers; the vendor's is internal to the Matmul headers
    assert cat.api("CeilDiv") is None


def test_resolve_deprecated_reduction_names(cat: Catalog) -> None:
    pair = resolved(resolve(cat, "PairReduceSum", [local("float"), local("float")] + [lit()] * 5))
    assert pair.overload.id == "mask" and pair.params[3].name == "mask"  # mask after repeatTime
    repeat = resolved(resolve(cat, "RepeatReduceSum", [local("float"), local("float")] + [lit()] * 6,
                              template_args=["float", "false"]))
    assert repeat.bindings == {"T": "float", "isSetMask": "false"}
    halves = [ArgInfo("scalar", "half")] * 2
    both = resolved(resolve(cat, "GetReduceMaxMinCount", halves, template_args=["half"]))
    assert both.overload.id == "value_index"
    sums = resolved(resolve(cat, "ReduceRepeat", [local("float"), local("float")] + [lit()] * 5,
                            template_args=["ReduceType::SUM", "float", "float", "false"]))
    assert sums.overload.id == "mask" and sums.bindings["reduceType"] == "ReduceType::SUM"
    assert cat.enum_value("ReduceType::MAX") is not None


def test_resolve_high_level_math_forms(cat: Catalog) -> None:
    for name in ("Sin", "Sign"):
        with_tmp = resolved(resolve(cat, name, [local("half"), local("half"), local("uint8_t"), lit()]))
        assert with_tmp.overload.id == "tmp_count"
        assert resolved(resolve(cat, name, [local("half"), local("half")])).overload.id == "whole"
    assert resolved(resolve(cat, "Log", [local("float"), local("float"), lit()])).overload.id == "count"
    tensor_ceil = resolved(resolve(cat, "Ceil", [local("float"), local("float"), lit()]))
    scalar_ceil = resolved(resolve(cat, "Ceil", [lit("uint32_t"), lit()]))
    assert (tensor_ceil.overload.id, scalar_ceil.overload.id) == ("count", "scalar")
    rows = resolved(resolve(cat, "Sum", [local("half"), local("half"), struct("SumParams")]))
    assert rows.overload.id == "plain"
    shape = ArgInfo("mask_array", "uint32_t")
    brc = resolved(resolve(cat, "Broadcast", [local("float"), local("float"), shape, shape],
                           template_args=["float", "2", "1"]))
    assert brc.bindings == {"T": "float", "dim": "2", "axis": "1", "isReuseSource": "false"}
    cum = resolved(resolve(cat, "CumSum", [local("float")] * 3 + [local("uint8_t"), struct("CumSumInfo")]))
    assert cum.overload.id == "tmp"
    # Where's body is compiled for Ascend 950 (3510) and 5102 only: catalogued so that ASC514 can say so;
    # each source is a tensor or a scalar. BroadCast is the implementation Broadcast forwards to (declared in
    # namespace AscendC by impl/adv_api/detail/pad/broadcast), which shipped kernels call: same forms
    where = resolved(resolve(cat, "Where", [local("half"), lit("half"), local("half"), local("bool"), lit()]))
    assert where.overload.id == "scalar_tensor" and where.bindings == {"T": "half", "V": "bool"}
    assert cat.api("Where").empty_archs == {2201, 2002, 1001}  # type: ignore[union-attr]
    # PhiloxRandom's key and counter are uint32_t arrays, given as braced lists
    key = ArgInfo("struct")
    philox = resolved(resolve(cat, "PhiloxRandom", [local("float"), key, key, lit()], template_args=["7"]))
    assert philox.overload.id == "count" and philox.bindings["T"] == "float"
    assert isinstance(resolve(cat, "PhiloxRandom", [local("float"), struct("DataCopyParams"), key, lit()]), NoMatch)
    assert [o.id for o in cat.api("BroadCast").overloads] == [o.id for o in cat.api("Broadcast").overloads]


def test_resolve_select_with_bytes_mask(cat: Catalog) -> None:
    info = struct("SelectWithBytesMaskShapeInfo")
    args = [local("half"), local("half"), ArgInfo("scalar", "half"), local("uint8_t"), local("uint8_t"), info]
    old = resolved(resolve(cat, "SelectWithBytesMask", args))
    new = resolved(resolve(cat, "Select", args))
    assert (old.overload.id, new.overload.id) == ("tensor_scalar", "bytes_mask_tensor_scalar")
    assert new.bindings == {"T": "half", "U": "uint8_t", "isReuseMask": "true"}
    scalar = ArgInfo("scalar", "half")
    swapped = [local("half"), scalar, local("half"), local("uint8_t"), local("uint8_t"), info]
    assert resolved(resolve(cat, "Select", swapped)).overload.id == "bytes_mask_scalar_tensor"


def test_matmul_impl_is_the_matmul_class(cat: Catalog) -> None:
    receiver = "MatmulImpl<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG>"
    assert cat.class_name(receiver) == "Matmul"
    assert cat.api("SetTensorA", receiver=receiver) is cat.api("SetTensorA", receiver="Matmul")
    tiling = ArgInfo("pointer", type_name="TCubeTiling")
    pipe = ArgInfo("pointer", type_name="TPipe")
    assert resolved(resolve(cat, "Init", [tiling, pipe], receiver=receiver)).overload.id == "plain"
    assert resolved(resolve(cat, "Init", [tiling], receiver=receiver)).overload.id == "plain"
    assert resolved(resolve(cat, "SetHF32", [lit("bool"), lit()], receiver=receiver)).overload.id == "plain"
    assert resolved(resolve(cat, "SetSubBlockIdx", [lit()], receiver=receiver)).overload.id == "plain"
    cube_args = [gm("float"), lit("bool"), lit(), lit("bool")]
    cube = resolved(resolve(cat, "IterateBatch", cube_args, receiver=receiver))
    assert cube.bindings["T"] == "float"
    assert resolved(resolve(cat, "SetWorkspace", [gm("uint8_t")], receiver="Matmul")).overload.id == "tensor"


def test_resolve_matmul_batch_methods(cat: Catalog) -> None:
    assert resolved(resolve(cat, "SetBatchNum", [lit(), lit()], receiver="Matmul")).overload.id == "plain"
    n_batch = resolved(resolve(cat, "IterateNBatch", [lit(), lit(), lit(), lit("bool")], receiver="Matmul",
                               template_args=["false"]))
    assert n_batch.bindings == {"sync": "false", "waitIterateBatch": "false"}
    user = resolved(resolve(cat, "SetUserDefInfo", [ArgInfo("scalar", "uint64_t")], receiver="Matmul"))
    assert user.overload.params[0].elem == "uint64_t"


def test_resolve_deprecated_init_output(cat: Catalog) -> None:
    filled = resolved(resolve(cat, "InitOutput", [gm("int32_t"), lit()], template_args=["int32_t"]))
    assert filled.bindings == {"T": "int32_t"} and filled.overload.params[2].default == "0"
    assert cat.api("InitOutput").family == cat.api("InitGlobalMemory").family  # type: ignore[union-attr]


def test_resolve_trans_data_impl_with_ub_pointer_lists(cat: Catalog) -> None:
    params = struct("TransDataTo5HDParams")
    pointers = ArgInfo("mask_array")  # `__ubuf__ half* list[16]`: an array whose elements are not scalars
    direct = resolved(resolve(cat, "TransDataTo5HDImpl", [pointers, pointers, params]))
    assert direct.overload.id == "ub_pointers"
    typed = resolved(resolve(cat, "TransDataTo5HDImpl", [ArgInfo("pointer", "half")] * 2 + [params]))
    assert typed.bindings == {"T": "half"}
    assert isinstance(resolve(cat, "TransDataTo5HDImpl", [local("half"), local("half"), params]), NoMatch)


def test_resolve_topk_and_its_structs(cat: Catalog) -> None:
    head = [local("float"), local("int32_t"), local("float"), local("int32_t"), local("bool")]
    tail = [lit(), struct("TopkTiling"), struct("TopKInfo"), lit("bool")]
    plain = resolved(resolve(cat, "TopK", [*head, *tail], template_args=["float", "true", "false", "false",
                                                                         "TopKMode::TOPK_NSMALL"]))
    assert plain.overload.id == "plain" and plain.bindings["topkMode"] == "TopKMode::TOPK_NSMALL"
    with_tmp = resolved(resolve(cat, "TopK", [*head, local("uint8_t"), *tail[:3]]))
    assert with_tmp.overload.id == "tmp" and with_tmp.bindings["T"] == "float"
    # the index outputs are int32_t
    assert isinstance(resolve(cat, "TopK", [local("float")] * 5 + tail), NoMatch)
    assert [f.name for f in cat.struct("TopKInfo").fields] == ["outter", "inner", "n"]  # type: ignore[union-attr]
    assert cat.enum_value("TopKMode::TOPK_NORMAL") is not None


def test_resolve_confusion_transpose_and_transpose_types(cat: Catalog) -> None:
    kind = enum("TransposeType")
    tiling = struct("ConfusionTransposeTiling")
    tmp = resolved(resolve(cat, "ConfusionTranspose", [local("half"), local("half"), local("uint8_t"), kind, tiling]))
    assert tmp.overload.id == "tmp" and tmp.bindings == {"T": "half"}
    assert resolved(resolve(cat, "ConfusionTranspose", [local("half"), local("half"), kind, tiling])).overload.id == "plain"
    assert isinstance(resolve(cat, "ConfusionTranspose", [local("half"), local("float"), kind, tiling]), NoMatch)
    assert cat.enum_value("TransposeType::TRANSPOSE_NZ2ND_0213") is not None
    assert cat.enum_value("TransposeType::TRANSPOSE_ND2ND_021") is None  # Ascend 950 only


def test_resolve_local_tensor_address_and_shape_methods(cat: Catalog) -> None:
    receiver = "LocalTensor<half>"
    addr = resolved(resolve(cat, "SetAddr", [struct("TBuffAddr")], receiver=receiver))
    assert addr.overload.id == "plain"
    shape = resolved(resolve(cat, "SetShapeInfo", [struct("ShapeInfo")], receiver=receiver))
    assert shape.params[0].type_name == "ShapeInfo"
    assert isinstance(resolve(cat, "SetShapeInfo", [local("half")], receiver=receiver), NoMatch)
    pop = resolved(resolve(cat, "PopStackBuffer", [local("float")], template_args=["float", "TPosition::LCM"]))
    assert pop.bindings == {"T": "float", "pos": "TPosition::LCM"}
    assert cat.enum_value("DataFormat::ND") is not None


def test_resolve_scalar_helpers_and_cross_core_events(cat: Catalog) -> None:
    ceil = resolved(resolve(cat, "CeilDivision", [lit(), lit()]))
    assert ceil.overload.returns is not None and ceil.overload.returns.elem == "int32_t"
    assert resolved(resolve(cat, "AlignUp", [lit("uint32_t"), lit()])).overload.id == "plain"
    assert isinstance(resolve(cat, "AlignUp", [lit()]), NoMatch)
    hccl = resolved(resolve(cat, "GetHcclContext", [], template_args=["0"]))
    assert hccl.overload.returns is not None and hccl.overload.returns.kind == "pointer"
    assert resolved(resolve(cat, "ScalarGetSFFValue", [lit("uint64_t")], template_args=["1"])).overload.id == "plain"
    wait = resolved(resolve(cat, "WaitEvent", [lit("uint16_t")]))
    assert wait.bindings == {"pipe": "PIPE_S"}
    notify = resolved(resolve(cat, "NotifyEvent", [lit("uint16_t")], template_args=["PIPE_MTE3"]))
    assert notify.bindings == {"pipe": "PIPE_MTE3"}
    assert resolved(resolve(cat, "DisableDmaAtomic", [])).overload.id == "plain"
    assert resolved(resolve(cat, "Load3DSetFMatrixCal", [lit(), lit(), ArgInfo("pointer", "uint8_t")])).overload.id == "plain"
    assert cat.enum_value("CacheMode::CACHE_MODE_DISABLE") is not None
    assert cat.enum_value("HCCL_DATA_TYPE_FP16") is not None  # unscoped
    assert cat.enum_value("BlockMode::BLOCK_MODE_MATRIX") is not None
    assert cat.enum_value("QuantMode_t::F322BF16") is not None


def test_resolve_fixpipe_configuration(cat: Catalog) -> None:
    two = resolved(resolve(cat, "SetFixPipeConfig", [local("uint64_t"), local("uint64_t"), lit("bool")]))
    assert two.overload.id == "relu_quant"
    one = resolved(resolve(cat, "SetFixPipeConfig", [local("uint64_t")], template_args=["uint64_t", "true"]))
    assert one.overload.id == "one" and one.bindings["setRelu"] == "true"
    assert resolved(resolve(cat, "SetFixpipeNz2ndFlag", [lit()] * 3)).overload.id == "plain"


def test_resolve_flash_softmax_deepnorm_floor_and_dequant(cat: Catalog) -> None:
    tiling, shape = struct("SoftMaxTiling"), struct("SoftMaxShapeInfo")
    same = resolved(resolve(cat, "SoftmaxFlashV2", [local("float")] * 7 + [tiling, shape],
                            template_args=["float", "true"]))
    assert same.overload.id == "plain" and same.bindings["isUpdate"] == "true"
    mixed = [local("half"), local("float"), local("float"), local("half"), local("half"), local("float"), local("float")]
    assert resolved(resolve(cat, "SoftmaxFlashV2", [*mixed, tiling])).overload.id == "half_float"
    assert resolved(resolve(cat, "SoftmaxFlashV2", [local("float")] * 8 + [tiling])).overload.id == "reduce_max"
    norm = resolved(resolve(cat, "DeepNorm", [local("half")] * 7 + [local("uint8_t"), lit(), lit(),
                                                                    struct("DeepNormTiling")]))
    assert norm.overload.id == "tmp"
    assert resolved(resolve(cat, "Floor", [local("float"), local("float"), lit()])).overload.id == "count"
    deq = resolved(resolve(cat, "AscendDequant", [local("half"), local("int32_t"), local("float"),
                                                  struct("DequantParams")]))
    assert deq.overload.id == "params" and deq.bindings["dstT"] == "half" and deq.bindings["scaleT"] == "float"
    assert isinstance(resolve(cat, "AscendDequant", [local("half"), local("half"), local("float")]), NoMatch)


def test_resolve_mask_helpers_barrier_and_block_size(cat: Catalog) -> None:
    # AscendCUtils::SetMaskCount<T>() / SetMask<T>(...) reach the catalog without their class qualifier
    assert resolved(resolve(cat, "SetMaskCount", [], template_args=["float"])).overload.id == "template"
    assert resolved(resolve(cat, "SetMaskCount", [])).overload.id == "plain"
    assert resolved(resolve(cat, "SetMaskNorm", [], template_args=["half"])).bindings == {"T": "half"}
    words = resolved(resolve(cat, "SetMask", [lit("uint64_t"), lit("uint64_t")], template_args=["half"]))
    assert words.overload.id == "words"
    assert resolved(resolve(cat, "SetMask", [lit()], template_args=["float"])).overload.id == "len"
    assert isinstance(resolve(cat, "SetMask", [local("float")], template_args=["float"]), NoMatch)
    size = resolved(resolve(cat, "GetDataBlockSizeInBytes", []))
    assert size.overload.returns is not None and size.overload.returns.elem == "int16_t"
    barrier = resolved(resolve(cat, "DataSyncBarrier", [], template_args=["MemDsbT::ALL"]))
    assert barrier.bindings == {"arg0": "MemDsbT::ALL"}
    assert cat.api("DataSyncBarrier").archs == frozenset({2201})  # type: ignore[union-attr]
    assert cat.enum_value("MemDsbT::DDR") is not None


def test_resolve_compares_mul_add_dst_and_gm_fill(cat: Catalog) -> None:
    cmp = enum("CMPMODE")
    counted = resolved(resolve(cat, "Compares", [local("uint8_t"), local("half"), lit(), cmp, lit()]))
    assert counted.overload.id == "count" and counted.bindings == {"T": "half", "U": "uint8_t"}
    masked = [local("uint8_t"), local("float"), lit(), cmp, lit("uint64_t"), lit(), struct("UnaryRepeatParams")]
    assert resolved(resolve(cat, "Compares", masked)).overload.id == "mask"
    assert isinstance(resolve(cat, "Compares", [local("uint8_t"), local("half"), local("half"), cmp, lit()]), NoMatch)
    mla = resolved(resolve(cat, "MulAddDst", [local("float"), local("half"), local("half"), lit()]))
    assert mla.overload.id == "count" and mla.bindings == {"T": "float", "U": "half"}
    assert isinstance(resolve(cat, "MulAddDst", [local("float"), local("half"), local("float"), lit()]), NoMatch)
    fill = resolved(resolve(cat, "Fill", [gm("float"), lit("uint64_t"), lit("float")]))
    assert fill.overload.id == "gm" and fill.bindings == {"T": "float"}
    assert isinstance(resolve(cat, "Fill", [local("float"), lit(), lit()]), NoMatch)


def test_resolve_power_erf_and_softmax_grad(cat: Catalog) -> None:
    two = resolved(resolve(cat, "Power", [local("float")] * 3 + [lit()]))
    assert two.overload.id == "count" and two.bindings["T"] == "float"
    assert resolved(resolve(cat, "Power", [local("half")] * 3 + [local("uint8_t"), lit()])).overload.id == "tmp_count"
    exponent = resolved(resolve(cat, "Power", [local("half"), local("half"), lit("half"), lit()]))
    assert exponent.overload.id == "scalar_exp_count"
    base = resolved(resolve(cat, "Power", [local("half"), lit("half"), local("half")]))
    assert base.overload.id == "scalar_base_whole"
    assert isinstance(resolve(cat, "Power", [local("half"), local("float"), local("half"), lit()]), NoMatch)
    assert resolved(resolve(cat, "Erf", [local("float"), local("float"), lit()])).overload.id == "count"
    assert resolved(resolve(cat, "Erf", [local("half"), local("half"), local("uint8_t")])).overload.id == "tmp"
    tiling, shape = struct("SoftMaxTiling"), struct("SoftMaxShapeInfo")
    grad = resolved(resolve(cat, "SoftmaxGrad", [local("float")] * 3 + [local("uint8_t"), tiling, lit("bool"), shape],
                            template_args=["float", "true"]))
    assert grad.overload.id == "tmp" and grad.bindings["isReuseSource"] == "true"
    assert resolved(resolve(cat, "SoftmaxGrad", [local("half")] * 3 + [tiling])).overload.id == "plain"
    assert isinstance(resolve(cat, "SoftmaxGrad", [local("half")] * 3 + [shape]), NoMatch)
    front = resolved(resolve(cat, "SoftmaxGradFront", [local("half")] * 3 + [tiling, shape]))
    assert front.overload.id == "plain"
