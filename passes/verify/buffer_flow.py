"""Control flow in the buffer state machine: regions and blocks, scf.if with both branches kept, loops run
until no new state appears (widened after a few rounds, exits remembered per entry state), and the checks
for buffers a loop round leaks.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import memref, scf
from xdsl.ir import Block, Operation, Region

from passes.verify.buffer_ints import int_width, signed_value
from passes.verify.buffer_ir import line_of
from passes.verify.buffer_states import (
    DEQUE,
    ENQUE,
    FREE,
    MAX_ROUNDS,
    OCCUPIED,
    UNKNOWN,
    UNROLL,
    OverBudget,
    State,
    join,
    normalize_keyed,
)


class ControlFlow:
    """Control flow: methods of Analysis (buffer_state.py), which inherits them."""

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
                    raise OverBudget
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
                s.reads = {}  # ~TPipe runs Destroy, which ends with PipeBarrier<PIPE_ALL> (see _destroy)
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
        return sorted(ops, key=line_of)

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


def _havoc_counts(s: State) -> State:
    """Forgets buffer counts, FIFOs and tensor states, which may still change from one iteration to the next.

    A FIFO that is empty in the joined state stays empty: every path agrees nothing waits in it at the loop
    head (a DeQue there with no EnQue in the body finds nothing in any iteration)."""
    s = s.copy()
    for qi, q in s.queues.items():
        s.queues[qi] = q.replace(count=None, fifo=() if q.fifo == () else None, cursor=None)
    s.tokens = {t: (tok[0], UNKNOWN, tok[2], tok[3]) for t, tok in s.tokens.items()}
    return s
