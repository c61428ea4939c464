"""API misuse (ASC5xx): calls the vendor compiler or the CPU-debug checks reject, or that misbehave."""

from __future__ import annotations

from passes.verify.ir import api_calls, arg, constant_of
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
    for op in api_calls(ctx.module):
        for name in _REPEAT_PARAMS:
            value = constant_of(arg(op, name))
            if isinstance(value, int) and value > 255:
                ctx.report(op, f"{op.api.data} repeats {value} times; the repeat count is at most 255")
