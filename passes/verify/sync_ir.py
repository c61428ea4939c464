"""Questions the synchronisation rules ask of the IR: an API call's template argument and receiver, the kernel
an op is in, the kernels a check looks at, an op's source order.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation

from ascendir.dialects import ascendc as asc
from passes.verify.rules import CheckContext


def api_template(op: asc.ApiCallOp) -> str | None:
    targs = op.template_args
    if targs is None or not targs.data:
        return None
    first = targs.data[0]
    return first.data if isinstance(first, StringAttr) else None


def has_receiver(op: asc.ApiCallOp) -> bool:
    return bool(op.args) and isinstance(op.args[0].type, asc.ObjectType)


def kernel_of(op: Operation) -> Operation | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, asc.KernelOp):
        parent = parent.parent_op()
    return parent


def kernels_to_check(ctx: CheckContext) -> Iterator[asc.KernelOp]:
    for op in ctx.module.body.block.ops:
        if isinstance(op, asc.KernelOp):
            yield op


def order_key(op: Operation) -> tuple[int, int]:
    loc = op.location
    line = getattr(getattr(loc, "line", None), "data", 0)
    col = getattr(getattr(loc, "column", None), "data", 0)
    return (line, col)
