"""The happens-before relation of pipe instructions along one path, as the buffer state machine asks it.

Each pipe (S, V, M, MTE1, MTE2, MTE3, FIX) runs its instructions in program order, concurrently with the
others [reference: Pipes]. Instruction a happens before instruction b when b is reachable from a in the
happens-before graph of the path, whose nodes are the instructions and whose edges are:

- program order on one pipe: an instruction -> the next one on its pipe;
- a flag: `SetFlag<X_Y>(id)` runs on X after X's earlier work and sets the flag; `WaitFlag<X_Y>(id)` holds
  Y's later work until it is set, then clears it: SetFlag -> the WaitFlag of the same event and id that
  clears it (a flag is one bit: a second SetFlag before the wait replaces the first);
- a full barrier, `PipeBarrier<PIPE_ALL>()`, the hardware `SyncAll()` or `TPipe::Destroy()` (and ~TPipe,
  which calls it; asc-devkit's kernel_tpipe_impl.h ends it with `pipe_barrier(PIPE_ALL)`): every earlier
  instruction -> every later one (buffer_queues.py and buffer_flow.py apply them);
- a WaitFlag on the scalar pipe (`X_S`): the scalar unit issues everything, so every later instruction.

The questions the queue rules ask are reachability questions: is a read on pipe P of a buffer FreeTensor
already gave back ordered before each later write of that buffer (ASC201, `PendingRead`), is the last write
of an enqueued tensor ordered before a use on the DeQue's consumer pipe (ASC202, `State.produced`)? The state
machine walks each path forward, so instead of the graph it keeps, per instruction asked about, the graph's
frontier as seen from its node (`Reach.after`: the pipes whose later instructions are reachable from it;
`carried`: the flags set at a reachable node and not yet waited). Each flag or barrier updates that in O(1),
the same answer as reachability in the graph up to that point (tests/verify/test_happens_before.py checks it
against the explicit graph with networkx on random paths), and two paths join by intersecting what each
orders. A link of a chain missing (a SetFlag, its WaitFlag, or a SetFlag issued before the instruction)
leaves the pipe at the end out of `after`: not ordered. Queue operations are edges too, the flags they are on
hardware (flag_edges.py): EnQue/DeQue a SetFlag/WaitFlag of the queue's forward event keyed by the tensor
(`QueueFlag`), FreeTensor/AllocTensor one of its backward event keyed by the buffer (`BufferFlag`); where the
state does not know which tensor a DeQue takes or which buffer a FreeTensor gives back or an AllocTensor takes,
the queue's flags of that event are forgotten (not followed), which only keeps errors.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Any

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation

from ascendir.catalog import Catalog
from ascendir.dialects import ascendc as asc
from passes.verify import queue_reuse

PIPES = frozenset({"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX"})


@functools.lru_cache(maxsize=None)
def event_pipes(event: str) -> tuple[str, str] | None:
    """(the pipe a SetFlag of `event` runs on, the pipe its WaitFlag holds): MTE3_MTE2 -> (MTE3, MTE2); None
    for a name that is not a HardEvent (a template parameter the lowering could not bind). The catalog's
    reading of a HardEvent name (Catalog.hard_event_pipes), without the PIPE_ prefix."""
    try:
        src, dst = (pipe.removeprefix("PIPE_") for pipe in Catalog.hard_event_pipes(event))
    except ValueError:
        return None
    return (src, dst) if src in PIPES and dst in PIPES else None


def _waits_on(event: str) -> str | None:
    pipes = event_pipes(event)
    return pipes[1] if pipes is not None else None


@dataclass(frozen=True)
class QueueFlag:
    """The flag behind a queue operation [reference: hardware meaning of queue ops]: EnQue sets the queue's
    forward event for the tensor it enqueues and the DeQue that takes that tensor out waits on it
    (rust_sim/src/queue.rs keys it by queue and buffer; the tensor names the buffer while it is enqueued).
    `token` names the tensor: the buffer state machine's token, renumbered with the state."""

    event: str
    queue: int
    token: int


@dataclass(frozen=True)
class BufferFlag:
    """The flag behind FreeTensor and AllocTensor [reference: hardware meaning of queue ops]: FreeTensor sets the
    queue's backward event for the buffer it gives back, and the next AllocTensor that takes that buffer waits
    on it (rust_sim/src/queue.rs keys it by queue and buffer, as asc-devkit's FreeBuffer/AllocBuffer keep the
    event id in the buffer). `slot` says which of the queue's buffers: unlike a tensor it needs no renumbering."""

    event: str
    queue: int
    slot: int


# the flags a queue operation stands for: a wait on one that orders nothing new is not carried (Reach.set_flag)
QUEUE_KEYS = (QueueFlag, BufferFlag)


def pipe_of(op: Operation) -> str | None:
    """The pipe an instruction that reads or writes a UB tensor runs on: V for vector work (UB -> UB copies
    among it), MTE2 for a copy in from GM, MTE3 for a copy out to GM, S for GetValue / SetValue; None where
    that is not known (an API the catalog does not resolve, a call not followed)."""
    if isinstance(op, asc.GetValueOp | asc.SetValueOp):
        return "S"
    if not isinstance(op, asc.ApiCallOp):
        return None
    if queue_reuse.is_vector_op(op):
        return "V"
    if op.FAMILY == "data_copy":
        overload = op.overload.data
        if overload.endswith("gm_to_local"):
            return "MTE2"
        if overload.endswith("local_to_gm"):
            return "MTE3"
    return None


def is_full_barrier(op: asc.ApiCallOp) -> bool:
    """`PipeBarrier<PIPE_ALL>()` and the hardware `SyncAll()` (asc-devkit's SyncAllImpl starts with
    PipeBarrier<PIPE_ALL>; the software SyncAll(gm, ub, cores) is not taken as one); a barrier of one pipe
    only orders that pipe with itself, which program order already does."""
    api = op.api.data
    if api == "SyncAll":
        return not op.args
    if api != "PipeBarrier":
        return False
    targs = op.template_args
    first = targs.data[0] if targs is not None and targs.data else None
    return isinstance(first, StringAttr) and first.data.rsplit("::", 1)[-1] == "PIPE_ALL"


@dataclass(frozen=True)
class Reach:
    """One instruction of the path seen from the graph's frontier: the pipes whose later instructions are
    reachable from it (it happens before them), and the flags set at a node reachable from it, not yet
    waited."""

    after: frozenset[str]
    carried: frozenset[object]  # flag keys (event, id)

    @staticmethod
    def of(pipe: str) -> Reach:
        """An instruction just issued on `pipe`: before the later ones of its own pipe (the scalar unit issues
        every later instruction after its own: one on S comes before all of them)."""
        return Reach(PIPES if pipe == "S" else frozenset({pipe}), frozenset())

    def orders(self, pipe: str | None) -> bool:
        """Whether it happens before every later instruction on `pipe` (an unknown pipe: no)."""
        return pipe is not None and pipe in self.after

    @property
    def settled(self) -> bool:
        """Ordered before everything that comes later: nothing left to ask."""
        return self.after >= PIPES

    def set_flag(self, event: str, key: object) -> Reach:
        pipes = event_pipes(event)
        if pipes is None:
            return self
        if pipes[0] in self.after:
            if key in self.carried or (isinstance(key, QUEUE_KEYS) and pipes[1] in self.after):
                # (a queue flag whose wait orders nothing new is not kept: fewer distinct states, the same
                # answers; the kernel's own flags are kept as they were)
                return self
            return self.replace(carried=self.carried | {key})
        # set on a pipe not (yet) ordered after it: a wait on this flag now orders nothing after it
        return self.replace(carried=self.carried - {key}) if key in self.carried else self

    def wait_flag(self, event: str, key: object) -> Reach:
        pipes = event_pipes(event)
        if pipes is None or key not in self.carried:
            return self
        after = PIPES if pipes[1] == "S" else self.after | {pipes[1]}
        carried = self.carried - {key}
        # the queue flags whose wait would now order nothing new go (as in set_flag)
        stale = {k for k in carried if isinstance(k, QUEUE_KEYS) and _waits_on(k.event) in after}
        return self.replace(after=after, carried=carried - stale)

    def meet(self, other: Reach) -> Reach:
        """The same instruction on two paths: ordered only where both order it."""
        return self.replace(after=self.after & other.after, carried=self.carried & other.carried)

    def forget(self, queues: set[int], event: str | None = None) -> Any:
        """Without the flags of `queues` (of `event` only, if given): a queue op whose tensor or buffer is not
        known may set or clear any of them."""
        gone = {k for k in self.carried if isinstance(k, QUEUE_KEYS) and k.queue in queues
                and (event is None or k.event == event)}
        return self.replace(carried=self.carried - gone) if gone else self

    def renumber(self, order: dict[int, int]) -> Any:
        """The same with the tensors of queue flags renumbered (`order`: old token -> new; those not in it are
        gone, and so is their flag)."""
        if not any(isinstance(k, QueueFlag) for k in self.carried):
            return self
        carried = frozenset(dataclasses.replace(k, token=order[k.token]) if isinstance(k, QueueFlag) else k
                            for k in self.carried if not isinstance(k, QueueFlag) or k.token in order)
        return self.replace(carried=carried)

    def key(self) -> tuple[object, ...]:
        return tuple(sorted(self.after)), tuple(sorted(repr(k) for k in self.carried))

    def replace(self, **changes: object) -> Any:
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True)
class PendingRead(Reach):
    """A read of a freed buffer on a pipe the buffer's next writer does not wait for (FreeTensor's event was
    set before the read), while its ordering before the later writes of the buffer is still open."""

    pipe: str  # the pipe the read runs on
    queue: int  # the queue the buffer belongs to
    slot: int | None  # which of its buffers, where known
    aliases: frozenset[int]  # tokens that may hold the buffer: the freed one, those AllocTensor gave out since

    @staticmethod
    def start(pipe: str, queue: int, slot: int | None, token: int) -> PendingRead:
        reach = Reach.of(pipe)
        return PendingRead(reach.after, reach.carried, pipe, queue, slot, frozenset({token}))

    def meet(self, other: Reach) -> PendingRead:
        """The same read on two paths (or run twice, the later one the other): ordered only where both are,
        its buffer anything either may call it."""
        assert isinstance(other, PendingRead)
        slot = self.slot if self.slot == other.slot else None
        return PendingRead(self.after & other.after, self.carried & other.carried, self.pipe, self.queue, slot,
                           self.aliases | other.aliases)

    def key(self) -> tuple[object, ...]:
        return (self.pipe, *Reach.key(self), self.queue, self.slot, tuple(sorted(self.aliases)))


# the open reads of a state, by the id of the read op
Reads = dict[int, PendingRead]


def after_flag(reads: dict[Any, Any], api: str, event: str, key: object,
               drop_settled: bool = True) -> dict[Any, Any]:
    """A SetFlag or WaitFlag of `event` and id `key`: the edges it adds, seen from each of `reads` (Reach
    values); those then ordered before everything are dropped unless `drop_settled` is False."""
    out = {k: (r.set_flag(event, key) if api == "SetFlag" else r.wait_flag(event, key)) for k, r in reads.items()}
    return {k: r for k, r in out.items() if not (drop_settled and r.settled)}


def after_write(reads: Reads, tokens: set[int], pipe: str | None) -> tuple[Reads, list[int]]:
    """A write on `pipe` (None: not known) of the tensors `tokens`: the open reads of a buffer among them that
    the write is not ordered after (their ids), and the reads that stay open."""
    unordered = [k for k, r in reads.items() if r.aliases & tokens and not r.orders(pipe)]
    if not unordered:
        return reads, []
    return {k: r for k, r in reads.items() if k not in unordered}, unordered


def after_alloc(reads: Reads, queue: int, slot: int | None, token: int) -> Reads:
    """AllocTensor on `queue` gave out `token`, in buffer `slot` (None: not known): it may hold the buffer of
    an open read of that queue, whose later writes are then the new tensor's too."""
    if not any(r.queue == queue for r in reads.values()):
        return reads
    return {k: r.replace(aliases=r.aliases | {token})
            if r.queue == queue and (slot is None or r.slot is None or r.slot == slot) else r
            for k, r in reads.items()}


def on_queues(reads: Reads, queues: set[int]) -> list[int]:
    """The open reads of buffers of `queues` (a pipe Reset, a call not followed that gets the queue: its
    buffers may be written where the analysis does not see it)."""
    return [k for k, r in reads.items() if r.queue in queues]
