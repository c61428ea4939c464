"""The Matmul API's host tiling objects (matmul_tiling::MultiCoreMatmulTiling, MatmulApiTiling).

The host lowering records their setters as `host.matmul_*` ops; at GetTiling the evaluator repeats the
checks with which the library rejects a configuration outright, and otherwise leaves GetTiling's
result (taken as 0) and the TCubeTiling it fills unknown.

Every "library" column below is what the open-source tiling library (cannmirror/asc-devkit,
impl/adv_api/tiling/matmul) returned for the same configuration when built on the host with 910B2
platform numbers (310P numbers where the chip says so).
"""

from __future__ import annotations

from io import StringIO

import pytest
from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, memref, scf
from xdsl.parser import Parser
from xdsl.printer import Printer

from ascendir.dialects import host
from ascendir.host_eval import (
    MatmulMatrixType,
    MatmulTilingObject,
    TensorSpec,
    TilingInputs,
    TilingResult,
    resolve_chip,
)
from ascendir.host_eval_matmul import single_core_blocks
from ascendir.lower.host import evaluate_program_tiling, lower_host_tiling
from frontend.pipeline import load_text

FAILED = host.GRAPH_FAILED
DTYPES = {"float": 0, "half": 1, "int8": 2, "bf16": 27}
GM, TSCM = host.MATMUL_POSITIONS["GM"], host.MATMUL_POSITIONS["TSCM"]
Matrix = host.MatmulMatrix


# ----------------------------------------------------------------------------------------------------
# The model, configuration by configuration
# ----------------------------------------------------------------------------------------------------


def configured(
    chip: str = "910B2",
    multi_core: bool = True,
    dim: int = 1,
    a: str = "half",
    mnk: tuple[int, int, int] = (256, 256, 256),
    base: tuple[int, int, int] = (-1, -1, -1),
    bias: bool = False,
    bias_position: int = GM,
    b_position: int = GM,
    buffer_space: dict[str, int] | None = None,
    set_shape: bool = True,
) -> MatmulTilingObject:
    """An object set up as a typical TilingFunc does: types, shape and original shape, fixed split, bias."""
    obj = MatmulTilingObject.create(resolve_chip(chip)[0], multi_core)
    obj.block_dim = dim
    obj.types[Matrix.A] = MatmulMatrixType(GM, 0, DTYPES[a])
    obj.types[Matrix.B] = MatmulMatrixType(b_position, 0, DTYPES[a])
    obj.types[Matrix.BIAS] = MatmulMatrixType(bias_position, 0, DTYPES["float"])
    if set_shape:
        obj.set_shape(*mnk)
    obj.org = [*mnk, mnk[2]]
    assert obj.set_fix_split(*base) == 0
    obj.bias = bias
    if buffer_space is not None:
        obj.set_buffer_space(buffer_space)
    return obj


# (name, object, what the library's GetTiling returned, the stage and message the model gives or None)
CASES = [
    ("l0c", configured(a="float", mnk=(128, 512, 1024), base=(128, 512, -1), bias=True), -1,
     ("check", "the fixed split 128 x 512 needs 256 KiB of L0C accumulators, the 910B2 has 128 KiB")),
    ("l0a", configured(base=(256, 64, 256)), -1,
     ("check", "the fixed split baseM 256 x baseK 256 of DT_FLOAT16 needs 128 KiB of L0A, the 910B2 has 64 KiB")),
    ("l0b", configured(base=(16, 256, 256)), -1,
     ("check", "the fixed split baseK 256 x baseN 256 of DT_FLOAT16 needs 128 KiB of L0B, the 910B2 has 64 KiB")),
    ("zero k", configured(mnk=(256, 256, 0)), -1,
     ("check", "SetShape(256, 256, 0) has a zero size; M, N and K must not be 0")),
    ("bias 910B", configured(a="float", mnk=(32, 1024, 64), base=(32, 512, -1), bias=True), -1,
     ("check", "with a bias, baseN 512 is more than the 256 columns one load of the 910B2 bias table takes")),
    # the 310P has no bias table, and without a bias the 910B2 does not care
    ("bias 310P", configured("310P", a="float", mnk=(32, 1024, 64), base=(32, 512, -1), bias=True), 0, None),
    ("no bias", configured(a="float", mnk=(32, 1024, 64), base=(32, 512, -1)), 0, None),
    ("baseM alone", configured(mnk=(8192, 256, 256), base=(4096, -1, -1)), -1,
     ("check", "baseM 4096 needs, for 16 columns, 256 KiB of L0C accumulators, the 910B2 has 128 KiB")),
    ("buffer space", configured(base=(64, 256, -1), buffer_space={"l1": -1, "l0c": 32768, "ub": -1, "bt": -1}), -1,
     ("check", "the fixed split 64 x 256 needs 64 KiB of L0C accumulators, SetBufferSpace leaves 32 KiB of L0C")),
    # SetBufferSpace past the chip's L0C returns -1 and changes nothing
    ("buffer space too big", configured(base=(64, 256, -1), buffer_space={"l1": -1, "l0c": 300000, "ub": -1, "bt": -1}),
     0, None),
    ("TSCM bias 310P", configured("310P", bias=True, bias_position=TSCM), -1,
     ("check", "the bias is in TPosition::TSCM, which the 310P does not support")),
    ("TSCM bias 910B", configured(bias=True, bias_position=TSCM), 0, None),
    ("baseN past N", configured(a="float", mnk=(128, 20, 10), base=(128, 128, -1), bias=True), -1,
     ("split", "the fixed baseN 128 spans 8 blocks of 16 columns, more than the 2 that N = 20 gives one core")),
    ("baseM past M, 20 cores", configured(dim=20, mnk=(40, 512, 64), base=(64, 128, -1)), -1,
     ("split", "the fixed baseM 64 spans 4 blocks of 16 rows, more than the 1 of the 16 rows each core gets when the "
               "library splits M = 40 over the cores")),
    # M = 272 is 17 blocks, which the library rounds up to 18 (17 has too few divisors): 288 still fits
    ("M rounded up, 1 core", configured(mnk=(272, 64, 64), base=(288, 32, -1)), 0, None),
    # of 8 cores, the library's split (ascendir.matmul_core_split) gives each core 136 rows: 9 blocks
    ("M rounded up, 8 cores", configured(dim=8, mnk=(272, 64, 64), base=(288, 32, -1)), -1,
     ("split", "the fixed baseM 288 spans 18 blocks of 16 rows, more than the 9 of the 136 rows each core gets when "
               "the library splits M = 272 over the cores")),
    ("past the rounding", configured(dim=8, mnk=(272, 64, 64), base=(304, 32, -1)), -1,
     ("split", "the fixed baseM 304 spans 19 blocks of 16 rows, more than the 9 of the 136 rows each core gets when "
               "the library splits M = 272 over the cores")),
    # int8 B is split in pairs of 16-column blocks: N = 40 (3 blocks) takes a 64-column base
    ("int8 pairs", configured(a="int8", mnk=(64, 40, 64), base=(64, 64, -1)), 0, None),
    ("int8 past pairs", configured(a="int8", mnk=(64, 40, 64), base=(64, 80, -1)), -1,
     ("split", "the fixed baseN 80 spans 5 blocks of 16 columns, more than the 4 that N = 40 gives one core")),
    # without SetShape the multi-core M/N split settles the tiling before the L0 search
    ("no SetShape, 8 cores", configured(dim=8, mnk=(40, 512, 64), base=(64, 128, -1), set_shape=False), 0, None),
    ("B in TSCM, 8 cores", configured(dim=8, mnk=(40, 512, 64), base=(64, 128, -1), b_position=TSCM), -1, None),
    ("MatmulApiTiling", configured(multi_core=False, mnk=(40, 512, 64), base=(64, 128, -1)), -1,
     ("split", "the fixed baseM 64 spans 4 blocks of 16 rows, more than the 3 that M = 40 gives one core")),
    ("fits", configured(a="float", dim=2, mnk=(256, 512, 128), base=(128, 128, -1), bias=True), 0, None),
    ("no fixed split", configured(a="float", mnk=(128, 20, 10), bias=True), 0, None),
]  # fmt: skip


@pytest.mark.parametrize(("obj", "library", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_model_agrees_with_the_library(obj: MatmulTilingObject, library: int, expected: tuple[str, str] | None) -> None:
    found = obj.failure()
    assert found == expected
    if found is not None:
        assert library == -1  # never a failure the library does not have


def test_set_fix_split_validates_like_the_library() -> None:
    obj = configured()
    assert obj.set_fix_split(100, 64, -1) == -1  # not a multiple of 16: nothing stored
    assert obj.base == [-1, -1, -1]
    assert obj.set_fix_split(0, 64, -1) == -1
    assert obj.set_fix_split(64, 48, 24) == -1  # baseK of half must be a multiple of 16, the M and N stay
    assert obj.base == [64, 48, -1]
    obj.types[Matrix.A] = MatmulMatrixType(GM, 0, DTYPES["float"])
    assert obj.set_fix_split(-1, -1, 24) == 0  # of float, a multiple of 8
    assert obj.base == [64, 48, 24]


def test_set_buffer_space_aligns_down_and_rejects_out_of_range() -> None:
    obj = configured()
    assert obj.set_buffer_space({"l1": -1, "l0c": 100000, "ub": -1, "bt": -1}) == 0
    assert obj.pool["l0c"] == 100000 - 100000 % 32 and obj.limited == {"l0c"}
    assert obj.set_buffer_space({"l1": -2, "l0c": -1, "ub": -1, "bt": -1}) == -1


def test_what_steers_the_search_leaves_only_the_first_checks() -> None:
    obj = configured(a="float", mnk=(128, 20, 10), base=(128, 128, -1), bias=True)
    obj.configured.append("SetMatmulConfigParams")
    assert obj.failure() is None  # the split search is no longer the library's default one
    obj.set_fix_split(128, 512, -1)
    assert obj.failure() is not None and obj.failure()[0] == "check"  # type: ignore[index]
    obj.unknown.append("GetBaseM")
    assert obj.failure() is None


def test_default_constructed_object_has_the_built_in_910b_sizes() -> None:
    obj = MatmulTilingObject.create(None, True)
    obj.set_shape(128, 512, 64)
    obj.set_fix_split(128, 512, -1)
    assert obj.failure() == ("check", (
        "the fixed split 128 x 512 needs 256 KiB of L0C accumulators, the built-in 910B configuration has 128 KiB"))


@pytest.mark.parametrize(("blocks", "kept"), [(1, 1), (8, 8), (16, 16), (17, 18), (2053, 2052), (19, 20)])
def test_single_core_block_counts(blocks: int, kept: int) -> None:
    # 17 and 19 are primes the library steps past; above 2048 blocks it steps down towards 2048
    assert single_core_blocks(blocks) == kept


# ----------------------------------------------------------------------------------------------------
# Lowered and run
# ----------------------------------------------------------------------------------------------------

HEADER = """
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(MmTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rows);
    TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(MmCustom, MmTilingData)
}
"""


def tiling_func(body: str, prelude: str = "") -> str:
    """A TilingFunc reading x [M, K] and w [K, N], with `body` between the shape reads and the save."""
    return HEADER + prelude + """
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const int32_t m = static_cast<int32_t>(context->GetInputShape(0)->GetOriginShape().GetDim(0));
    const int32_t k = static_cast<int32_t>(context->GetInputShape(0)->GetOriginShape().GetDim(1));
    const int32_t n = static_cast<int32_t>(context->GetInputShape(1)->GetOriginShape().GetDim(1));
    MmTilingData tiling;
""" + body + """
    tiling.set_rows(static_cast<uint32_t>(m));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


SETUP = """
    matmul_tiling::MultiCoreMatmulTiling mm(platform);
    mm.SetDim(1);
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetShape(m, n, k);
    mm.SetOrgShape(m, n, k);
    mm.SetBias(true);
    mm.SetBufferSpace(-1, -1, -1);
"""
CHECKED = "    if (mm.GetTiling(tiling.cube) == -1) {\n        return ge::GRAPH_FAILED;\n    }\n"


def run(source: str, m: int = 128, k: int = 64, n: int = 512) -> TilingResult:
    inputs = [TensorSpec((m, k), "float32"), TensorSpec((k, n), "float32")]
    return evaluate_program_tiling(load_text(source, "mm_tiling.cpp"), TilingInputs(inputs))


def line_of(result: TilingResult) -> int:
    assert result.failure_op is not None
    loc = result.failure_op.location
    assert isinstance(loc, builtin.FileLineColLoc)
    return loc.line.data


def line_with(source: str, text: str) -> int:
    return next(i for i, line in enumerate(source.splitlines(), 1) if text in line)


def test_a_rejected_fixed_split_fails_the_tiling_function_at_get_tiling() -> None:
    source = tiling_func(SETUP + "    mm.SetFixSplit(m, n, -1);\n" + CHECKED)
    result = run(source)
    assert result.status == FAILED and result.complete
    assert result.diagnostics == [
        "GetTiling returns -1: the fixed split 128 x 512 needs 256 KiB of L0C accumulators, the 910B2 has 128 KiB",
        "TilingFunc returned ge::GRAPH_FAILED",
    ]
    assert isinstance(result.failure_op, host.MatmulGetTilingOp)
    assert line_of(result) == line_with(source, "mm.GetTiling")


def test_a_fitting_split_runs_on_with_the_modelled_cube_tiling() -> None:
    result = run(tiling_func(SETUP + "    mm.SetFixSplit(128, 128, -1);\n" + CHECKED), n=256)
    assert result.succeeded
    assert not result.complete  # the library's own search is not run: the TCubeTiling below is a model of it
    cube = {k.split(".", 1)[1]: v for k, v in result.fields.items() if k.startswith("cube.")}
    assert result.fields["rows"] == 128
    # one core takes all of C; the fixed split is kept; K = 64 floats in base blocks of 32
    assert {k: cube[k] for k in ("usedCoreNum", "M", "N", "Ka", "singleCoreM", "singleCoreN", "singleCoreK",
                                 "baseM", "baseN", "baseK", "isBias")} == {
        "usedCoreNum": 1, "M": 128, "N": 256, "Ka": 64, "singleCoreM": 128, "singleCoreN": 256, "singleCoreK": 64,
        "baseM": 128, "baseN": 128, "baseK": 32, "isBias": 1}
    assert result.diagnostics == [
        "GetTiling is taken as succeeding, and the TCubeTiling it fills comes from a model of the library's split "
        "(ascendir.matmul_tiling), not the library"]


def test_the_result_through_a_local_and_a_helper_taking_the_object() -> None:
    prelude = """
static void Configure(matmul_tiling::MultiCoreMatmulTiling& mm, int32_t m, int32_t n, int32_t k)
{
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    mm.SetShape(m, n, k);
    mm.SetFixSplit(128, 128);
}
"""
    body = """
    matmul_tiling::MultiCoreMatmulTiling mm(platform);
    Configure(mm, m, n, k);
    int64_t ret = mm.GetTiling(tiling.cube);
    if (ret != 0) {
        return ge::GRAPH_FAILED;
    }
"""
    source = tiling_func(body, prelude)
    failed = run(source, m=128, k=64, n=20)
    assert failed.status == FAILED and failed.complete
    assert failed.diagnostics[0] == (
        "GetTiling returns -1: the fixed baseN 128 spans 8 blocks of 16 columns, more than the 2 that N = 20 gives one "
        "core")
    assert line_of(failed) == line_with(source, "mm.GetTiling")
    assert run(source, m=128, k=64, n=256).succeeded


def test_default_and_functional_construction() -> None:
    default = tiling_func("""
    matmul_tiling::MultiCoreMatmulTiling mm;
    mm.SetShape(m, n, k);
    mm.SetFixSplit(m, n);
""" + CHECKED)
    assert run(default).diagnostics[0] == (
        "GetTiling returns -1: the fixed split 128 x 512 needs 256 KiB of L0C accumulators, the built-in 910B "
        "configuration has 128 KiB")
    functional = tiling_func("""
    auto mm = matmul_tiling::MatmulApiTiling(platform);
    mm.SetShape(m, n, 0);
""" + CHECKED)
    assert run(functional).diagnostics[0] == (
        "GetTiling returns -1: SetShape(128, 512, 0) has a zero size; M, N and K must not be 0")


def test_a_call_left_out_makes_the_object_unknown() -> None:
    source = tiling_func(SETUP + "    mm.SetFixSplit(m, n, -1);\n    int32_t bm = mm.GetBaseM();\n" + CHECKED)
    lowered = lower_host_tiling(load_text(source, "mm_tiling.cpp"))
    assert [d.code for d in lowered.diagnostics] == ["ASC103"]
    assert "GetBaseM" in lowered.diagnostics[0].message
    result = run(source)
    assert result.succeeded and not result.complete


def test_a_class_member_object_is_built_with_its_object() -> None:
    # (session 12: built as a local `MultiCoreMatmulTiling mm;` is, ops-nn mat_mul_v3's `mm_`; before, the three
    # calls on it were ASC103 gaps and the result incomplete)
    source = HEADER + """
namespace optiling {
class MmTiler {
public:
    explicit MmTiler(gert::TilingContext* ctx) : context(ctx) {}
    ge::graphStatus Run()
    {
        const int32_t m = static_cast<int32_t>(context->GetInputShape(0)->GetOriginShape().GetDim(0));
        mm.SetShape(m, m, m);
        mm.SetFixSplit(m, m);
        MmTilingData tiling;
        if (mm.GetTiling(tiling.cube) == -1) {
            return ge::GRAPH_FAILED;
        }
        tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
        context->SetBlockDim(1);
        return ge::GRAPH_SUCCESS;
    }
private:
    gert::TilingContext* context;
    matmul_tiling::MultiCoreMatmulTiling mm;
};
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MmTiler tiler(context);
    return tiler.Run();
}
}
"""
    lowered = lower_host_tiling(load_text(source, "mm_tiling.cpp"))
    assert lowered.diagnostics == []
    result = run(source, m=512)
    local = source.replace("    matmul_tiling::MultiCoreMatmulTiling mm;\n", "").replace(
        "        mm.SetShape", "        matmul_tiling::MultiCoreMatmulTiling mm;\n        mm.SetShape")
    assert local != source
    expected = run(local, m=512)
    assert (result.status, result.complete, result.fields) == (expected.status, expected.complete, expected.fields)


def test_a_search_setter_keeps_the_first_checks() -> None:
    body = SETUP + """
    mm.SetMatmulConfigParams(1, false, matmul_tiling::ScheduleType::INNER_PRODUCT);
    mm.SetTraverse(matmul_tiling::MatrixTraverse::FIRSTN);
    mm.SetFixSplit(FIX_M, FIX_N, -1);
""" + CHECKED
    too_big = tiling_func(body.replace("FIX_M", "128").replace("FIX_N", "512"))
    assert run(too_big).status == FAILED
    wider = tiling_func(body.replace("FIX_M", "128").replace("FIX_N", "128"))
    assert run(wider, n=20).succeeded  # the split search is not the default one: not judged


def test_an_ignored_failure_is_a_note_not_the_cause() -> None:
    body = SETUP + "    mm.SetFixSplit(m, n, -1);\n    mm.GetTiling(tiling.cube);\n" + """
    if (m > 64) {
        return ge::GRAPH_FAILED;
    }
"""
    result = run(tiling_func(body))
    assert result.status == FAILED
    assert result.diagnostics[0] == "TilingFunc returned ge::GRAPH_FAILED"
    assert any(d.startswith("GetTiling returned -1 (the fixed split 128 x 512") for d in result.diagnostics)
    assert not isinstance(result.failure_op, host.MatmulGetTilingOp)


def test_the_ops_print_and_parse_back() -> None:
    source = tiling_func(SETUP + "    mm.SetFixSplit(m, n, -1);\n    mm.SetSingleShape(64, -1, -1);\n" + CHECKED)
    lowered = lower_host_tiling(load_text(source, "mm_tiling.cpp"))
    assert lowered.module is not None and lowered.diagnostics == []
    names = {op.name for op in lowered.module.walk() if op.name.startswith("host.matmul")}
    assert names == {"host.matmul_create", "host.matmul_set_dim", "host.matmul_set_type", "host.matmul_set_shape",
                     "host.matmul_set_bias", "host.matmul_set_buffer_space", "host.matmul_set_fix_split",
                     "host.matmul_get_tiling"}
    text = StringIO()
    Printer(stream=text).print_op(lowered.module)
    ctx = Context()
    for dialect in (arith.Arith, builtin.Builtin, func.Func, memref.MemRef, scf.Scf, host.Host):
        ctx.load_dialect(dialect)
    Parser(ctx, text.getvalue()).parse_module().verify()


@pytest.mark.parametrize("chip, key", [("910B2", 1), ("310P", 2)])
def test_get_soc_version_tells_the_chips_apart(chip: str, key: int) -> None:
    # a kernelhive final chooses its tiling key by SocVersion (ASCEND310P -> 2, else 1)
    body = ("    if (platform.GetSocVersion() == platform_ascendc::SocVersion::ASCEND310P) {\n"
            "        context->SetTilingKey(2);\n    } else {\n        context->SetTilingKey(1);\n    }\n")
    inputs = [TensorSpec((128, 64), "float32"), TensorSpec((64, 512), "float32")]
    result = evaluate_program_tiling(load_text(tiling_func(body), "mm_tiling.cpp"), TilingInputs(inputs, chip=chip))
    assert result.succeeded and result.tiling_key == key
    assert result.diagnostics == []
