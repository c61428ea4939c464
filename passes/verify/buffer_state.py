"""The buffer state machine of a kernel, along every path: what the queue and capacity rules read.

One abstract interpretation per kernel body. A state holds, per queue, whether InitBuffer ran, how many
buffers it gave, how many are taken and which tensors wait in its FIFO; per tensor (a buffer taken by
AllocTensor) its place in the FSM of reference section 2 (FREE -Alloc-> OCCUPIED -EnQue-> ENQUE -DeQue->
DEQUE -Free-> FREE); the live TPipes; and every InitBuffer and LocalMemAllocator block so far.

`scf.if` runs both branches and keeps both outcomes (a set of states, one per path, merged pointwise only
when too many); loops run their body until no new state appears, widening what still changes after a
few rounds; declarations and SSA values of a region die when it ends (a TPipe in a TILING_KEY_IS branch
is gone after the branch). Integer scalars kept in memref cells are followed where they are constants
(a member set to 16384 in Init, a tiling field after fold-tiling), and a branch on a flag read from a cell
fixes that flag inside the branch, so an `if (!isValid) return;` in Init and the same guard in Process
agree. A check records, per op, how many states reached it and in how many the
problem holds; a finding is kept only when it holds in every state that reaches the op, so unknown
values (a length from the tiling data, a queue InitBuffer never saw) never produce one.

A loop entered again in states it has already run from (an inner loop, on each round of the loop around
it) is not run again: its exits are remembered. A kernel that takes more than STEP_BUDGET op steps is run
again with all paths merged into one state at every point; one over budget in that run too is given up,
with no findings (`Analysis.gave_up`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import FileLineColLoc, IndexType, IntegerType, MemRefType, ModuleOp, StringAttr
from xdsl.ir import Block, Operation, Region, SSAValue

from ascendir.chips import Chip, tposition_memory
from ascendir.dialects import ascendc as asc
from ascendir.lower.ctypes import scalar_from_element
from passes.verify import queue_reuse
from passes.verify.alignment import source_of
from passes.verify.ir import constant_of, is_kind, overload_of, walk_of

# FSM states of one buffer; "?" = not known on this path.
OCCUPIED, ENQUE, DEQUE, FREE, UNKNOWN = "O", "E", "D", "F", "?"
MAX_STATES = 16  # above this many paths, states are merged pointwise
MAX_ROUNDS = 4  # loop rounds before widening
UNROLL = 4  # loops with a constant trip count up to this are run exactly
# Op steps (an op run on one state) per kernel before the analysis runs the kernel again coarsely, every
# path merged into one state (what all paths agree on; the rest unknown, so still no finding on a guess).
# The bundled kernels take a few hundred; of 127 vendor op kernels, 9 took over 150,000 in one check and the
# largest 3.9 million (62 s on a 2-core machine). A kernel over budget in the coarse run too is given up: it
# reports nothing from this analysis, and the rules stay silent rather than slow.
STEP_BUDGET = 100_000

# LocalTensor methods that only read the tensor's descriptor, not its buffer.
_METADATA_METHODS = frozenset({"GetSize", "GetLength", "GetPhyAddr", "GetPosition", "operator[]", "ReinterpretCast"})
# queue methods that change the queue in ways the state does not follow
_HAVOC_QUEUE_METHODS = frozenset({"AllocTensor", "DeQue", "FreeAllEvent", "FreeTensor", "EnQue"})
_NAMED_DECLARATIONS = (asc.TPipeOp, asc.TQueOp, asc.TBufOp, asc.ObjectOp)  # ops whose var_name names a value


def _stored_pipe(pipe: SSAValue) -> SSAValue | None:
    """A TPipe value, or for a read of a TPipe member cell (`pipe_ = pipe;`) the pipe stored there when one
    store reaches; None for a read whose pipe cannot be told."""
    if not isinstance(pipe.owner, memref.LoadOp):
        return pipe
    stored = source_of(pipe)
    return stored if stored is not None and isinstance(stored.owner, asc.TPipeOp) else None


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
    __slots__ = ("blocks", "busy", "cells", "flagged", "inits", "intact", "ints", "next_tok", "nots", "ordered", "over",
                 "pipes", "queues", "slots", "tbufs", "tokens", "vals", "vints")

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
        self.ordered: frozenset[int] = frozenset()  # tokens a SetFlag/WaitFlag pair ordered after their last write
        # SetFlag (event, id key) -> the tokens written before it (a WaitFlag of the same key orders them)
        self.flagged: dict[tuple[str, object], frozenset[int]] = {}

    def copy(self) -> State:
        s = State.__new__(State)
        s.queues, s.tokens, s.vals, s.cells = dict(self.queues), dict(self.tokens), dict(self.vals), dict(self.cells)
        s.pipes, s.inits, s.over, s.blocks, s.next_tok, s.tbufs = (self.pipes, self.inits, self.over, self.blocks,
                                                                   self.next_tok, self.tbufs)
        s.busy = self.busy
        s.ints, s.vints, s.nots = dict(self.ints), dict(self.vints), dict(self.nots)
        s.slots, s.intact, s.ordered, s.flagged = dict(self.slots), self.intact, self.ordered, dict(self.flagged)
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
        s.ordered = frozenset(order[t] for t in self.ordered if t in order)
        s.flagged = {k: frozenset(order[t] for t in ts if t in order) for k, ts in self.flagged.items()}
        key = (
            tuple(sorted((qi, q.inited, q.nbuf, q.count, q.fifo, q.pipe, q.cursor) for qi, q in s.queues.items())),
            tuple(sorted(s.tokens.items())), tuple(sorted(s.vals.items())), tuple(sorted(s.cells.items())),
            s.pipes, s.busy, tuple(id(i.op) for i in s.inits), s.over, tuple(id(b.op) for b in s.blocks), s.tbufs,
            tuple(sorted(s.ints.items())), tuple(sorted(s.vints.items())), tuple(sorted(s.nots.items())),
            tuple(sorted(s.slots.items())), s.intact, s.ordered,
            tuple(sorted((repr(k), tuple(sorted(v))) for k, v in s.flagged.items())),
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
    out.ordered = frozenset.intersection(*(s.ordered for s in states)) & out.tokens.keys()
    out.flagged = {k: frozenset.intersection(*(s.flagged[k] for s in states))
                   for k in states[0].flagged if all(k in s.flagged for s in states[1:])}
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


@dataclass
class _Verdict:
    op: Operation
    seen: int = 0
    bad: int = 0
    soft: int = 0  # bad states in which the problem is of the harmless kind
    message: str = ""
    notes: tuple[tuple[Operation, str], ...] = ()


class _OverBudget(Exception):
    """The kernel took more than STEP_BUDGET op steps."""


@dataclass
class Analysis:
    """Runs the interpreter over every kernel of a module; `findings[code]` lists what held on every path."""

    chip: Chip
    findings: dict[str, list[Finding]] = field(default_factory=dict)
    _verdicts: dict[tuple[str, int], _Verdict] = field(default_factory=dict)
    _index: dict[SSAValue, int] = field(default_factory=dict)
    _op_index: dict[int, Operation] = field(default_factory=dict)
    _region_defs: dict[int, frozenset[int]] = field(default_factory=dict)
    _names: dict[int, str] = field(default_factory=dict)
    _decls: dict[int, Operation] = field(default_factory=dict)
    _loop_stores: dict[int, frozenset[int]] = field(default_factory=dict)

    gave_up: list[asc.KernelOp] = field(default_factory=list)  # kernels over STEP_BUDGET
    _steps_left: int = STEP_BUDGET
    _state_limit: int = MAX_STATES  # 1 while a kernel is run with its paths merged
    _loop_memo: dict[tuple[object, ...], tuple[State, ...]] = field(default_factory=dict)

    # ------------------------------------------------------------------ driver

    def run(self, module: ModuleOp) -> Analysis:
        for kernel in walk_of(module):
            if is_kind(kernel, asc.KernelOp):
                self._index_values(kernel)
                if not self._within_budget(kernel, MAX_STATES) and not self._within_budget(kernel, 1):
                    self.gave_up.append(kernel)
        reported: dict[tuple[str, object, str], int] = {}
        for (code, _), v in self._verdicts.items():
            # one template instantiated several times lowers the same line several times: report it once, as an
            # error if it is one in any instantiation
            key = (code, location_key(v.op), v.message)
            if not v.seen or v.bad != v.seen:
                continue
            found = self.findings.setdefault(code, [])
            finding = Finding(code, v.op, v.message, v.notes, soft=v.soft == v.bad)
            at = reported.get(key)
            if at is None:
                reported[key] = len(found)
                found.append(finding)
            elif found[at].soft and not finding.soft:
                found[at] = finding
        for found in self.findings.values():
            found.sort(key=lambda f: _line_of(f.op))
        return self

    def _normalize(self, states: Iterable[State]) -> list[State]:
        return normalize_keyed(states, self._state_limit)[0]

    def _within_budget(self, kernel: Operation, state_limit: int) -> bool:
        """Runs `kernel` keeping at most `state_limit` states at each point; False, with its verdicts dropped,
        when it takes more than STEP_BUDGET steps."""
        self._steps_left = STEP_BUDGET
        self._loop_memo = {}
        self._state_limit = state_limit
        try:
            self._region(kernel.body, [State()])
            return True
        except _OverBudget:
            inside = {id(op) for op in walk_of(kernel)}
            self._verdicts = {k: v for k, v in self._verdicts.items() if k[1] not in inside}
            return False

    def _index_values(self, kernel: Operation) -> None:
        ops = walk_of(kernel)
        index = self._index
        for op in ops:
            self._op_index[id(op)] = op
            for r in op.results:
                index[r] = len(index)
            if is_kind(op, _NAMED_DECLARATIONS):
                self._names[index[op.results[0]]] = op.var_name.data
                self._decls[index[op.results[0]]] = op
        # what each region declares (see _leave), inner regions first: one pass, not a walk per region
        region_defs = self._region_defs
        for op in reversed(ops):
            for region in op.regions:
                defs: set[int] = set()
                for block in region.blocks:
                    for inner in block.ops:
                        defs.update(index[r] for r in inner.results)
                        for nested in inner.regions:
                            defs |= region_defs[id(nested)]
                region_defs[id(region)] = frozenset(defs)

    def idx(self, v: SSAValue) -> int:
        found = self._index.get(v)
        if found is None:
            found = self._index[v] = len(self._index)
        return found

    def pipe_idx(self, pipe: SSAValue) -> int:
        """The index of a TPipe value; one read from a `TPipe*` member cell counts as the pipe stored there
        (`this->pipe->Reset()` resets the pipe that `this->pipe->InitBuffer(...)` carved)."""
        return self.idx(_stored_pipe(pipe) or pipe)

    def name(self, v: SSAValue) -> str:
        return self._names.get(self.idx(v)) or v.name_hint or "the queue"

    def check(self, code: str, op: Operation, problem: str | None, *notes: tuple[Operation, str],
              soft: bool = False) -> None:
        """Records one state's verdict at `op`: `problem` is the message when the rule is broken there; `soft`
        when it is broken in a way the program makes harmless (a warning when so in every state)."""
        v = self._verdicts.get((code, id(op)))
        if v is None:
            v = self._verdicts[(code, id(op))] = _Verdict(op)
        v.seen += 1
        if problem is not None:
            # the message of a hard state wins: the finding is an error as soon as one path is
            if v.bad == 0 or (v.soft == v.bad and not soft):
                v.message, v.notes = problem, tuple(notes)
            v.bad += 1
            v.soft += int(soft)

    # ------------------------------------------------------------------ control flow

    def _region(self, region: Region, states: list[State]) -> list[State]:
        for block in region.blocks:
            states = self._block(block, states)
            break  # structured control flow: one block per region
        return self._leave(region, states)

    def _block(self, block: Block, states: list[State]) -> list[State]:
        for op in block.ops:
            if not states:
                return states
            if op.regions:
                states = self._structured(op, states)
            else:
                self._steps_left -= len(states)
                if self._steps_left < 0:
                    raise _OverBudget
                states = [self._step(op, s) for s in states]
        return states

    def _leave(self, region: Region, states: list[State]) -> list[State]:
        """Drops what was declared in `region`: its SSA values, cells, pipes and queues."""
        defs = self._region_defs.get(id(region))
        if defs is None:
            defs = frozenset(self.idx(r) for op in region.walk() for r in op.results)
            self._region_defs[id(region)] = defs
        out = []
        for s in states:
            if not (defs & s.vals.keys() or defs & s.cells.keys() or defs & s.queues.keys() or defs & s.pipes
                    or defs & s.tbufs or defs & s.ints.keys() or defs & s.vints.keys() or defs & s.nots.keys()):
                out.append(s)
                continue
            s = s.copy()
            s.vals = {k: v for k, v in s.vals.items() if k not in defs}
            s.cells = {k: v for k, v in s.cells.items() if k not in defs}
            s.ints = {k: v for k, v in s.ints.items() if k not in defs}
            s.vints = {k: v for k, v in s.vints.items() if k not in defs}
            s.nots = {k: v for k, v in s.nots.items() if k not in defs}
            s.queues = {k: v for k, v in s.queues.items() if k not in defs}
            dead_pipes = defs & s.pipes
            if dead_pipes:  # the TPipe destructor gives its buffers back
                s.pipes = s.pipes - dead_pipes
                s.busy = s.busy - dead_pipes
                s.inits = tuple(i for i in s.inits if i.pipe not in dead_pipes)
                s.over = frozenset()
            s.tbufs = s.tbufs - defs
            out.append(s)
        return out

    def _structured(self, op: Operation, states: list[State]) -> list[State]:
        if isinstance(op, scf.IfOp):
            taken: list[State] = []
            skipped: list[State] = []
            for s in states:
                cond = self.int_of(op.cond, s)
                if cond is None or cond:
                    taken.append(self._assume(op.cond, True, s) if cond is None else s)
                if cond is None or not cond:
                    skipped.append(self._assume(op.cond, False, s) if cond is None else s)
            then = self._region(op.true_region, taken) if taken else []
            other = (self._region(op.false_region, skipped) if op.false_region.blocks else skipped) if skipped else []
            return self._normalize([*then, *other])
        if isinstance(op, scf.ForOp):
            trips = {self._trip_count(op, s) for s in states}
            trip = trips.pop() if len(trips) == 1 else None
            return self._loop(op, self._forget_stored(op, states), lambda ss: self._region(op.body, ss), trip)
        if isinstance(op, scf.WhileOp):
            entry = self._region(op.before_region, self._forget_stored(op, states))

            def iteration(ss: list[State]) -> list[State]:
                return self._region(op.before_region, self._region(op.after_region, ss))

            return self._loop(op, self._normalize(entry), iteration, None)
        # an op with regions we do not model: each region is one alternative, or none runs
        outs = list(states)
        for region in op.regions:
            if region.blocks:
                outs += self._region(region, states)
        return self._normalize(outs)

    def _loop(self, op: Operation, states: list[State], run: Callable[[list[State]], list[State]],
              trip: int | None) -> list[State]:
        if trip is not None and trip <= 0:
            return states
        states, keys = normalize_keyed(states, self._state_limit)
        # An inner loop is run again for every state and round of the loops around it, mostly on states it
        # has seen. The same states in give the same states out and the same verdicts (a verdict is kept when
        # it holds in every state seen, so seeing a state twice changes nothing): run each input once.
        memo_key = (id(op), trip, keys)
        hit = self._loop_memo.get(memo_key)
        if hit is not None:
            return list(hit)
        out = self._run_loop(op, states, run, trip)
        self._loop_memo[memo_key] = tuple(out)
        return out

    def _run_loop(self, op: Operation, states: list[State], run: Callable[[list[State]], list[State]],
                  trip: int | None) -> list[State]:
        # the first iteration, state by state: what one iteration leaves allocated
        firsts = [(s, self._normalize(run([s]))) for s in states]
        self._leak_check(op, firsts, trip)
        out = self._normalize([e for _, exits in firsts for e in exits])
        if trip is not None and trip <= UNROLL:
            for _ in range(trip - 1):
                out = self._normalize(run(out))
            return out
        result: dict[tuple[object, ...], State] = {}
        if trip is None:
            for s in states:
                result[s.canonical()[1]] = s
        cur = []
        for s in out:
            c, key = s.canonical()
            if key not in result:
                result[key] = c
                cur.append(c)
        for _ in range(MAX_ROUNDS):
            if not cur:
                break
            nxt = []
            for s in self._normalize(run(cur)):
                c, key = s.canonical()
                if key not in result:
                    result[key] = c
                    nxt.append(c)
            cur = nxt
        else:
            if cur:  # still growing (a leak, or a count that never settles): forget what changes
                widened = [_havoc_counts(join(list(result.values())))]
                for _ in range(2):
                    widened = self._normalize([*widened, *run(widened)])
                    if len(widened) == 1:
                        break
                widened = [_havoc_counts(join(widened))]
                return widened
        return self._normalize(result.values())

    def _leak_check(self, op: Operation, firsts: list[tuple[State, list[State]]], trip: int | None) -> None:
        if trip is not None and trip < 2:
            return
        if not firsts or any(not exits for _, exits in firsts):
            return
        leaking: dict[int, int] = {}  # queue -> fewest extra buffers over all paths
        common: set[int] | None = None
        for entry, exits in firsts:
            for e in exits:
                grew = set()
                for qi, q in entry.queues.items():
                    after = e.queues.get(qi)
                    if q.count is None or after is None or after.count is None or after.count <= q.count:
                        continue
                    if q.inited is None or after.inited is None:
                        continue
                    grew.add(qi)
                    leaking[qi] = min(leaking.get(qi, 1 << 30), after.count - q.count)
                common = grew if common is None else common & grew
        if not common:
            return
        for qi in sorted(common):
            # paths on which InitBuffer never ran for the queue (a guard the analysis cannot correlate with
            # the loop's own guard) do not decide the buffer count; at least one path must have run it
            nbufs = {e.queues[qi].nbuf for entry, exits in firsts for e in exits if e.queues[qi].inited}
            if not nbufs:
                continue
            nbuf = next(iter(nbufs)) if len(nbufs) == 1 else None
            entry_counts = [entry.queues[qi].count or 0 for entry, _ in firsts]
            if trip is not None and nbuf is not None and max(entry_counts) + leaking[qi] * trip <= nbuf:
                continue  # a short loop that fills the buffers, freed after it
            sites = self._leaked_sites(qi, firsts)
            qname = self._names.get(qi, "the queue")
            extra = leaking[qi]
            what = "buffer" if extra == 1 else f"{extra} buffers"
            tail = (f"; with {nbuf} buffer{'s' if nbuf != 1 else ''}, AllocTensor blocks forever on iteration "
                    f"{(nbuf - max(entry_counts)) // extra + 1}" if nbuf is not None else
                    "; AllocTensor blocks forever once its buffers are taken")
            msg = f"each loop iteration takes a {what} of {qname} and does not free it{tail}"
            where = sites[0] if sites else op
            notes = tuple((s, "allocated here, still held at the end of the iteration") for s in sites[1:2])
            self.check("ASC207", where, msg, *notes)

    def _leaked_sites(self, qi: int, firsts: list[tuple[State, list[State]]]) -> list[Operation]:
        common: set[int] | None = None
        for entry, exits in firsts:
            before = {tok[2] for tok in entry.tokens.values() if tok[0] == qi and tok[1] != FREE}
            for e in exits:
                live = {tok[2] for tok in e.tokens.values() if tok[0] == qi and tok[1] in (OCCUPIED, ENQUE, DEQUE)}
                live -= before
                common = live if common is None else common & live
        ops = [self._op_index[i] for i in sorted(common or ()) if i in self._op_index]
        return sorted(ops, key=_line_of)

    # ------------------------------------------------------------------ scalars

    def int_of(self, v: SSAValue, s: State, depth: int = 0) -> int | None:
        """The integer `v` holds on the path of `s` (unsigned, wrapped to its width), or None."""
        width = int_width(v.type)
        owner = v.owner
        if width is None or depth > 24:
            return None
        if is_kind(owner, memref.LoadOp):
            return s.vints.get(self.idx(owner.res))
        if s.vints and not is_kind(owner, arith.ConstantOp):
            known = s.vints.get(self.idx(v))  # fixed by a branch on `v == k` (see _assume)
            if known is not None:
                return known
        if is_kind(owner, arith.ConstantOp):
            value = constant_of(v)
            return value % (1 << width) if isinstance(value, int) else None
        if is_kind(owner, arith.SelectOp):
            c = self.int_of(owner.cond, s, depth + 1)
            return None if c is None else self.int_of(owner.lhs if c else owner.rhs, s, depth + 1)
        if isinstance(owner, arith.ExtUIOp | arith.TruncIOp | arith.IndexCastOp | arith.ExtSIOp):
            src = owner.operands[0]
            inner = self.int_of(src, s, depth + 1)
            src_width = int_width(src.type)
            if inner is None or src_width is None:
                return None
            if isinstance(owner, arith.ExtSIOp | arith.IndexCastOp):
                inner = signed_value(inner, src_width)
            return inner % (1 << width)
        if isinstance(owner, arith.CmpiOp):
            a, b = self.int_of(owner.lhs, s, depth + 1), self.int_of(owner.rhs, s, depth + 1)
            w = int_width(owner.lhs.type)
            if (a is None) != (b is None) and s.nots and owner.predicate.value.data in (0, 1):
                unknown, k = (owner.lhs, b) if a is None else (owner.rhs, a)
                if k in s.nots.get(self._subject(unknown), ()):
                    return int(owner.predicate.value.data == 1)  # `x == k` false, `x != k` true
            if a is None or b is None or w is None:
                return None
            return compare_ints(owner.predicate.value.data, a, b, w)
        fold = BINARY_FOLDS.get(type(owner))
        if fold is not None and len(owner.operands) == 2:
            a, b = self.int_of(owner.operands[0], s, depth + 1), self.int_of(owner.operands[1], s, depth + 1)
            if a is None or b is None:
                return None
            result = fold(a, b, width)
            return None if result is None else result % (1 << width)
        return None

    def _assume(self, cond: SSAValue, value: bool, s: State) -> State:
        """`s` on the branch where `cond` is `value`: a flag read from a cell is known there."""
        owner = cond.owner
        if isinstance(owner, arith.XOrIOp):
            a, b = owner.operands
            if self.int_of(b, s) == 1:
                return self._assume(a, not value, s)
            return s
        if isinstance(owner, memref.LoadOp) and int_width(cond.type) == 1:
            cell, ri = self.idx(owner.memref), self.idx(owner.res)
            s = s.copy()
            s.ints[cell] = s.vints[ri] = int(value)
            return s
        if isinstance(owner, arith.CmpiOp) and owner.predicate.value.data in (0, 1):
            equal = value == (owner.predicate.value.data == 0)
            lhs, rhs = owner.lhs, owner.rhs
            k = self.int_of(rhs, s)
            if k is None:
                lhs, rhs, k = rhs, lhs, self.int_of(lhs, s)
            if k is None or self.int_of(lhs, s) is not None:
                return s
            s = s.copy()
            if equal and isinstance(lhs.owner, memref.LoadOp):
                s.ints[self.idx(lhs.owner.memref)] = s.vints[self.idx(lhs.owner.res)] = k
            elif equal:
                s.vints[self.idx(lhs)] = k
            else:
                subject = self._subject(lhs)
                s.nots[subject] = s.nots.get(subject, frozenset()) | {k}
            return s
        return s

    def _subject(self, v: SSAValue) -> int:
        """What a disequality is about: the cell a load reads (the next load of it reads the same value until
        a store), else the SSA value itself."""
        return self.idx(v.owner.memref) if isinstance(v.owner, memref.LoadOp) else self.idx(v)

    def _forget_stored(self, loop: Operation, states: list[State]) -> list[State]:
        """Cells a loop body writes hold unknown values at the head of the loop."""
        stored = self._loop_stores.get(id(loop))
        if stored is None:
            stored = frozenset(self.idx(o.memref) for o in loop.walk() if isinstance(o, memref.StoreOp))
            self._loop_stores[id(loop)] = stored
        out = []
        for s in states:
            if stored & s.ints.keys() or stored & s.nots.keys():
                s = s.copy()
                s.ints = {k: v for k, v in s.ints.items() if k not in stored}
                s.nots = {k: v for k, v in s.nots.items() if k not in stored}
            out.append(s)
        return out

    def _trip_count(self, op: scf.ForOp, s: State) -> int | None:
        lb, ub, step = self.int_of(op.lb, s), self.int_of(op.ub, s), self.int_of(op.step, s)
        width = int_width(op.lb.type)
        if lb is None or ub is None or step is None or width is None:
            return None
        lb, ub, step = signed_value(lb, width), signed_value(ub, width), signed_value(step, width)
        if step <= 0:
            return None
        return max(0, -(-(ub - lb) // step))

    # ------------------------------------------------------------------ one op

    def token_of(self, s: State, v: SSAValue) -> int | None:
        root = _root(v)
        t = s.vals.get(self.idx(root))
        return t if t is not None and t in s.tokens else None

    def _step(self, op: Operation, s: State) -> State:
        cls = type(op)
        handler = _STEP_HANDLER.get(cls, _UNSEEN)
        if handler is _UNSEEN:
            handler = _STEP_HANDLER[cls] = next((h for k, h in _STEP_HANDLERS if issubclass(cls, k)), None)
        if handler is None:
            return s  # most ops (arithmetic, constants, ...) change nothing here
        return handler(self, op, s)

    def _tque(self, op: asc.TQueOp, s: State) -> State:
        s = s.copy()
        s.queues[self.idx(op.result)] = QueueState(False, None, 0, (), None)
        return s

    def _load(self, op: memref.LoadOp, s: State) -> State:
        if isinstance(op.res.type, IntegerType | IndexType):
            known = s.ints.get(self.idx(op.memref))
            ri = self.idx(op.res)
            if s.vints.get(ri) != known:
                s = s.copy()
                if known is None:
                    s.vints.pop(ri, None)
                else:
                    s.vints[ri] = known
            return s
        if isinstance(op.res.type, asc.LocalTensorType):
            t = s.cells.get(self.idx(op.memref))
            s = s.copy()
            if t is None:
                s.vals.pop(self.idx(op.res), None)
            else:
                s.vals[self.idx(op.res)] = t
        return s

    def _store(self, op: memref.StoreOp, s: State) -> State:
        if isinstance(op.value.type, IntegerType | IndexType):
            ci = self.idx(op.memref)
            rank0 = isinstance(op.memref.type, MemRefType) and not op.memref.type.get_shape()
            known = self.int_of(op.value, s) if rank0 else None
            if s.ints.get(ci) != known or ci in s.nots:
                s = s.copy()
                s.nots.pop(ci, None)
                if known is None:
                    s.ints.pop(ci, None)
                else:
                    s.ints[ci] = known
            return s
        if isinstance(op.value.type, asc.LocalTensorType):
            cell = self.idx(op.memref)
            t = self.token_of(s, op.value)
            s = s.copy()
            rank0 = isinstance(op.memref.type, MemRefType) and not op.memref.type.get_shape()
            if t is None or not rank0:
                s.cells.pop(cell, None)
            else:
                s.cells[cell] = t
        return s

    def _select(self, op: arith.SelectOp, s: State) -> State:
        if isinstance(op.result.type, asc.LocalTensorType):
            a, b = self.token_of(s, op.lhs), self.token_of(s, op.rhs)
            s = s.copy()
            if a is not None and a == b:
                s.vals[self.idx(op.result)] = a
            else:
                s.vals.pop(self.idx(op.result), None)
        return s

    def _scalar_access(self, op: asc.GetValueOp | asc.SetValueOp, s: State) -> State:
        return self._use(op, "GetValue" if isinstance(op, asc.GetValueOp) else "SetValue", [op.tensor], s)

    def _use(self, op: Operation, api: str, operands: Iterable[SSAValue], s: State) -> State:
        """An API reads or writes these tensors: none may be freed or still enqueued. A freed tensor only read
        while its buffer cannot have been handed out again, and an enqueued one read on the consumer pipe
        after a SetFlag/WaitFlag pair of the DeQue's event, are warnings (queue_reuse.py)."""
        after_free: str | None = None
        before_deque: str | None = None
        free_note: tuple[Operation, str] | None = None
        enq_note: tuple[Operation, str] | None = None
        free_soft = enq_soft = True
        checked = False
        written: set[int] = set()
        for v in operands:
            if not isinstance(v.type, asc.LocalTensorType):
                continue
            checked = True
            t = self.token_of(s, v)
            if t is None:
                continue
            qi, st, _, last = s.tokens[t]
            qname = self._names.get(qi, "its queue")
            where = self._op_index.get(last)
            position = self._position(qi)
            if queue_reuse.writes(op, v):
                written.add(t)
            if st == FREE:
                soft = (t in s.intact and queue_reuse.only_reads(op, v)
                        and queue_reuse.freed_read_is_safe(position, op))
                if after_free is None or (free_soft and not soft):
                    after_free = f"{api} uses a tensor of {qname} after FreeTensor gave its buffer back"
                    free_note = (where, "freed here") if where is not None else None
                free_soft = free_soft and soft
            elif st == ENQUE and not _producer_reads(op, v):
                event = queue_reuse.DEQUE_EVENT.get(position)
                soft = (event is not None and t in s.ordered and queue_reuse.only_reads(op, v)
                        and queue_reuse.runs_on(op, event.rsplit("_", 1)[1]))
                if before_deque is None or (enq_soft and not soft):
                    before_deque = (f"{api} uses a tensor of {qname} that is enqueued and not yet dequeued; "
                                    f"DeQue it first")
                    enq_note = (where, "enqueued here") if where is not None else None
                enq_soft = enq_soft and soft
        if checked:
            free_notes = [free_note] if free_note else []
            if after_free is not None and free_soft:
                free_notes.append((op, queue_reuse.ROTATION_NOTE))
            self.check("ASC201", op, after_free, *free_notes, soft=after_free is not None and free_soft)
            enq_notes = [enq_note] if enq_note else []
            if before_deque is not None and enq_soft:
                event = next((queue_reuse.DEQUE_EVENT.get(self._position(s.tokens[t][0])) for v in operands
                              if (t := self.token_of(s, v)) is not None and s.tokens[t][1] == ENQUE), None)
                enq_notes.append((op, queue_reuse.FLAG_NOTE.format(event=event)))
            self.check("ASC202", op, before_deque, *enq_notes, soft=before_deque is not None and enq_soft)
        if written & (s.intact | s.ordered) or any(written & ts for ts in s.flagged.values()):
            # a write ends what a free left intact and what a flag pair ordered before it
            s = s.copy()
            s.intact, s.ordered = s.intact - written, s.ordered - written
            s.flagged = {k: ts - written for k, ts in s.flagged.items()}
        return s

    def _position(self, qi: int) -> str:
        decl = self._decls.get(qi)
        qtype = decl.results[0].type if decl is not None else None
        return qtype.position.data if isinstance(qtype, asc.TQueType) else "?"

    def _held_slots(self, s: State, qi: int) -> list[int] | None:
        """The buffers of queue qi taken now, when every taken one is known (its count agrees)."""
        q = s.queues.get(qi)
        if q is None or q.count is None:
            return None
        held: list[int] = []
        for t, tok in s.tokens.items():
            if tok[0] != qi:
                continue
            if tok[1] == UNKNOWN:
                return None
            if tok[1] in (OCCUPIED, ENQUE, DEQUE):
                if t not in s.slots:
                    return None
                held.append(s.slots[t])
        return held if len(held) == q.count else None

    def _api_call(self, op: asc.ApiCallOp, s: State) -> State:
        family, api = op.FAMILY, op.api.data
        if family == "queue":
            if api in _HAVOC_QUEUE_METHODS and op.args:
                return self._havoc_queue(s, op.args[0])
            return s
        if family == "sync":
            return self._flag(op, s)
        if family == "pipe":
            if api == "Reset" and op.args:
                return self._reset(s, self.pipe_idx(op.args[0]))
            if api == "Destroy" and op.args:
                return self._destroy(s, self.pipe_idx(op.args[0]))
            return s
        for a in op.args:
            if isinstance(a.type, asc.TPipeType):
                s = self._pipe_use(op, a, s)
        if family in ("buffer", "global_tensor"):
            return s
        if family == "local_tensor" and api in _METADATA_METHODS:
            return s
        return self._use(op, api, op.args, s)

    def _flag(self, op: asc.ApiCallOp, s: State) -> State:
        """SetFlag<E>(id) covers every write issued before it; the WaitFlag<E>(id) after it orders them before
        the consumer pipe (what a DeQue of a queue whose event is E would do)."""
        api = op.api.data
        if api not in ("SetFlag", "WaitFlag") or not op.args:
            return s
        targs = op.template_args
        first = targs.data[0] if targs is not None and targs.data else None
        event = queue_reuse.event_name(first.data if isinstance(first, StringAttr) else None)
        if event is None:
            return s
        ident = constant_of(op.args[0])
        if ident is None:  # an id fetched at run time: the same variable on both sides
            ident_v = queue_reuse.flag_id_root(op.args[0])
            ident = ("cell", self.idx(ident_v.owner.memref)) if isinstance(ident_v.owner, memref.LoadOp) \
                else ("value", self.idx(ident_v))
        key = (event, ident)
        if api == "SetFlag":
            # only the tensors of queues whose DeQue waits on this event: the rest is not ordered by it
            covered = frozenset(t for t, tok in s.tokens.items() if tok[1] in (OCCUPIED, ENQUE, DEQUE)
                                and queue_reuse.DEQUE_EVENT.get(self._position(tok[0])) == event)
            if not covered and key not in s.flagged:
                return s
            s = s.copy()
            s.flagged[key] = covered
        elif key in s.flagged:
            s = s.copy()
            s.ordered = s.ordered | (s.flagged.pop(key) & s.tokens.keys())
        return s

    def _opaque(self, op: asc.OpaqueCallOp, s: State) -> State:
        for a in op.args:
            if isinstance(a.type, asc.TQueType):
                s = self._havoc_queue(s, a)
            elif isinstance(a.type, asc.TPipeType) and op.callee.data.endswith("Destroy"):
                s = self._destroy(s, self.pipe_idx(a))
            elif isinstance(a.type, asc.TPipeType):
                s = self._pipe_use(op, a, s)
        # a call not followed may write the tensors it gets: what a free left intact or a flag pair ordered ends
        touched = {t for a in op.args if isinstance(a.type, asc.LocalTensorType)
                   and (t := self.token_of(s, a)) is not None}
        if touched & (s.intact | s.ordered) or any(touched & ts for ts in s.flagged.values()):
            s = s.copy()
            s.intact, s.ordered = s.intact - touched, s.ordered - touched
            s.flagged = {k: ts - touched for k, ts in s.flagged.items()}
        return s

    def _havoc_queue(self, s: State, q: SSAValue) -> State:
        qi = self.idx(q)
        if qi not in s.queues:
            return s
        s = s.copy()
        q = s.queues[qi]
        # a helper that gets the queue may also InitBuffer it
        s.queues[qi] = q.replace(count=None, fifo=None, inited=None if q.inited is False else q.inited,
                                 cursor=None)
        s.tokens = {t: (tok if tok[0] != qi else (qi, UNKNOWN, tok[2], tok[3])) for t, tok in s.tokens.items()}
        return s

    def _reset(self, s: State, pipe: int) -> State:
        s = s.copy()
        s.inits = tuple(i for i in s.inits if i.pipe != pipe)
        s.over = frozenset()
        dead = {qi for qi, q in s.queues.items() if q.pipe == pipe}
        for qi in dead:
            s.queues[qi] = QueueState(False, None, 0, (), None)
        s.tokens = {t: (tok if tok[0] not in dead else (tok[0], UNKNOWN, tok[2], tok[3])) for t, tok in s.tokens.items()}
        s.tbufs = frozenset()
        return s

    def _destroy(self, s: State, pipe: int) -> State:
        """`pipe.Destroy()`: its buffers are given back and it no longer counts as alive, so a next TPipe
        may be created (the documented way to use several pipes in one kernel, one after the other)."""
        s = self._reset(s, pipe)
        s.pipes = s.pipes - {pipe}
        s.busy = s.busy - {pipe}
        return s

    def _tpipe(self, op: asc.TPipeOp, s: State) -> State:
        s = s.copy()
        s.pipes = s.pipes | {self.idx(op.result)}
        return s

    def _pipe_use(self, op: Operation, pipe: SSAValue, s: State) -> State:
        """A TPipe takes part in an op (InitBuffer, REGIST_MATMUL_OBJ, a helper it is passed to). Two pipes
        in use at once hand out the same local memory and event ids; pipes used one after the other, each
        destroyed before the next is used, are the documented way to have several (vendor kernels declare
        them all up front)."""
        resolved = _stored_pipe(pipe)
        if resolved is None:
            return s  # which pipe this is cannot be told
        pi = self.idx(resolved)
        others = sorted((s.busy & s.pipes) - {pi})
        if others:
            first, second = self._decls.get(others[0]), self._decls.get(pi)
            notes = [(d, what) for d, what in ((first, "the TPipe still in use is declared here"),
                                                (second, "the TPipe used here is declared here")) if d is not None]
            here, there = self._names.get(pi, "pipe"), self._names.get(others[0], "pipe")
            if here == there:  # a member `pipe` and a local `pipe`: say which is which
                here, there = (f"{name} (declared on line {_line_of(d)[0]})" if d is not None else name
                               for name, d in ((here, second), (there, first)))
            self.check("ASC211", op, f"TPipe '{here}' is used while TPipe '{there}' is still in use; a kernel "
                                     "has one TPipe at a time (Destroy() the first before using the next)", *notes)
        else:
            self.check("ASC211", op, None)
        if pi in s.busy:
            return s
        s = s.copy()
        s.busy = s.busy | {pi}
        return s

    def _alloc(self, op: asc.AllocTensorOp, s: State) -> State:
        qi = self.idx(op.queue)
        q = s.queues.get(qi)
        if q is None:
            return s
        problem = None
        notes: list[tuple[Operation, str]] = []
        if q.inited is True and q.nbuf is not None and q.count is not None and q.count >= q.nbuf:
            qname = self.name(op.queue)
            problem = (f"AllocTensor on {qname} blocks forever: all {q.nbuf} of its buffer"
                       f"{'s are' if q.nbuf != 1 else ' is'} taken and none is freed before")
            held = {tok[2] for tok in s.tokens.values() if tok[0] == qi and tok[1] in (OCCUPIED, ENQUE, DEQUE)}
            # in source order (the token names its AllocTensor by id(), which differs from run to run)
            takers = sorted((self._op_index[h] for h in held if h in self._op_index), key=_line_of)
            notes = [(taker, "buffer taken here") for taker in takers[:2]]
        elif q.inited is False:
            # (reported only when no path reaching the AllocTensor ran InitBuffer: a path that skipped it
            # may be one the analysis cannot rule out, `if (hasBias) InitBuffer(...)` ... `if (hasBias)`)
            problem = (f"AllocTensor on {self.name(op.queue)} blocks forever: no InitBuffer gave the queue any "
                       "buffers on this path")
        self.check("ASC206", op, problem, *notes)
        held = self._held_slots(s, qi) if q.nbuf and q.cursor is not None else None
        pick = queue_reuse.next_slot(q.nbuf, q.cursor, held) if held is not None and q.nbuf and \
            q.cursor is not None else None
        s = s.copy()
        t = s.next_tok
        s.next_tok += 1
        s.tokens[t] = (qi, OCCUPIED, id(op), id(op))
        s.vals[self.idx(op.result)] = t
        cursor = None if pick is None or not q.nbuf else (pick + 1) % q.nbuf
        s.queues[qi] = q.replace(count=None if q.count is None else q.count + 1, cursor=cursor)
        if pick is not None:
            s.slots[t] = pick
        # a freed buffer this AllocTensor may have taken is no longer intact
        s.intact = frozenset(f for f in s.intact
                             if s.tokens.get(f, (None,))[0] != qi or (pick is not None and s.slots.get(f) not in
                                                                      (None, pick)))
        return s

    def _free(self, op: asc.FreeTensorOp, s: State) -> State:
        qi = self.idx(op.queue)
        q = s.queues.get(qi)
        qname = self.name(op.queue)
        root = _root(op.tensor).owner
        if isinstance(root, asc.TBufGetOp | asc.LocalAllocOp):
            src = "a TBuf" if isinstance(root, asc.TBufGetOp) else "LocalMemAllocator"
            self.check("ASC205", op, f"FreeTensor on {qname} of a tensor from {src}; only tensors taken from "
                                     f"{qname} can be freed")
            return s
        t = self.token_of(s, op.tensor)
        problem = None
        notes: list[tuple[Operation, str]] = []
        if t is not None:
            tq, st, _, last = s.tokens[t]
            where = self._op_index.get(last)
            if st == FREE:
                problem = f"FreeTensor on {qname} frees a tensor that is already free"
                if where is not None:
                    notes.append((where, "first freed here"))
            elif tq != qi and st != UNKNOWN:
                problem = (f"FreeTensor on {qname} of a tensor taken from {self._names.get(tq, 'another queue')}; "
                           f"free it on the queue it came from")
        elif q is not None and q.inited is True and q.count == 0:
            problem = f"FreeTensor on {qname} while none of its buffers is taken"
        self.check("ASC205", op, problem, *notes)
        if q is None:
            return s
        s = s.copy()
        if t is not None and s.tokens[t][0] == qi:
            tq, st, site, _ = s.tokens[t]
            s.tokens[t] = (tq, FREE, site, id(op))
            if st != FREE:
                s.intact = s.intact | {t}
            was_live = st in (OCCUPIED, ENQUE, DEQUE)
            count = None if q.count is None or st == UNKNOWN else (q.count - 1 if was_live else q.count)
            s.queues[qi] = q.replace(count=count)
        elif t is not None:
            s.queues[qi] = q.replace(count=None, fifo=None)
        else:
            count = None if q.count is None or q.count == 0 else q.count - 1
            s.queues[qi] = q.replace(count=count)
        return s

    def _enque(self, op: asc.EnQueOp, s: State) -> State:
        qi = self.idx(op.queue)
        q = s.queues.get(qi)
        s = self._use(op, "EnQue", [op.tensor], s)
        if q is None:
            return s
        qtype = op.queue.type
        depth = qtype.depth.data if isinstance(qtype, asc.TQueType) else 0
        problem = None
        if q.inited is True and q.fifo is not None and depth >= 1 and len(q.fifo) >= depth:
            qname = self.name(op.queue)
            problem = (f"EnQue on {qname} with {len(q.fifo)} tensor{'s' if len(q.fifo) != 1 else ''} already "
                       f"waiting; its depth is {depth} (DeQue before enqueuing again, or raise the TQue depth)")
        if q.inited is not False:
            self.check("ASC203", op, problem)
        t = self.token_of(s, op.tensor)
        s = s.copy()
        if t is not None and s.tokens[t][0] == qi:
            tq, st, site, _ = s.tokens[t]
            s.tokens[t] = (tq, ENQUE if st != UNKNOWN else UNKNOWN, site, id(op))
            s.queues[qi] = q.replace(fifo=None if q.fifo is None else (*q.fifo, t))
        elif t is not None:
            s.queues[qi] = q.replace(count=None, fifo=None)
        else:
            s.queues[qi] = q.replace(fifo=None if q.fifo is None else (*q.fifo, -1))
        return s

    def _deque(self, op: asc.DeQueOp, s: State) -> State:
        qi = self.idx(op.queue)
        q = s.queues.get(qi)
        if q is None:
            return s
        problem = None
        if q.inited is not None and q.fifo is not None and not q.fifo:
            problem = f"DeQue on {self.name(op.queue)} finds no tensor: nothing was enqueued on this path"
            if q.inited is False:
                problem += ", and no InitBuffer gave the queue buffers"
        self.check("ASC204", op, problem)
        s = s.copy()
        if q.fifo:
            head, rest = q.fifo[0], q.fifo[1:]
            s.queues[qi] = q.replace(fifo=rest)
            if head in s.tokens:
                tq, st, site, _ = s.tokens[head]
                s.tokens[head] = (tq, DEQUE if st == ENQUE else UNKNOWN, site, id(op))
                s.vals[self.idx(op.result)] = head
                return s
        elif q.fifo is not None and problem is None:
            s.queues[qi] = q.replace(fifo=None)
        elif q.fifo is None:
            # which tensor came out is not known: any of the queue's enqueued tensors may be the one
            s.tokens = {t: (tok if tok[0] != qi or tok[1] != ENQUE else (qi, UNKNOWN, tok[2], tok[3]))
                        for t, tok in s.tokens.items()}
        # (a DeQue known to find nothing leaves the FIFO known empty, so the same DeQue in the next loop
        # iteration is judged the same way instead of against a forgotten FIFO)
        s.vals.pop(self.idx(op.result), None)
        return s

    def _init_buffer(self, op: asc.InitBufferOp, s: State) -> State:
        s = self._pipe_use(op, op.pipe, s)
        owner = op.buffer.owner
        if not isinstance(owner, asc.TQueOp | asc.TBufOp):
            return s
        is_queue = isinstance(owner, asc.TQueOp)
        btype = op.buffer.type
        position = btype.position.data if isinstance(btype, asc.TQueType | asc.TBufType) else "?"
        bi = self.idx(op.buffer)
        num_c = self.int_of(op.num, s) if op.num is not None else 1
        len_c = self.int_of(op.length, s)
        num = num_c if isinstance(num_c, int) and num_c >= 0 else None
        length = len_c if isinstance(len_c, int) and len_c >= 0 else None
        if not is_queue:
            num = 1
        init = Init(op, self.pipe_idx(op.pipe), bi, owner.var_name.data, is_queue, position, num, length)
        # InitBuffer twice on one path
        q = s.queues.get(bi)
        again = (q is not None and q.inited is True) if is_queue else bi in s.tbufs
        previous = next((i.op for i in reversed(s.inits) if i.buffer == bi), None)
        tail = " and the queue starts over" if is_queue else ""
        self.check("ASC212", op, f"InitBuffer on {init.name} a second time; the first buffers stay carved out of "
                                 f"{_memory_name(position, self.chip)}{tail}" if again else None,
                   *([(previous, "first InitBuffer here")] if again and previous is not None else []))
        s = s.copy()
        s.inits = (*s.inits, init)
        if is_queue:
            s.queues[bi] = QueueState(True, num, 0, (), init.pipe, 0)
            s.tokens = {t: tok for t, tok in s.tokens.items() if tok[0] != bi}
        else:
            s.tbufs = s.tbufs | {bi}
        self._limits(op, init, s)
        return s

    def _limits(self, op: Operation, init: Init, s: State) -> None:
        chip = self.chip
        over = set(s.over)
        # buffers per TPosition (TQue buffers hold hardware event ids); on a chip whose vector-core queue
        # buffers take ids from one pool instead (3510), UB queues count against that pool together
        problem = None
        if init.is_queue:
            queues = [i for i in s.inits if i.is_queue]
            pool = chip.vector_buffer_ids
            group: object
            if pool is not None and memory_of(init.position, chip) == "UB":
                group, limit = "vector ids", pool
                same = [i for i in queues if memory_of(i.position, chip) == "UB"]
                where = f"on the vector core; the {chip.name} gives each a buffer id at InitBuffer and has {pool}"
            else:
                group, limit = ("pos", init.position), chip.max_buffers_per_position
                same = [i for i in queues if i.position == init.position]
                where = f"in {init.position}; the {chip.name} allows {limit} per TPosition"
            total = sum(i.num or 0 for i in same)
            if group not in over and total > limit:
                problem = f"{total} TQue buffers {where}"
                over.add(group)
                notes = _largest_notes(same, key=lambda i: i.num or 0, what=lambda i: f"{i.name}: {i.num} buffers")
                self.check("ASC208", op, problem, *notes)
        if problem is None:
            self.check("ASC208", op, None)
        # buffers in total
        problem = None
        if "total" not in over:
            total = sum(i.count or 0 for i in s.inits)
            if total > chip.max_buffers_total:
                problem = f"{total} buffers over all InitBuffer calls; at most {chip.max_buffers_total} are allowed"
                over.add("total")
        self.check("ASC209", op, problem)
        # capacity of the memory the position lives in
        problem = None
        memory = memory_of(init.position, chip)
        size = memory_size(memory, chip) if memory is not None else None
        notes: list[tuple[Operation, str]] = []
        big = None
        if memory is not None and size is not None and (init.bytes or 0) > size:
            what = f"{init.num} x {round32(init.length or 0)} = {init.bytes}" if init.is_queue and init.num != 1 \
                else f"{init.bytes}"
            big = f"InitBuffer of {init.name} asks for {what} bytes; the {chip.name} {memory} holds {size}"
        self.check("ASC302", op, big)
        if memory is not None and size is not None and ("mem", memory) not in over:
            same = [i for i in s.inits if memory_of(i.position, chip) == memory]
            single = any((i.bytes or 0) > size for i in same)
            total = sum(i.bytes or 0 for i in same)
            if total > size and not single:
                unknown = any(i.bytes is None for i in same)
                problem = (f"{memory} buffers need {'at least ' if unknown else ''}{total} bytes; the {chip.name} "
                           f"{memory} holds {size}")
                over.add(("mem", memory))
                notes = _largest_notes([i for i in same if i.bytes], key=lambda i: i.bytes or 0,
                                       what=lambda i: f"{i.name}: {_describe_bytes(i)}")
        self.check("ASC301", op, problem, *notes)
        s.over = frozenset(over)

    def _local_alloc(self, op: asc.LocalAllocOp, s: State) -> State:
        atype = op.allocator.type
        hardware = atype.type_name.data.partition("<")[2].rstrip(">") if isinstance(atype, asc.ObjectType) else ""
        memory = {"UB": "UB", "L1": "L1", "L0A": "L0A", "L0B": "L0B", "L0C": "L0C"}.get(hardware.upper())
        count = self.int_of(op.count, s)
        rtype = op.result.type
        elem = scalar_from_element(rtype.element_type) if isinstance(rtype, asc.LocalTensorType) else None
        nbytes = count * elem.size if isinstance(count, int) and elem is not None else None
        if memory is None:
            return s
        ai = self.idx(op.allocator)
        block = LocalBlock(op, ai, memory, nbytes)
        s = s.copy()
        s.blocks = (*s.blocks, block)
        size = memory_size(memory, self.chip)
        problem = None
        notes: list[tuple[Operation, str]] = []
        if size is not None and ("alloc", ai) not in s.over:
            mine = [b for b in s.blocks if b.allocator == ai]
            total = sum(round32(b.bytes) for b in mine if b.bytes is not None)
            if total > size:
                unknown = any(b.bytes is None for b in mine)
                name = self._names.get(ai, "LocalMemAllocator")
                problem = (f"{name} hands out {'at least ' if unknown else ''}{total} bytes of {memory}; the "
                           f"{self.chip.name} {memory} holds {size}")
                s.over = s.over | {("alloc", ai)}
                biggest = sorted((b for b in mine if b.bytes), key=lambda b: -(b.bytes or 0))[:2]
                notes = [(b.op, f"{b.bytes} bytes here") for b in biggest if b.op is not op]
        self.check("ASC303", op, problem, *notes)
        return s


def _havoc_counts(s: State) -> State:
    """Forgets buffer counts, FIFOs and tensor states, which may still change from one iteration to the next.

    A FIFO that is empty in the joined state stays empty: every path agrees nothing waits in it at the loop
    head (a DeQue there with no EnQue in the body finds nothing in any iteration)."""
    s = s.copy()
    for qi, q in s.queues.items():
        s.queues[qi] = q.replace(count=None, fifo=() if q.fifo == () else None, cursor=None)
    s.tokens = {t: (tok[0], UNKNOWN, tok[2], tok[3]) for t, tok in s.tokens.items()}
    return s


def _largest_notes(items: Sequence[Init], key: Callable[[Init], int],
                   what: Callable[[Init], str]) -> list[tuple[Operation, str]]:
    biggest = sorted(items, key=lambda i: -key(i))[:3]
    return [(i.op, str(what(i))) for i in biggest]


def _describe_bytes(i: Init) -> str:
    if i.is_queue and i.num != 1:
        return f"{i.num} x {round32(i.length or 0)} bytes"
    return f"{i.bytes} bytes"


# vector APIs: they run on the V pipe, which produces what a VECOUT queue holds
_VECTOR_FAMILIES = frozenset({"vec_binary", "vec_unary", "vec_scalar", "cast", "reduce", "compare", "select",
                              "brcb", "gather", "transpose"})


def _producer_reads(op: Operation, tensor: SSAValue) -> bool:
    """Whether `op` only reads `tensor`, a VECOUT tensor already enqueued, on the vector pipe that wrote it
    (ops-nn's add_rms_norm_cast: `outQueueY.EnQue(y); Cast(yFp32, y, ...)`). The EnQue orders the copy-out
    after the writes before it; a later read on the same pipe races with nothing, as the copy-out reads too.
    A write there, or a read on another pipe (a DataCopy out without DeQue, a GetValue), stays ASC202."""
    if not isinstance(op, asc.ApiCallOp) or op.FAMILY not in _VECTOR_FAMILIES:
        return False
    if not isinstance(tensor.type, asc.LocalTensorType) or tensor.type.position.data != "VECOUT":
        return False
    found = overload_of(op.api.data, op.overload.data, op.FAMILY)
    if found is None:
        return False
    overload, has_receiver = found
    roles = [p.name for p in overload.params]
    bound = [roles[i - int(has_receiver)] if 0 <= i - int(has_receiver) < len(roles) else None
             for i in range(len(op.args))]
    uses = [bound[i] for i, a in enumerate(op.args) if a is tensor]
    return bool(uses) and all(name is not None and name.startswith("src") for name in uses)


def memory_of(position: str, chip: Chip) -> str | None:
    if position == asc.UNKNOWN_POSITION:
        return None
    try:
        return tposition_memory(position, chip.npu_arch)
    except ValueError:
        return None


def _memory_name(position: str, chip: Chip) -> str:
    return memory_of(position, chip) or "local memory"


def memory_size(memory: str, chip: Chip) -> int | None:
    if memory == "GM":
        return None
    try:
        return chip.memory_size(memory)
    except (ValueError, KeyError):
        return None


def _root(v: SSAValue) -> SSAValue:
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


def int_width(t: object) -> int | None:
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, IndexType):
        return 64
    return None


def signed_value(value: int, width: int) -> int:
    return value - (1 << width) if width > 1 and value >= 1 << (width - 1) else value


def compare_ints(predicate: int, a: int, b: int, width: int) -> int | None:
    sa, sb = signed_value(a, width), signed_value(b, width)
    table = {0: a == b, 1: a != b, 2: sa < sb, 3: sa <= sb, 4: sa > sb, 5: sa >= sb,
             6: a < b, 7: a <= b, 8: a > b, 9: a >= b}  # fmt: skip
    result = table.get(predicate)
    return None if result is None else int(result)


def _div(a: int, b: int, width: int, signed: bool, rem: bool = False) -> int | None:
    if b == 0:
        return None
    if signed:
        a, b = signed_value(a, width), signed_value(b, width)
        q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
        return a - q * b if rem else q
    return a % b if rem else a // b


BINARY_FOLDS: dict[type[Operation], Callable[[int, int, int], int | None]] = {
    arith.AddiOp: lambda a, b, w: a + b,
    arith.SubiOp: lambda a, b, w: a - b,
    arith.MuliOp: lambda a, b, w: a * b,
    arith.DivUIOp: lambda a, b, w: _div(a, b, w, False),
    arith.DivSIOp: lambda a, b, w: _div(a, b, w, True),
    arith.RemUIOp: lambda a, b, w: _div(a, b, w, False, rem=True),
    arith.RemSIOp: lambda a, b, w: _div(a, b, w, True, rem=True),
    arith.CeilDivUIOp: lambda a, b, w: None if b == 0 else -(-a // b),
    arith.ShLIOp: lambda a, b, w: a << b if b < w else None,
    arith.ShRUIOp: lambda a, b, w: a >> b if b < w else None,
    arith.AndIOp: lambda a, b, w: a & b,
    arith.OrIOp: lambda a, b, w: a | b,
    arith.XOrIOp: lambda a, b, w: a ^ b,
    arith.MinUIOp: lambda a, b, w: min(a, b),
    arith.MaxUIOp: lambda a, b, w: max(a, b),
    arith.MinSIOp: lambda a, b, w: a if signed_value(a, w) <= signed_value(b, w) else b,
    arith.MaxSIOp: lambda a, b, w: a if signed_value(a, w) >= signed_value(b, w) else b,
}


def location_key(op: Operation) -> object:
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return loc.filename.data, loc.line.data, loc.column.data
    return id(op)


def _line_of(op: Operation) -> tuple[int, int]:
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return loc.line.data, loc.column.data
    return 0, 0


_CACHE: list[tuple[ModuleOp, str, Analysis]] = []


def computed_analysis(module: ModuleOp, chip: Chip) -> Analysis | None:
    """The analysis of `module` on `chip` if a rule already asked for it, else None (nothing is computed)."""
    return next((a for m, name, a in _CACHE if m is module and name == chip.name), None)


def analyze(module: ModuleOp, chip: Chip) -> Analysis:
    """The analysis of `module` on `chip`, computed once for all the rules that read it."""
    a = computed_analysis(module, chip)
    if a is not None:
        return a
    a = Analysis(chip).run(module)
    _CACHE.append((module, chip.name, a))
    del _CACHE[:-2]
    return a


# What Analysis._step does per op kind, in the order the kinds are tested (the first that matches); the
# other ops (arithmetic, constants, ...) leave the state as it is. Looked up once per op class: isinstance on
# xDSL op classes goes through ABCMeta, and the walk steps every op of every path.
_STEP_HANDLERS: tuple[tuple[type | tuple[type, ...], Callable[[Analysis, Any, State], State]], ...] = (
    (asc.AllocTensorOp, Analysis._alloc),
    (asc.FreeTensorOp, Analysis._free),
    (asc.EnQueOp, Analysis._enque),
    (asc.DeQueOp, Analysis._deque),
    (asc.InitBufferOp, Analysis._init_buffer),
    (asc.TPipeOp, Analysis._tpipe),
    (asc.TQueOp, Analysis._tque),
    (asc.LocalAllocOp, Analysis._local_alloc),
    (memref.LoadOp, Analysis._load),
    (memref.StoreOp, Analysis._store),
    (arith.SelectOp, Analysis._select),
    (asc.ApiCallOp, Analysis._api_call),
    ((asc.GetValueOp, asc.SetValueOp), Analysis._scalar_access),
    (asc.OpaqueCallOp, Analysis._opaque),
)
_UNSEEN = object()
_STEP_HANDLER: dict[type, Any] = {}
