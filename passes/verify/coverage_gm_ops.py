"""Which ops of a kernel write global memory, which tell the cores apart, and which the coverage rules do not
see into (opaque calls, a Matmul object's library code, atomics): where they stay silent.
"""

from __future__ import annotations

from xdsl.ir import Operation

from ascendir.dialects import ascendc as asc
from passes.verify.ir import is_kind, walk_of
from passes.verify.project import cached
from passes.verify.rules import CheckContext


_OPAQUE_CODE = (asc.OpaqueCallOp, asc.MatmulObjectOp)  # calls not modelled; a Matmul object's library code
_GM_SCALAR_STORES = (asc.SetValueOp, asc.GmStoreOp)


def _unseen(op: Operation) -> bool:
    """Code the checker does not see into: an unmodelled call, a Matmul object or a call on one (its library
    code splits the work by block itself and writes GM: the family of ascendc.matmul_call is "matmul")."""
    if is_kind(op, asc.ObjectOp):  # a UB allocator only hands out local memory
        return not op.result.type.type_name.data.startswith("LocalMemAllocator")
    return is_kind(op, _OPAQUE_CODE) or (
        is_kind(op, asc.ApiCallOp) and op.FAMILY == "matmul")


def tells_cores_apart(op: Operation) -> bool:
    """Reads the block index, or is code we do not see into and so might."""
    return _unseen(op) or (is_kind(op, asc.ApiCallOp)
                           and op.api.data in ("GetBlockIdx", "GetSubBlockIdx", "GetProcId"))


def writes_gm(op: Operation) -> bool:
    if is_kind(op, _GM_SCALAR_STORES):
        return isinstance(op.operands[0].type, asc.GlobalTensorType | asc.GmPtrType)
    return copies_to_gm(op)


def copies_to_gm(op: Operation) -> bool:
    return is_kind(op, asc.DataCopyOp) and bool(op.args) and isinstance(op.args[0].type, asc.GlobalTensorType)


def any_unseen_or_atomic(ctx: CheckContext, kernel: asc.KernelOp) -> bool:
    """Whether any op of `kernel` is `_unseen_or_atomic`: then no rule judges its cores' GM writes against
    each other (asked by ASC606 twice and by ASC607, once per run)."""
    return cached(ctx, ("coverage.unseen_or_atomic", id(kernel)),
                  lambda: any(_unseen_or_atomic(op) for op in walk_of(kernel)))


def _unseen_or_atomic(op: Operation) -> bool:
    """Code that may write GM with atomic accumulation (overlapping writes are then the point), or that the
    checker does not see into."""
    return _unseen(op) or (is_kind(op, asc.ApiCallOp)
                           and op.api.data.startswith(("SetAtomic", "SetStoreAtomic")))
