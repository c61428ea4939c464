"""API-misuse rules on the operands of vector calls: a constant repeat count over 255 (ASC501), a constant
continuous mask of 0 or above the lanes one repeat holds (ASC505), and a LocalTensor in a TPosition whose
memory the API cannot reach (ASC506).
"""

from __future__ import annotations

from xdsl.ir import SSAValue

from ascendir.chips import tposition_memory
from ascendir.dialects import ascendc as asc
from ascendir.lower.ctypes import scalar_from_element
from passes.verify.api_misuse_calls import CatalogCall, catalog_calls, chip_arch, kernel_of, tensor_elem
from passes.verify.ir import api_calls_of, arg, constant_of
from passes.verify.rules import CheckContext, rule


# Parameters that carry a repeat count in the vector APIs' mask forms (uint8 on the hardware).
_REPEAT_PARAMS = ("repeatTime", "repeatTimes", "repeat")


@rule(
    "ASC501", "repeat-times-over-255", "api",
    summary="A vector instruction's repeat count is a constant above 255.",
    why="The repeat count is an 8-bit field of the vector instruction: 256 wraps to 0 and the call does "
        "nothing (or far less than meant); the CPU-debug build aborts on it. Longer runs must be split "
        "into several calls or use the count form, which splits them itself.",
    example="Add(dst, src0, src1, 64, 300, {1, 1, 1, 8, 8, 8});   // 300 repeats of 64 floats",
    instead="Add(dst, src0, src1, 300 * 64);                      // count form: the API splits the repeats",
)
def repeat_times_over_255(ctx: CheckContext) -> None:
    for op in api_calls_of(ctx):
        for name in _REPEAT_PARAMS:
            value = constant_of(arg(op, name))
            if isinstance(value, int) and value > 255:
                ctx.report(op, f"{op.api.data} repeats {value} times; the repeat count is at most 255")


_MASK_FAMILIES = ("vec_binary", "vec_scalar", "vec_unary", "duplicate", "cast", "compare", "select", "reduce")


@rule(
    "ASC505", "mask-out-of-range", "api",
    summary="A vector call in the mask form has a constant continuous mask of 0 or above the lanes one "
            "repeat holds (128 for 16-bit, 64 for 32-bit, 32 for 64-bit element types).",
    why="In normal mask mode the continuous mask is the number of leading lanes of each 256-byte repeat "
        "that take part. A repeat holds only 128 half or 64 float lanes: a larger value is rejected by the "
        "CPU-debug check and on hardware sets bits that do not exist; 0 selects no lane at all. (In counter "
        "mode, after SetMaskCount(), the value is an element count and this rule stays silent.)",
    example="Add(dst, a, b, 128, 4, {1, 1, 1, 8, 8, 8});   // float: 64 lanes per repeat",
    instead="Add(dst, a, b, 64, 8, {1, 1, 1, 8, 8, 8});    // or the count form Add(dst, a, b, 512)",
)
def mask_out_of_range(ctx: CheckContext) -> None:
    counter_mode = {kernel_of(op) for op in api_calls_of(ctx, "mask") if op.api.data == "SetMaskCount"}
    for call in catalog_calls(ctx, *_MASK_FAMILIES):
        param = call.overload.param("mask")
        if param is None or param.kind != "scalar" or kernel_of(call.op) in counter_mode:
            continue
        if _mask_not_set(call):
            continue
        value = constant_of(arg(call.op, "mask"))
        if not isinstance(value, int):
            continue
        bits = max((_elem_bits(v) for _, v in call.params() if tensor_elem(v) is not None), default=0)
        if call.op.FAMILY == "compare":  # the destination is a bit mask: lanes follow the sources
            bits = max((_elem_bits(v) for i, v in call.params()
                        if call.overload.params[i].name != "dst" and tensor_elem(v) is not None), default=0)
        mask_rule = ctx.catalog.mask_rule(bits)
        if mask_rule is None:
            continue
        if value == 0:
            ctx.report(call.op, f"{call.api.name} has mask 0: no lane of any repeat takes part")
        elif value > mask_rule.continuous_max or value < 0:
            # the parameter is a uint64_t: -1 is 0xFFFFFFFFFFFFFFFF there, as the mask an all-ones literal gives
            shown = f"{value % (1 << 64):#X}".replace("0X", "0x") if value < 0 or value > 0xFFFF else str(value)
            ctx.report(call.op, f"{call.api.name} has mask {shown}, but a repeat of {bits}-bit elements holds "
                                f"{mask_rule.continuous_max} lanes; the continuous mask is 1..{mask_rule.continuous_max}")


def _mask_not_set(call: CatalogCall) -> bool:
    """`Add<T, false>(...)`: isSetMask = false, the mask argument is a placeholder."""
    targs = call.op.template_args.data if call.op.template_args is not None else ()
    for tp, value in zip(call.overload.type_params, targs):
        if tp.name == "isSetMask":
            return getattr(value, "data", None) in (0, False, "false", "0")
    return False


def _elem_bits(value: SSAValue) -> int:
    t = value.type
    if isinstance(t, asc.LocalTensorType | asc.GlobalTensorType):
        scalar = scalar_from_element(t.element_type)
        if scalar is not None:
            return scalar.bits
    return 0


@rule(
    "ASC506", "wrong-tposition", "api",
    summary="A LocalTensor lives in a TPosition whose memory the API cannot access: a vector op on an L1 "
            "or L0 tensor (A1, B2, CO1, ...), or DataCopy between GM and L0A/L0B/L0C.",
    why="Vector instructions read and write only the Unified Buffer; DataCopy moves GM <-> UB/L1 and "
        "UB <-> UB. A tensor allocated from a TQue<TPosition::A2> lives in L0A: the vector unit cannot "
        "address it and the copy engine has no GM -> L0A path (that is LoadData's job). The build fails "
        "with \"no matching function\" on some APIs, the CPU-debug build aborts with a TPosition check, "
        "and otherwise the hardware reads or writes the wrong memory. Positions that share a memory "
        "(VECIN, VECCALC and VECOUT are all UB) are interchangeable and not flagged.",
    example="TQue<TPosition::A2, 1> aQue;   // L0A\nLocalTensor<half> a = aQue.AllocTensor<half>();\n"
            "DataCopy(a, aGm, 256);          // GM -> L0A: no such DataCopy",
    instead="DataCopy(a1Local, aGm, 256);   // GM -> A1 (L1), then LoadData(a2Local, a1Local, params)",
    catalogued_archs_only=True,  # the 950 adds paths (UB <-> L1, L0C -> UB) the catalogued signatures lack
)
def wrong_tposition(ctx: CheckContext) -> None:
    arch = chip_arch(ctx)
    for call in catalog_calls(ctx):
        for i, value in call.params():
            param = call.overload.params[i]
            if param.kind != "local_tensor" or param.positions is None:
                continue
            t = value.type
            if not isinstance(t, asc.LocalTensorType):
                continue
            position = t.position.data
            if position in param.positions:
                continue
            memory = _memory(position, arch)
            allowed = {_memory(p, arch) for p in param.positions}
            if memory is None or None in allowed or memory in allowed:
                continue
            where = "/".join(sorted(a for a in allowed if a))
            ctx.report(call.op, f"{call.api.name} {param.name} is in {position} ({memory}); {call.api.name} "
                                f"cannot reach {memory} here, it needs {where} "
                                f"({', '.join(sorted(param.positions))})")
            break


def _memory(position: str, arch: int) -> str | None:
    try:
        return tposition_memory(position, arch)
    except ValueError:
        return None
