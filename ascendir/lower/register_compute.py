"""The register API's compute calls beyond the element-wise arithmetic (register_api.py lowers them with these
forms and modes): Compare / Compares (a MaskReg result), Select (by a MaskReg; also on mask registers), the logic
instructions And / Or / Xor / Not on vector and on mask registers, Cast, Reduce, Arange, Relu, Neg, Ln / Log, Move,
Pack / UnPack and Interleave / DeInterleave.
The simulator's side is rust_sim/src/vector/reg/compute_calls.rs (Relu, Neg and Ln in calls.rs / ops.rs).

Their template arguments select modes: `CMPMODE::GT` -> `cmp=GT`, `ReduceType::SUM` -> `reduce=SUM`,
`IndexOrder::...` -> `order=...`, and Cast's `const CastTrait&` (a `constexpr CastTrait` variable or class member,
asc-devkit reg_compute/kernel_reg_compute_utils.h:207-212: layoutMode, satMode, mrgMode, roundMode in that order)
-> `layout=ZERO,sat=SAT,mode=ZEROING,round=CAST_RINT`. A trait whose fields cannot be read is a named ASC958.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascendir.lower import namespace_lookup
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

_VEC_BINARY = ("v:dst", "v:src0", "v:src1", "p:mask")
_MASK_BINARY = ("p:dst", "p:src0", "p:src1", "p:mask")
FORMS: dict[str, tuple[tuple[str, ...], ...]] = {
    "Compare": (("p:dst", "v:src0", "v:src1", "p:mask"),),
    "Compares": (("p:dst", "v:src", "s:scalar", "p:mask"),),
    "CompareScalar": (("p:dst", "v:src", "s:scalar", "p:mask"),),  # Compares' older name (cmpsel_intf_impl.h:44)
    "Select": (_VEC_BINARY, _MASK_BINARY),
    **{name: (_VEC_BINARY, _MASK_BINARY) for name in ("And", "Or", "Xor")},
    "Not": (("v:dst", "v:src0", "p:mask"), ("p:dst", "p:src0", "p:mask")),
    "Cast": (("v:dst", "v:src", "p:mask"),),
    # ReduceSum / ReduceMax / ReduceMin: Reduce<SUM / MAX / MIN> (vec_reduce_intf_impl.h:38-66)
    **{name: (("v:dst", "v:src", "p:mask"),) for name in ("Reduce", "ReduceSum", "ReduceMax", "ReduceMin")},
    "Arange": (("v:dst", "s:scalar"),),
    # unary: vec_unary_intf.h:41-63 (Log is the natural logarithm too: dav_3510 LnCompute)
    **{name: (("v:dst", "v:src", "p:mask"),) for name in ("Relu", "Neg", "Ln", "Log")},
    # copy_intf.h:33-37 (vector registers, MERGING by default under a mask), maskreg_intf.h:54-56
    "Move": (("v:dst", "v:src", "p:mask"), ("v:dst", "v:src"), ("p:dst", "p:src")),
    # vec_vconv_intf.h:36-39: a float rounded to an integral value of its own type
    "Truncate": (("v:dst", "v:src", "p:mask"),),
    # relayout (vec_duplicate_intf.h:44-48, pack_intf.h:32-37; rust_sim/src/vector/reg/relayout.rs)
    # of vector registers, or of MaskRegs (MaskReg计算/Pack.md, UnPack.md: bits, no element type)
    **{name: (("v:dst", "v:src"), ("p:dst", "p:src")) for name in ("Pack", "UnPack")},
    **{name: (("v:dst0", "v:dst1", "v:src0", "v:src1"),) for name in ("Interleave", "DeInterleave")},
    # the register form (gather_mask_intf.h:36-37); Gather(dst, ubAddr, index, mask) from UB is a load (not here)
    "Gather": (("v:dst", "v:src", "v:index"),),
    # gather_mask_intf.h:33-35: the selected elements packed low (and, STORE_REG, their bytes added to AR: spr.rs)
    "Squeeze": (("v:dst", "v:src", "p:mask"),),
}
# older names of the same calls (asc-devkit impl/basic_api/reg_compute/kernel_reg_compute_maskreg_intf_impl.h:50-84:
# MaskAnd / MaskOr / MaskXor / MaskNot / MaskMov call the very Impl that And / Or / Xor / Not / Move of MaskRegs
# call; kernel_reg_compute_copy_intf_impl.h:38-58: Copy and Move of vector registers both call CopyImpl, MERGING by
# default under a mask)
ALIASES = {"MaskAnd": "And", "MaskOr": "Or", "MaskXor": "Xor", "MaskNot": "Not", "MaskMov": "Move", "Copy": "Move",
           "MaskPack": "Pack", "MaskUnPack": "UnPack",  # MaskPack / MaskUnPack: maskreg_intf_impl.h:124-143
           # DataCopyGather(dst, ubAddr, index, mask) and Gather of those four are one call, DataCopyGatherImpl
           # (impl/basic_api/reg_compute/kernel_reg_compute_datacopy_intf_impl.h, "vgather2")
           "DataCopyGather": "Gather"}
# calls whose source register may hold another element type than dst (`U=` in the simulator's call)
TWO_TYPES = frozenset({"Cast", "Reduce", "ReduceSum", "Pack", "UnPack"})
# enumerations a template argument names, and the mode key the simulator reads
ENUM_MODES = {"CMPMODE": "cmp", "ReduceType": "reduce", "IndexOrder": "order", "HighLowPart": "part",
              "RoundMode": "round", "GatherMaskMode": "store", "SpecialPurposeReg": "spr"}
# the register API's mode structs a kernel declares `constexpr` and passes as a template argument
# (kernel_reg_compute_utils.h:207-291)
MODE_STRUCTS = frozenset({"CastTrait", "DivSpecificMode", "SqrtSpecificMode", "ExpSpecificMode", "LnSpecificMode",
                          "LogSpecificMode", "Log2SpecificMode", "Log10SpecificMode"})
# CastTrait's fields in declaration order (kernel_reg_compute_utils.h:207-212) and their mode keys
_TRAIT_FIELDS = (("RegLayout", "layout"), ("SatMode", "sat"), ("MaskMergeMode", "mode"), ("RoundMode", "round"))


def enum_mode(parts: list[str], lw: FunctionLowerer | None = None) -> str | None:
    """`cmp=GT` for `CMPMODE::GT` (any qualification), or for a template parameter bound to that enumerator
    (`template <RoundMode roundMode> ... Truncate<float, roundMode>`); None for other names."""
    if len(parts) == 1 and lw is not None and lw.frames and isinstance(bound := lw.frame.types.get(parts[0]), str):
        value = bound.rsplit("::", 1)[-1]
        enum = bound.rsplit("::", 2)[-2] if "::" in bound else lw.catalog.enum_of_value(value)
        parts = [enum, value] if enum else parts
    if len(parts) >= 2 and parts[-2] in ENUM_MODES:
        return f"{ENUM_MODES[parts[-2]]}={parts[-1]}"
    return None


def _enum_name(node: A.Node) -> list[str] | None:
    if isinstance(node, A.Name):
        return [p.name for p in node.qname.parts]
    return None


def _trait_init(lw: FunctionLowerer, name: str) -> list[A.Node] | None:
    """The brace initialiser of the `constexpr CastTrait <name> = {...}` the kernel declares: a local of the function
    being lowered (a vector function's, or a `__VEC_SCOPE__` block's in a method), a namespace-scope constant, a
    static member of the class being lowered (or of a class it is nested in or derives from), or a `static
    constexpr` local of a free function the program defines (looked up last: the functions are walked)."""
    for d in _declarators(lw, name):
        if isinstance(d.init, A.InitList):
            return list(d.init.items)
    return None


def _declarators(lw: FunctionLowerer, name: str):  # type: ignore[no-untyped-def]
    local = lw.lookup(name) if lw.frames else None
    if local is not None and isinstance(getattr(local, "obj", None), A.Declarator):
        yield local.obj  # a local `static constexpr` struct (lower_decls binds its declarator)
    hit = namespace_lookup.variable(lw, name)
    if hit is not None:
        yield hit[1]
    this = lw.frame.this if lw.frames else None
    parts = [this, *this.bases] if this is not None else []
    for part in parts:
        info = part.info
        while info is not None:
            d = info.static_constants.get(name)
            if d is not None:
                yield d
            info = info.outer
    owner = lw.frame.owner if lw.frames else None
    if owner is not None and name in owner.static_constants:
        yield owner.static_constants[name]
    for fns in lw.scope.functions.values():
        for fn in fns:
            for node in fn.walk():
                if isinstance(node, A.Declarator) and node.name == name:
                    yield node


def specific_mode(lw: FunctionLowerer, a: A.TemplateArg) -> list[str] | None:
    """`Div<float, &divMode>` with `constexpr DivSpecificMode divMode = {MaskMergeMode::ZEROING, true}` (and the
    Exp / Ln / Log / Sqrt SpecificMode structs, kernel_reg_compute_utils.h:220-291): its merge mode (`mode=ZEROING`).
    The precision flag and algorithm select how exactly the unit computes; the simulator computes the correctly
    rounded result for every one of them (within the 1-ulp ones' bound). Div keeps subnormal results only under
    DivAlgo::PRECISION_0ULP_FTZ_FALSE / PRECISION_1ULP_FTZ_FALSE (`ftz=0`); its other algorithms, INTRINSIC (the
    default) and DIFF_COMPENSATION included, flush them to zero (Div.md: "其他模式下Subnormal均被FTZ"; `ftz=1`, which
    the caller also gives a Div without a SpecificMode). Another API's flush-to-zero algorithm is None, so the call is
    a named ASC958."""
    v = a.value
    if not (isinstance(v, A.Unary) and v.op == "&" and isinstance(v.operand, A.Name)):
        return None
    items = _trait_init(lw, v.operand.qname.parts[-1].name)
    if not items:
        return None
    parts = _enum_name(items[0])
    if parts is None or len(parts) < 2 or parts[-2] != "MaskMergeMode":
        return None
    algos = [p for item in items[1:] if (p := _enum_name(item)) is not None and p[-1].startswith(("PRECISION_",
                                                                                                     "INTRINSIC",
                                                                                                     "DIFF_"))]
    ftz = [p for p in algos if p[-1].endswith("FTZ_TRUE")]
    if any(p[-2:-1] != ["DivAlgo"] for p in ftz):
        return None  # another API's flush-to-zero algorithm: not modelled
    if any(p[-2:-1] == ["DivAlgo"] for p in algos):
        return [f"mode={parts[-1]}", "ftz=0" if any(p[-1].endswith("FTZ_FALSE") for p in algos) else "ftz=1"]
    return [f"mode={parts[-1]}"]


def trait_modes(lw: FunctionLowerer, a: A.TemplateArg) -> list[str] | None:
    """The modes of a `const CastTrait&` template argument, or None when it is no CastTrait the lowering can read."""
    v = a.value
    qname = v.qname if isinstance(v, A.Name) else v.base if isinstance(v, A.TypeRef) else None
    if not isinstance(qname, A.QualifiedName):
        return None
    items = _trait_init(lw, qname.parts[-1].name)
    if items is None or len(items) > len(_TRAIT_FIELDS):
        return None
    modes: list[str] = []
    for (enum, key), item in zip(_TRAIT_FIELDS, items):
        parts = _enum_name(item)
        if parts is None or len(parts) < 2 or parts[-2] != enum:
            return None
        modes.append(f"{key}={parts[-1]}")
    return modes
