"""Alignment rules on DataCopy's amounts: a count-form DataCopy of a constant number of bytes that is not a
multiple of 32 (ASC401), DataCopyParams / DataCopyExtParams fields outside their hardware range (ASC402), and
DataCopyPad padding wider than 32 bytes on one side (ASC403). A count or padding that does not fold to a
constant is judged by the values the cores compute, with concrete shapes (first_bad_value).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import SSAValue

from ascendir.dialects import ascendc as asc
from frontend.diagnostics import Note
from passes.verify.ir import arg
from passes.verify.op_index import module_index
from passes.verify.rules import CheckContext, rule
from passes.verify.value_fold import as_unsigned, fold_int, struct_fields, tensor_elem_bytes, type_name


def local_operand(op: asc.ApiCallOp) -> SSAValue | None:
    for name in ("dst", "src"):
        v = arg(op, name)
        if v is not None and isinstance(v.type, asc.LocalTensorType):
            return v
    return None


@rule(
    "ASC401", "datacopy-length-unaligned", "alignment",
    summary="DataCopy in the count form moves a constant number of bytes that is not a multiple of 32.",
    why="The MTE moves whole 32-byte blocks: DataCopy(dst, src, count) copies count * sizeof(T) rounded "
        "down to a multiple of 32 bytes, with no error. The tail elements are silently not copied (stale "
        "UB data is computed on, or GM keeps old values); a count below one block copies nothing. "
        "DataCopyPad exists for byte-granular lengths and is not flagged.",
    example="DataCopy(xLocal, xGm, 100);          // 100 halves = 200 bytes: only 192 are copied",
    instead="DataCopy(xLocal, xGm, 112);          // pad the tile to 32 bytes (16 halves)\n"
            "DataCopyPad(xLocal, xGm, {1, 200, 0, 0, 0}, {false, 0, 0, 0});  // or copy exact bytes",
)
def datacopy_length_unaligned(ctx: CheckContext) -> None:
    for op in module_index(ctx.module).of("data_copy"):
        if op.api.data != "DataCopy" or not op.overload.data.startswith("count_"):
            continue
        local = local_operand(op)
        size = tensor_elem_bytes(local) if local is not None else None
        if size is None:
            continue
        assert local is not None and isinstance(local.type, asc.LocalTensorType)
        found = first_bad_value(ctx, op, "count", lambda n: n > 0 and n * size % 32 != 0)
        if found is None:
            continue
        count, where = found
        total = count * size
        kept = total - total % 32
        what = "nothing is copied" if kept == 0 else f"only the first {kept} bytes ({kept // size} elements) are copied"
        ctx.report(op, f"DataCopy moves {count} x {type_name(local.type.element_type)} = {total} bytes, not a "
                       f"multiple of 32 bytes; {what}", *where)


def first_bad_value(ctx: CheckContext, op: asc.ApiCallOp, name: str, bad: Callable[[int], bool]
                    ) -> tuple[int, list[Note]] | None:
    """The value of parameter `name` of `op` that `bad` rejects, with notes on where it comes from: the constant
    the operand folds to, else (with concrete shapes) the first such value a core computes (footprint.py runs
    every core's scalar code; coverage.observed_values). None when no value known here is bad."""
    from passes.verify.coverage_core_runs import observed_values

    field = name.split(".")
    operand = arg(op, field[0])
    if len(field) == 2:
        fields = struct_fields(operand) if operand is not None else None
        operand = fields.get(field[1]) if fields is not None else None
    constant = fold_int(operand) if operand is not None else None
    if constant is not None:
        return (constant, []) if bad(constant) else None
    for core, value in observed_values(ctx, op, name):
        if bad(value):
            return value, [Note(f"for the given shapes: the value core {core} computes here from the tiling "
                                f"(with blockDim {ctx.tiling.block_dim if ctx.tiling is not None else '?'})")]
    return None


_PARAM_ARGS = ("repeatParams", "dataCopyParams", "intriParams")


def fold_unsigned(value: SSAValue | None) -> int | None:
    """A constant unsigned parameter field (blockCount, blockLen)."""
    return as_unsigned(fold_int(value), value.type) if value is not None else None


def datacopy_params(op: asc.ApiCallOp) -> tuple[str, dict[str, SSAValue]] | None:
    """The DataCopyParams / DataCopyExtParams argument of a DataCopy or DataCopyPad call: its struct's name and
    the fields given explicitly (None: another form, or a struct value not built here)."""
    if op.api.data not in ("DataCopy", "DataCopyPad"):
        return None
    for name in _PARAM_ARGS:
        value = arg(op, name)
        if value is None or not isinstance(value.type, asc.StructType):
            continue
        struct = value.type.type_name.data
        if struct not in ("DataCopyParams", "DataCopyExtParams"):
            continue
        fields = struct_fields(value)
        if fields is not None:
            return struct, fields
    return None


@rule(
    "ASC402", "datacopy-params-out-of-range", "alignment",
    summary="A DataCopyParams / DataCopyExtParams field is a constant outside its hardware range.",
    why="blockCount is a 12-bit field (1..4095) and blockLen must be at least 1 (in 32-byte units for "
        "DataCopy, in bytes up to 2097151 for DataCopyPad). A 0 makes the copy do nothing, a larger value "
        "is cut to its low bits: the copy moves a different amount than meant, or the CPU-debug build "
        "aborts in the DataCopy parameter checks.",
    example="DataCopyParams p{5000, 1, 0, 0};      // 5000 blocks: blockCount is at most 4095",
    instead="DataCopyParams p{2500, 2, 0, 0};      // same bytes, fewer and longer blocks; or split the copy",
)
def datacopy_params_out_of_range(ctx: CheckContext) -> None:
    for op in module_index(ctx.module).of("data_copy"):
        given = datacopy_params(op)
        if given is None:
            continue
        struct, fields = given
        count = fold_unsigned(fields.get("blockCount"))
        if count is not None and not 1 <= count <= 4095:
            ctx.report(op, f"{op.api.data} with blockCount = {count}; {struct}.blockCount must be in 1..4095")
        length = fold_unsigned(fields.get("blockLen"))
        unit = "bytes" if op.api.data == "DataCopyPad" else "32-byte blocks"
        if length is not None and length < 1:
            ctx.report(op, f"{op.api.data} with blockLen = {length}; blockLen ({unit}) must be at least 1, "
                           f"the copy moves nothing")
        elif length is not None and op.api.data == "DataCopyPad" and length > 2097151:
            ctx.report(op, f"DataCopyPad with blockLen = {length} bytes; at most 2097151 bytes per block")


@rule(
    "ASC403", "datacopypad-padding-too-wide", "alignment",
    summary="DataCopyPad pads a row with more than 32 bytes on one side.",
    why="leftPadding and rightPadding count elements that fill the row up to its 32-byte boundary; each "
        "side is at most 32 bytes (16 halves, 8 floats). Larger values are rejected by the CPU-debug "
        "checks and on the device write past the row's padded length.",
    example="DataCopyPadExtParams<float> pad{true, 0, 12, 0};   // 12 floats = 48 bytes",
    instead="DataCopyPadExtParams<float> pad{true, 0, 4, 0};    // pad to the next 32-byte boundary only",
)
def datacopypad_padding_too_wide(ctx: CheckContext) -> None:
    for op in module_index(ctx.module).of("data_copy"):
        if op.api.data != "DataCopyPad":
            continue
        pad = arg(op, "padParams")
        dst = arg(op, "dst")
        if pad is None or dst is None:
            continue
        size = tensor_elem_bytes(dst)
        if size is None:
            continue
        for side in ("leftPadding", "rightPadding"):
            found = first_bad_value(ctx, op, f"padParams.{side}", lambda n: n * size > 32)
            if found is not None:
                n, where = found
                ctx.report(op, f"DataCopyPad {side} = {n} elements = {n * size} bytes; padding is at most 32 bytes",
                           *where)
