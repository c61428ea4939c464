"""The abstract state of the buffer state machine: per queue its buffers and FIFO, per tensor its place in the
FSM (FREE -Alloc-> OCCUPIED -EnQue-> ENQUE -DeQue-> DEQUE -Free-> FREE), the InitBuffer and LocalMemAllocator
blocks so far; the pointwise join of states, and the analysis' limits.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from xdsl.ir import Operation

from passes.verify.happens_before import PendingRead, Reach


# FSM states of one buffer; "?" = not known on this path.
OCCUPIED = "O"
ENQUE = "E"
DEQUE = "D"
FREE = "F"
UNKNOWN = "?"
MAX_STATES = 16  # above this many paths, states are merged pointwise
MAX_ROUNDS = 4  # loop rounds before widening
UNROLL = 4  # loops with a constant trip count up to this are run exactly
# Op steps (an op run on one state) per kernel before the analysis runs the kernel again coarsely, every
# path merged into one state (what all paths agree on; the rest unknown, so still no finding on a guess).
# The bundled kernels take a few hundred; of 127 vendor op kernels, 9 took over 150,000 in one check and the
# largest 3.9 million (62 s on a 2-core machine). A kernel over budget in the coarse run too is given up: it
# reports nothing from this analysis, and the rules stay silent rather than slow.
STEP_BUDGET = 100_000


@dataclass(frozen=True)
class Init:
    """One InitBuffer call on a path."""

    op: Operation
    pipe: int
    buffer: int
    name: str
    is_queue: bool
    position: str
    num: int | None  # None: not a constant
    length: int | None  # bytes asked for, None: not a constant

    @property
    def count(self) -> int | None:
        return self.num if self.is_queue else 1

    @property
    def bytes(self) -> int | None:
        if self.num is None or self.length is None:
            return None
        return self.num * round32(self.length)


@dataclass(frozen=True)
class LocalBlock:
    """One LocalMemAllocator::Alloc on a path."""

    op: Operation
    allocator: int
    memory: str
    bytes: int | None


@dataclass(frozen=True)
class Finding:
    code: str
    op: Operation
    message: str
    notes: tuple[tuple[Operation, str], ...] = ()
    soft: bool = False  # a warning: on every path the problem is of the kind the program makes harmless


def round32(n: int) -> int:
    return (n + 31) // 32 * 32


class QueueState:
    """inited: True/False/None; nbuf: buffers from InitBuffer; count: buffers taken; fifo: tensors enqueued;
    cursor: where the next AllocTensor starts looking for a free buffer (queue_reuse.next_slot), None: unknown."""

    __slots__ = ("count", "cursor", "fifo", "inited", "nbuf", "pipe")

    def __init__(self, inited: bool | None, nbuf: int | None, count: int | None,
                 fifo: tuple[int, ...] | None, pipe: int | None, cursor: int | None = None) -> None:
        self.inited, self.nbuf, self.count, self.fifo, self.pipe = inited, nbuf, count, fifo, pipe
        self.cursor = cursor

    def replace(self, **kw: object) -> QueueState:
        q = QueueState(self.inited, self.nbuf, self.count, self.fifo, self.pipe, self.cursor)
        for k, v in kw.items():
            setattr(q, k, v)
        return q


# a tensor: (queue index, FSM state, op index where it was allocated, op index of its last transition)
Token = tuple[int, str, int, int]


class State:
    __slots__ = ("blocks", "busy", "cells", "inits", "intact", "ints", "next_tok", "nots", "over", "pipes", "produced",
                 "queues", "reads", "slots", "tbufs", "tokens", "vals", "vints")

    def __init__(self) -> None:
        self.queues: dict[int, QueueState] = {}
        self.tokens: dict[int, Token] = {}
        self.vals: dict[int, int] = {}  # SSA value index -> token id
        self.cells: dict[int, int] = {}  # memref cell index -> token id
        self.pipes: frozenset[int] = frozenset()
        self.busy: frozenset[int] = frozenset()  # pipes in use: given buffers or objects, not destroyed since
        self.inits: tuple[Init, ...] = ()
        self.over: frozenset[object] = frozenset()  # limits already reported on this path
        self.blocks: tuple[LocalBlock, ...] = ()
        self.next_tok = 0
        self.tbufs: frozenset[int] = frozenset()  # TBufs that went through InitBuffer
        self.ints: dict[int, int] = {}  # scalar memref cell index -> its known integer value
        self.vints: dict[int, int] = {}  # memref.load result index -> the integer it read
        # a cell (or a scalar SSA value) -> integers it is known not to hold: the else branch of `mode == 3`,
        # so that a second `if (mode == 3)` later on the same path is known false
        self.nots: dict[int, frozenset[int]] = {}
        self.slots: dict[int, int] = {}  # token -> which of its queue's buffers it holds, where known
        self.intact: frozenset[int] = frozenset()  # freed tokens no AllocTensor could have handed out again
        # held queue tensors -> what their last write (taken to run on the pipe their queue's DeQue event starts
        # from) happens before, from the first SetFlag on that pipe (an EnQue among them, or a barrier) after
        # it; a write or FreeTensor drops it
        self.produced: dict[int, Reach] = {}
        # reads of freed buffers on a pipe their next writer does not wait for, by the read op's id: whether the
        # later writes of the buffer are ordered after them (happens_before.py)
        self.reads: dict[int, PendingRead] = {}

    def copy(self) -> State:
        s = State.__new__(State)
        s.queues, s.tokens, s.vals, s.cells = dict(self.queues), dict(self.tokens), dict(self.vals), dict(self.cells)
        s.pipes, s.inits, s.over, s.blocks, s.next_tok, s.tbufs = (self.pipes, self.inits, self.over, self.blocks,
                                                                   self.next_tok, self.tbufs)
        s.busy = self.busy
        s.ints, s.vints, s.nots = dict(self.ints), dict(self.vints), dict(self.nots)
        s.slots, s.intact, s.produced, s.reads = dict(self.slots), self.intact, dict(self.produced), dict(self.reads)
        return s

    def canonical(self) -> tuple[State, tuple[object, ...]]:
        """The same state with tokens renumbered by first appearance (unreferenced ones dropped), and its key."""
        order: dict[int, int] = {}

        def see(t: int) -> None:
            if t >= 0 and t in self.tokens and t not in order:
                order[t] = len(order)

        for qi in sorted(self.queues):
            for t in self.queues[qi].fifo or ():
                see(t)
        for ci in sorted(self.cells):
            see(self.cells[ci])
        for vi in sorted(self.vals):
            see(self.vals[vi])
        # buffers still held but no longer named (a leak) stay: the queue count and the leak check need them
        for t, _ in sorted(((t, tok) for t, tok in self.tokens.items() if tok[1] in (OCCUPIED, ENQUE, DEQUE)),
                           key=lambda item: item[1]):
            see(t)
        s = State.__new__(State)
        s.pipes, s.inits, s.over, s.blocks, s.tbufs = self.pipes, self.inits, self.over, self.blocks, self.tbufs
        s.ints, s.vints, s.busy, s.nots = self.ints, self.vints, self.busy, self.nots
        s.next_tok = len(order)
        s.tokens = {order[t]: tok for t, tok in self.tokens.items() if t in order}
        s.vals = {v: order[t] for v, t in self.vals.items() if t in order}
        s.cells = {c: order[t] for c, t in self.cells.items() if t in order}
        s.queues = {}
        for qi, q in self.queues.items():
            fifo = None if q.fifo is None else tuple(order.get(t, -1) for t in q.fifo)
            s.queues[qi] = q.replace(fifo=fifo)
        s.slots = {order[t]: b for t, b in self.slots.items() if t in order}
        s.intact = frozenset(order[t] for t in self.intact if t in order)
        # (a queue flag names its tensor by token: renumbered too, happens_before.QueueFlag)
        s.produced = {order[t]: r.renumber(order) for t, r in self.produced.items() if t in order}
        s.reads = {k: r.replace(aliases=frozenset(order[t] for t in r.aliases if t in order)).renumber(order)
                   for k, r in self.reads.items()}
        key = (
            tuple(sorted((qi, q.inited, q.nbuf, q.count, q.fifo, q.pipe, q.cursor) for qi, q in s.queues.items())),
            tuple(sorted(s.tokens.items())), tuple(sorted(s.vals.items())), tuple(sorted(s.cells.items())),
            s.pipes, s.busy, tuple(id(i.op) for i in s.inits), s.over, tuple(id(b.op) for b in s.blocks), s.tbufs,
            tuple(sorted(s.ints.items())), tuple(sorted(s.vints.items())), tuple(sorted(s.nots.items())),
            tuple(sorted(s.slots.items())), s.intact, tuple(sorted((t, r.key()) for t, r in s.produced.items())),
            tuple(sorted((k, r.key()) for k, r in s.reads.items())),
        )
        return s, key


def _same(values: Sequence[object]) -> object | None:
    first = values[0]
    return first if all(v == first for v in values[1:]) else None


def join(states: Sequence[State]) -> State:
    """One state that says only what all of `states` agree on (unknown elsewhere)."""
    if len(states) == 1:
        return states[0]
    out = State()
    qidx = set().union(*(s.queues for s in states))
    for qi in qidx:
        qs = [s.queues.get(qi) for s in states]
        if any(q is None for q in qs):
            out.queues[qi] = QueueState(None, None, None, None, None)
            continue
        present = [q for q in qs if q is not None]
        fifos = [q.fifo for q in present]
        out.queues[qi] = QueueState(
            _same([q.inited for q in present]),  # type: ignore[arg-type]
            _same([q.nbuf for q in present]),  # type: ignore[arg-type]
            _same([q.count for q in present]),  # type: ignore[arg-type]
            _same(fifos) if all(f is not None for f in fifos) else None,  # type: ignore[arg-type]
            _same([q.pipe for q in present]),  # type: ignore[arg-type]
            _same([q.cursor for q in present]),  # type: ignore[arg-type]
        )
    for t in set(states[0].tokens).intersection(*(s.tokens for s in states[1:])):
        toks = [s.tokens[t] for s in states]
        if _same(toks) is not None:
            out.tokens[t] = toks[0]
        elif _same([tk[0] for tk in toks]) is not None:
            out.tokens[t] = (toks[0][0], UNKNOWN, toks[0][2], toks[0][3])
    for attr in ("vals", "cells", "ints", "vints"):
        maps = [getattr(s, attr) for s in states]
        merged = {k: v for k, v in maps[0].items() if all(m.get(k) == v for m in maps[1:])}
        setattr(out, attr, merged)
    common_nots = {k: frozenset.intersection(*(s.nots.get(k, frozenset()) for s in states)) for k in states[0].nots}
    out.nots = {k: v for k, v in common_nots.items() if v}
    out.pipes = frozenset.intersection(*(s.pipes for s in states))
    out.busy = frozenset.intersection(*(s.busy for s in states))
    out.tbufs = frozenset.intersection(*(s.tbufs for s in states))
    out.inits = tuple(i for i in states[0].inits if all(i in s.inits for s in states[1:]))
    out.blocks = tuple(b for b in states[0].blocks if all(b in s.blocks for s in states[1:]))
    out.over = frozenset.union(*(s.over for s in states))
    out.next_tok = max(s.next_tok for s in states)
    out.slots = {t: b for t, b in states[0].slots.items() if t in out.tokens and all(m.slots.get(t) == b
                                                                                     for m in states[1:])}
    out.intact = frozenset.intersection(*(s.intact for s in states)) & out.tokens.keys()
    out.produced = {t: r for t, r in states[0].produced.items()
                    if t in out.tokens and all(t in s.produced for s in states[1:])}
    for s in states[1:]:
        out.produced = {t: r.meet(s.produced[t]) for t, r in out.produced.items()}
    # a read still open on any path stays open, ordered only where every path orders it
    for s in states:
        for k, r in s.reads.items():
            r = r.replace(aliases=r.aliases & out.tokens.keys())
            out.reads[k] = out.reads[k].meet(r) if k in out.reads else r
    return out


def normalize_keyed(states: Iterable[State], limit: int) -> tuple[list[State], tuple[tuple[object, ...], ...]]:
    """The distinct states (tokens renumbered), merged into one when more than `limit`, with their keys."""
    seen: dict[tuple[object, ...], State] = {}
    for s in states:
        c, key = s.canonical()
        seen.setdefault(key, c)
    if len(seen) > limit:
        c, key = join(list(seen.values())).canonical()
        return [c], (key,)
    return list(seen.values()), tuple(seen)


class OverBudget(Exception):
    """The kernel took more than STEP_BUDGET op steps."""
