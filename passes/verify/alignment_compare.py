"""Alignment rule on Compare: the count form with count * sizeof(T) not a multiple of 256 bytes (ASC407), a
constant count or, with concrete shapes, one a core computes.
"""

from __future__ import annotations

from passes.verify.alignment_copies import first_bad_value
from passes.verify.ir import arg
from passes.verify.op_index import module_index
from passes.verify.rules import CheckContext, rule
from passes.verify.value_fold import tensor_elem_bytes


@rule(
    "ASC407", "compare-count-unaligned", "alignment",
    summary="Compare in the count form with count * sizeof(T) not a multiple of 256 bytes.",
    why="Compare writes one bit per element and works in whole 256-byte repeats: the count form requires "
        "count * sizeof(T) to be a multiple of 256 bytes. Other counts are rejected by the CPU-debug checks "
        "and on the device compare a different number of elements, leaving the mask's tail stale.",
    example="Compare(mask, a, b, CMPMODE::LT, 100);   // 100 floats = 400 bytes",
    instead="Compare(mask, a, b, CMPMODE::LT, 128);   // pad to 64 floats per 256 bytes; mask the tail",
)
def compare_count_unaligned(ctx: CheckContext) -> None:
    for op in module_index(ctx.module).of("compare"):
        if op.api.data != "Compare":
            continue
        src = arg(op, "src0")
        size = tensor_elem_bytes(src) if src is not None else None
        if size is None:
            continue
        found = first_bad_value(ctx, op, "count", lambda n: n > 0 and n * size % 256 != 0)
        if found is not None:
            count, where = found
            ctx.report(op, f"Compare over {count} elements = {count * size} bytes; the count form needs a multiple "
                           f"of 256 bytes ({256 // size} elements)", *where)
