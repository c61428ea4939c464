"""SetFlag/WaitFlag edges of the happens-before relation (happens_before.py) applied to a buffer state: the
kernel's own flags, and the flags behind EnQue, DeQue, FreeTensor and AllocTensor.

A queue's operations are flags on hardware [reference: hardware meaning of queue ops; asc-devkit
kernel_tquebind_impl.h]: EnQue = SetFlag<forward>, DeQue = WaitFlag<forward>, FreeTensor = SetFlag<backward>
for the tensor's buffer, AllocTensor = WaitFlag<backward> when the buffer was freed before. Which events a
queue uses comes from its positions, as the simulator's lowering reads them (Catalog.queue_events_of: VECIN
MTE2_V / V_MTE2, VECOUT V_MTE3 / MTE3_V, TQueBind<VECIN, VECOUT> MTE2_MTE3 / MTE3_MTE2, ...). So a chain of
the happens-before relation may run through a queue: a copy-out (MTE3) ordered before a SetFlag<MTE3_MTE2>
pair, then a copy-in of a VECIN queue (MTE2) and its EnQue, then the DeQue (V), orders the copy-out before
every later vector instruction, as an explicit MTE2_V pair would.

The flags are keyed as the simulator keys them (rust_sim/src/queue.rs: by queue and buffer). The forward
one by the tensor enqueued, which the DeQue takes from the head of the FIFO; the backward one by the buffer
(which of the queue's buffers the tensor holds, as the rotation of queue_reuse.next_slot tells it): FreeTensor
sets it after the earlier work of the queue's consumer pipe (MTE3 for VECOUT, V for VECIN), and the
AllocTensor that takes the same buffer again holds the producer pipe (V, MTE2) until then. So a copy-out of
one freed VECOUT buffer, then another VECOUT queue's FreeTensor and the AllocTensor of that buffer, orders the
copy-out before the vector writes after that AllocTensor. Where the state does not know which tensor an EnQue
puts in or a DeQue takes out (the FIFO is lost), or which buffer a FreeTensor gives back or an AllocTensor
takes (the rotation is lost, and the queue has more than one buffer), the queue's flags of that event are
forgotten, which only keeps errors.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from ascendir.catalog import QueueEvent, load_catalog
from ascendir.chips import tposition_memory
from passes.verify import happens_before
from passes.verify.buffer_states import DEQUE, ENQUE, OCCUPIED, State


@functools.lru_cache(maxsize=None)
def queue_events(position: str, source: str, arch: int) -> QueueEvent | None:
    """The forward and backward events of a TQue<position> (`source` empty) or TQueBind<source, position> on
    `arch`; None where a position has no documented memory or the route no event."""
    try:
        return load_catalog().queue_events_of(position, source, arch, lambda p: tposition_memory(p, arch))
    except ValueError:
        return None


QueuePipes = Callable[[int], "tuple[str, str] | None"]  # a queue -> (its producer pipe, its consumer pipe)

# what a held tensor's writes are once ordered before its queue's consumer pipe: the one thing ASC202 asks
# of them, which no later flag takes back (fewer distinct states, the same answers)
ORDERED = happens_before.Reach(happens_before.PIPES, frozenset())


def edge(s: State, api: str, event: str, key: object, queue_pipes: QueuePipes) -> State:
    """A SetFlag or WaitFlag (`api`) of `event` keyed `key`: the edge it adds, seen from the open reads of
    freed buffers and from the producer writes of held queue tensors. A SetFlag on the pipe that writes a
    held tensor's queue (the producer pipe of `queue_pipes`) starts that tensor's chain, its writes being
    issued before the flag (a write after it drops the entry again)."""
    produced = s.produced
    pipes = happens_before.event_pipes(event)
    if api == "SetFlag" and pipes is not None:
        fresh = {t for t, tok in s.tokens.items() if tok[1] in (OCCUPIED, ENQUE, DEQUE) and t not in produced
                 and (qp := queue_pipes(tok[0])) is not None and qp[0] == pipes[0]}
        if fresh:
            produced = {**produced, **{t: happens_before.Reach.of(pipes[0]) for t in fresh}}
    if not s.reads and not produced:
        return s
    s = s.copy()
    s.reads = happens_before.after_flag(s.reads, api, event, key)
    produced = happens_before.after_flag(produced, api, event, key, drop_settled=False)
    s.produced = {t: ORDERED if (qp := queue_pipes(s.tokens[t][0]) if t in s.tokens else None) is not None
                  and r.orders(qp[1]) else r for t, r in produced.items()}
    return s


def queue_edge(s: State, api: str, event: str, queue: int, token: int | None, queue_pipes: QueuePipes) -> State:
    """EnQue's SetFlag or DeQue's WaitFlag (`api`) of the queue's forward `event` for the tensor `token`;
    with the tensor not known, the queue's flags of that event are forgotten."""
    if token is None:
        return forget(s, {queue}, event)
    return edge(s, api, event, happens_before.QueueFlag(event, queue, token), queue_pipes)


def buffer_edge(s: State, api: str, event: str, queue: int, slot: int | None, queue_pipes: QueuePipes) -> State:
    """FreeTensor's SetFlag or AllocTensor's WaitFlag (`api`) of the queue's backward `event` for its buffer
    `slot`; with the buffer not known, the queue's flags of that event are forgotten."""
    if slot is None:
        return forget(s, {queue}, event)
    return edge(s, api, event, happens_before.BufferFlag(event, queue, slot), queue_pipes)


def forget(s: State, queues: set[int], event: str | None = None) -> State:
    """The state without the queue flags of `queues` (of `event` only, if given) in what it follows."""
    if not queues or not (s.reads or s.produced):
        return s
    reads = {k: r.forget(queues, event) for k, r in s.reads.items()}
    produced = {t: r.forget(queues, event) for t, r in s.produced.items()}
    unchanged = all(reads[k] is r for k, r in s.reads.items())
    if unchanged and all(produced[t] is r for t, r in s.produced.items()):
        return s
    s = s.copy()
    s.reads, s.produced = reads, produced
    return s
