"""Questions the buffer state machine asks of the IR: the TPipe a value holds, the tensor a view looks into,
an op's source position.
"""

from __future__ import annotations

from xdsl.dialects import memref
from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Operation, SSAValue

from ascendir.dialects import ascendc as asc
from passes.verify.value_fold import source_of


def stored_pipe(pipe: SSAValue) -> SSAValue | None:
    """A TPipe value, or for a read of a TPipe member cell (`pipe_ = pipe;`) the pipe stored there when one
    store reaches; None for a read whose pipe cannot be told."""
    if not isinstance(pipe.owner, memref.LoadOp):
        return pipe
    stored = source_of(pipe)
    return stored if stored is not None and isinstance(stored.owner, asc.TPipeOp) else None


def tensor_root(v: SSAValue) -> SSAValue:
    """The tensor a view (sub-tensor, reinterpret-cast) looks into."""
    for _ in range(32):
        owner = v.owner
        if isinstance(owner, asc.SubTensorOp | asc.ReinterpretCastOp):
            v = owner.tensor
        elif (isinstance(owner, asc.ApiCallOp) and owner.FAMILY == "local_tensor" and owner.args
              and owner.api.data in ("operator[]", "ReinterpretCast")):
            v = owner.args[0]
        else:
            break
    return v


def location_key(op: Operation) -> object:
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return loc.filename.data, loc.line.data, loc.column.data
    return id(op)


def line_of(op: Operation) -> tuple[int, int]:
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return loc.line.data, loc.column.data
    return 0, 0
