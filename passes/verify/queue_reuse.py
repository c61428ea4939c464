"""When a queue tensor used after FreeTensor, or before DeQue, is still safe by construction.

Two facts the buffer state machine (buffer_state.py) consults to tell an ASC201/ASC202 that is a hazard
(an error) from one that the program's own structure makes harmless (a warning):

- The queue's buffer rotation. AllocTensor takes the first free buffer at or after the queue's cursor
  and moves the cursor past it (asc-devkit's TQueBind::AllocBuffer; rust_sim/src/queue.rs does the
  same). A tensor freed and then only read keeps its bytes as long as no AllocTensor since the free
  could have returned its buffer, and as long as the next writer of that buffer cannot overtake the read:
  a VECOUT buffer's next writer is the vector pipe, in order behind a vector read; a VECIN buffer's (and a
  TQueBind<VECIN, VECOUT>'s) is MTE2, which FreeTensor's event releases before a vector read runs (an error
  whatever the rotation); a GetValue is finished before the next AllocTensor is even issued.
  A read on another pipe than the buffer's next writer (a copy-out, MTE3, of a VECOUT buffer; a vector read
  of a VECIN one) is safe only when every later write of the buffer is ordered after it by the kernel's own
  chain of SetFlag/WaitFlag through any pipes (the MoE sorters' copy-out: MTE3_MTE2, then MTE2_V before the
  next MrgSort), or a barrier: the happens-before relation of the path (happens_before.py) answers that; the
  read is a warning unless some later write may overtake it (buffer_queues.py opens it, Analysis.run grades).
  A vector (or SetValue) write to a freed VECOUT buffer that no AllocTensor can have handed out is the same
  situation: no other tensor owns the bytes, and the next writer is the vector pipe behind it. The one user
  that may still be in flight is the queue's own copy-out (MTE3, which FreeTensor's event orders only before
  the next AllocTensor): that V <-> MTE3 pair on UB is ordered by the compiler's auto-sync, the simulator's
  grading of such a race (rust_sim/src/race.rs compiler_orders, a warning). So the write is a warning that
  names both things it relies on.
- An explicit SetFlag/WaitFlag pair of the event the DeQue would wait on (MTE2_V for VECIN, V_MTE3 for
  VECOUT), set after the tensor's last write and waited before a use on the consumer pipe (V, MTE3), orders
  the producer before the consumer just as the DeQue would; so does a chain of pairs through other pipes
  (MTE2_MTE3 then MTE3_V), through another queue's EnQue/DeQue or FreeTensor/AllocTensor, or a barrier: the
  happens-before relation of happens_before.py. A queue's events come from its positions (the catalog's
  queue_events_of, as the simulator's lowering reads them; TQueBind<VECIN, VECOUT>: MTE2_MTE3). (A1/B1's
  MTE2_MTE1 is followed too, but no use is taken to run on MTE1, so those uses stay errors.)
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.ir import Operation, SSAValue

from ascendir.dialects import ascendc as asc
from passes.verify.ir import overload_of

# vector APIs: they run on the V pipe (the pipe that writes a VECOUT buffer and reads a VECIN one), the sort
# family (Sort, MrgSort, Extract, Concat, ...) among them
VECTOR_FAMILIES = asc.VECTOR_PIPE_FAMILIES

ROTATION_NOTE = ("the read relies on the queue's buffer rotation: no AllocTensor since the free can have handed "
                 "this buffer out again; a change of the buffer count or of the order of AllocTensor calls "
                 "makes it read another tile's data")
WRITE_ROTATION_NOTE = ("the write relies on the queue's buffer rotation: no AllocTensor since the free can have handed "
                       "this buffer out again, so the bytes are still no other tensor's; a change of the buffer count "
                       "or of the order of AllocTensor calls makes it overwrite another tile's data")
WRITE_NOTE = ("the write also relies on the compiler's auto-sync to order it after the copy-out still reading the "
              "buffer (MTE3): FreeTensor's event orders that copy only before the next AllocTensor; write a tensor "
              "you own (AllocTensor it again, or a TBuf) instead")
ORDER_NOTE = ("the read runs on PIPE_{pipe}, which FreeTensor's event does not order before the buffer's next "
              "writer: every later write of the buffer is ordered after it by a chain of SetFlag/WaitFlag (the "
              "kernel's own, or those other queues' operations stand for) or a barrier, or there is none; copy out "
              "before FreeTensor so that the queue orders it")
FLAG_NOTE = ("SetFlag/WaitFlag after the tensor's last write (the pair of {event}, or a chain of them through other "
             "pipes, or a barrier) order the producer before this use, as the DeQue would; DeQue the tensor instead "
             "so the queue stays the one source of its ordering")


def next_slot(nbuf: int, cursor: int, held: Iterable[int]) -> int | None:
    """The buffer the next AllocTensor takes: the first free one at or after `cursor`; None if all are taken."""
    taken = set(held)
    return next(((cursor + k) % nbuf for k in range(nbuf) if (cursor + k) % nbuf not in taken), None)


def only_reads(op: Operation, tensor: SSAValue) -> bool:
    """Whether `op` only reads `tensor` (every catalog parameter it is bound to is a source), for API calls
    the catalog resolves; GetValue reads, everything unresolved counts as a write."""
    if isinstance(op, asc.GetValueOp):
        return True
    if not isinstance(op, asc.ApiCallOp):
        return False
    found = overload_of(op.api.data, op.overload.data, op.FAMILY)
    if found is None:
        return False
    overload, has_receiver = found
    roles = [p.name for p in overload.params]
    offset = int(has_receiver)
    bound = [roles[i - offset] if 0 <= i - offset < len(roles) else None for i in range(len(op.args))]
    uses = [bound[i] for i, a in enumerate(op.args) if a is tensor]
    return bool(uses) and all(name is not None and name.startswith("src") for name in uses)


def writes(op: Operation, tensor: SSAValue) -> bool:
    """Whether `op` may write `tensor` (bound to a parameter that is not a source, or not resolved); EnQue
    hands the tensor on without touching its bytes."""
    return not isinstance(op, asc.EnQueOp) and not only_reads(op, tensor)


def flag_id_root(value: SSAValue) -> SSAValue:
    """The value an event id was converted from (`static_cast<event_t>(...)` and integer widenings), so the
    SetFlag and WaitFlag of one variable agree."""
    for _ in range(8):
        owner = value.owner
        if isinstance(owner, Operation) and owner.name in _ID_CASTS and owner.operands:
            value = owner.operands[0]
        else:
            break
    return value


_ID_CASTS = frozenset({"arith.extsi", "arith.extui", "arith.trunci", "arith.index_cast", "arith.index_castui",
                       "arith.bitcast"})


_UB_POSITIONS = frozenset({"VECIN", "VECOUT", "VECCALC"})


def is_vector_op(op: Operation) -> bool:
    """A vector API, or a high-level one (BroadCast, SoftMax, ...) whose tensors all live in UB: those run on
    the vector core's V and scalar pipes, never on a copy pipe."""
    if not isinstance(op, asc.ApiCallOp):
        return False
    if op.FAMILY in VECTOR_FAMILIES:
        return True
    if op.FAMILY == "data_copy":
        return is_ub_to_ub_copy(op)
    if op.FAMILY != "high_level":
        return False
    found = overload_of(op.api.data, op.overload.data, op.FAMILY)
    if found is None:
        return False
    tensors = [p for p in found[0].params if p.kind == "local_tensor"]
    return bool(tensors) and all(p.positions and p.positions <= _UB_POSITIONS for p in tensors)


def is_ub_to_ub_copy(op: asc.ApiCallOp) -> bool:
    """A DataCopy from one UB tensor to another (VECIN/VECCALC/VECOUT on both sides): the vector unit moves
    it (copy_ubuf_to_ubuf, issued on PIPE_V; rust_sim/src/dma.rs runs a local-to-local copy on V), unlike
    the copies to or from GM and L1. The destination's position must be known; a source whose position the
    front end lost (a member LocalTensor or an element of a member array, as in the MoE sorters'
    `DataCopy(this->ubOutput, this->tmpUbInputs[0], n)`) counts as UB when the destination is: a copy into
    UB from L1 has no path on the vector cores of A2/A3."""
    if not op.overload.data.endswith("local_to_local"):
        return False
    tensors = [a.type for a in op.args if isinstance(a.type, asc.LocalTensorType)]
    if len(tensors) != 2:
        return False
    dst, src = tensors
    return dst.position.data in _UB_POSITIONS and src.position.data in _UB_POSITIONS | {asc.UNKNOWN_POSITION}


def runs_on(op: Operation, pipe: str) -> bool:
    """Whether `op` is issued on `pipe` (V or MTE3, the consumers of the DeQue events modelled here)."""
    if pipe == "V":
        return is_vector_op(op)
    if pipe == "MTE3":
        return isinstance(op, asc.ApiCallOp) and op.FAMILY == "data_copy" and not is_ub_to_ub_copy(op)
    return False


def next_writer_is_vector(position: str, source: str) -> bool:
    """Whether a queue's buffer is written next by the vector pipe: a VECOUT queue's (its AllocTensor hands
    the buffer to vector code), not a TQueBind<VECIN, VECOUT>'s (a copy through UB: MTE2 fills it) nor a
    VECIN one's."""
    return position == "VECOUT" and source in ("", "VECOUT", "VECCALC")


def freed_read_is_safe(position: str, op: Operation, source: str = "") -> bool:
    """A read of a freed tensor whose buffer no AllocTensor has handed out again: whether the buffer's next
    writer is ordered behind it. A GetValue is finished before anything after it is issued, so before the
    next AllocTensor and its writer, whatever the position. On VECOUT the next writer is the vector pipe
    (after an AllocTensor that comes later in program order), in order behind a vector read. On VECIN (and a
    TQueBind<VECIN, VECOUT>) it is MTE2, whose wait is on the event FreeTensor set before a vector read was
    issued: nothing orders the read before the copy-in, whatever buffer the next AllocTensor takes (with
    two buffers MTE2 may run a tile ahead of the vector pipe)."""
    if isinstance(op, asc.GetValueOp):
        return position in ("VECIN", "VECOUT")
    return next_writer_is_vector(position, source) and is_vector_op(op)


def freed_write_is_safe(position: str, op: Operation, source: str = "") -> bool:
    """A write to a freed tensor whose buffer no AllocTensor has handed out again: on a VECOUT buffer (whose
    next writer is the vector pipe) by a vector op or SetValue, no other tensor owns the bytes and nothing
    issued later can overtake the write; the queue's own copy-out, which may still read them, is ordered
    before it by the compiler's auto-sync (V/S <-> MTE3 on UB, WRITE_NOTE). On VECIN the next copy-in (MTE2)
    may overtake it, and a copy into the freed buffer (MTE2/MTE3) is no vector write: errors."""
    return next_writer_is_vector(position, source) and (is_vector_op(op) or isinstance(op, asc.SetValueOp))


def event_name(template: str | None) -> str | None:
    """`HardEvent::MTE2_V` or `MTE2_V` -> `MTE2_V`."""
    if template is None:
        return None
    return template.rsplit("::", 1)[-1]
