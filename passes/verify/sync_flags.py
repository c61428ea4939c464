"""The SetFlag/WaitFlag interpreter of the synchronisation rules: each kernel body run over its scf regions,
the state mapping each (HardEvent, event id) to the values its hardware flag may hold (counted per event
where the id is not a constant); trip counts of constant loops; one analysis per kernel, remembered.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from xdsl.dialects import arith, memref, scf
from xdsl.ir import Block, Operation, SSAValue

from ascendir.dialects import ascendc as asc
from ascendir.lower.function import FLAGS_NOT_LOWERED
from passes.verify.ir import is_kind, run_table
from passes.verify.op_index import module_index
from passes.verify.sync_ir import api_template, has_receiver, kernel_of
from passes.verify.value_fold import fold_bool, fold_int, source_of


Key = tuple[str, int]  # (HardEvent, event id)
ANY_ID = -1  # the id of a counted event's key: its flags are counted, not told apart (FlagInterpreter._counted)
MAX_COUNT = 4
_MAX_UNROLL = 16  # constant-trip loops up to this many iterations are followed iteration by iteration

_KEYS: dict[int, tuple[Operation, tuple[str | None, int | None]]] = run_table()


def flag_key(op: asc.ApiCallOp) -> tuple[str | None, int | None]:
    """(HardEvent, constant id) of a free SetFlag/WaitFlag; either may be None when unknown. Remembered per op:
    folding the id follows cells, and the pairing rules and every loop round of the interpretation ask."""
    hit = _KEYS.get(id(op))
    if hit is not None and hit[0] is op:
        return hit[1]
    event = api_template(op)
    ident = fold_int(op.args[0]) if op.args else None
    _KEYS[id(op)] = (op, (event, ident))
    return event, ident


def _varies_in(cond: SSAValue, loops: list[Operation]) -> bool:
    """Whether a condition may change between iterations of one of `loops`: it depends on an induction or
    loop-carried value, on a cell some op inside the loop stores to, or on anything not followed here (a
    call result, a value read from a tensor)."""
    seen: set[SSAValue] = set()
    todo = [cond]
    while todo:
        value = todo.pop()
        if value in seen:
            continue
        seen.add(value)
        if len(seen) > 64:
            return True
        owner = value.owner
        if not isinstance(owner, Operation):  # a block argument: an induction variable or the kernel's
            parent = owner.parent_op()
            if parent is not None and any(parent is loop or loop.is_ancestor(parent) for loop in loops):
                return True
            continue
        if isinstance(owner, memref.LoadOp):
            cell = owner.memref
            for use in cell.uses:
                if isinstance(use.operation, memref.StoreOp) and any(
                        loop.is_ancestor(use.operation) for loop in loops):
                    return True
                if not isinstance(use.operation, memref.LoadOp | memref.StoreOp):
                    return True  # the cell escapes into a call
            todo.extend(owner.indices)
            continue
        if owner.dialect_name() != "arith":
            if isinstance(owner, asc.TilingFieldOp | asc.GetTilingDataOp | asc.SystemOp):
                continue  # the tiling data, the core's index and count do not change while the kernel runs
            return True
        todo.extend(owner.operands)
    return False


def _widened_from(value: SSAValue | None) -> SSAValue | None:
    """The value `value` copies or sign/zero-extends (through single-store cells), to compare identities."""
    for _ in range(8):
        value = source_of(value)
        if value is None or not isinstance(value.owner, arith.ExtSIOp | arith.ExtUIOp | arith.IndexCastOp):
            return value
        value = value.owner.operands[0]
    return value


def flag_ops(kernel: asc.KernelOp) -> list[asc.ApiCallOp]:
    module = kernel.parent_op()
    if module is None:
        return []
    return [op for op in module_index(module).of("sync")
            if op.api.data in ("SetFlag", "WaitFlag") and kernel_of(op) is kernel]


Flag = tuple[frozenset[int], frozenset[Operation]]  # values the flag may hold, SetFlags that may have set it
State = dict[Key, Flag]
_ZERO = frozenset({0})
FLAG_SET = frozenset({1})
_CLEAR: Flag = (_ZERO, frozenset())


def _join(a: State, b: State) -> State:
    out: State = {}
    for k in a.keys() | b.keys():
        va, sa = a.get(k, _CLEAR)
        vb, sb = b.get(k, _CLEAR)
        out[k] = (va | vb, sa | sb)
    return out


def trip_count(loop: Operation) -> int | None:
    """The constant number of iterations of an scf.for, or of an scf.while counting a local up to a constant."""
    if isinstance(loop, scf.ForOp):
        lb, ub, step = fold_int(loop.lb), fold_int(loop.ub), fold_int(loop.step)
        if lb is None or ub is None or not step or step <= 0:
            return None
        return max(0, -(-(ub - lb) // step))
    if not isinstance(loop, scf.WhileOp):
        return None
    before = loop.before_region.blocks[0] if loop.before_region.blocks else None
    after = loop.after_region.blocks[0] if loop.after_region.blocks else None
    if before is None or after is None:
        return None
    cond = before.last_op
    if not isinstance(cond, scf.ConditionOp):
        return None
    cmp = cond.condition.owner
    if not isinstance(cmp, arith.CmpiOp):
        return None
    load = cmp.lhs.owner
    bound = fold_int(cmp.rhs)
    if not isinstance(load, memref.LoadOp) or bound is None:
        return None
    cell = load.memref
    init = _value_before(loop, cell)
    step = _single_increment(after, cell)
    if init is None or step is None or step <= 0:
        return None
    predicate = cmp.predicate.value.data  # 2 slt, 3 sle, 6 ult, 7 ule, 1 ne
    if predicate in (3, 7):
        bound += 1
    elif predicate == 1:
        if (bound - init) % step:
            return None
    elif predicate not in (2, 6):
        return None
    return max(0, -(-(bound - init) // step))


def _value_before(loop: Operation, cell: SSAValue) -> int | None:
    op = loop.prev_op
    while op is not None:
        if isinstance(op, memref.StoreOp) and op.memref is cell:
            return fold_int(op.value)
        if op.regions and any(isinstance(o, memref.StoreOp) and o.memref is cell for o in op.walk()):
            return None
        op = op.prev_op
    return None


def _single_increment(body: Block, cell: SSAValue) -> int | None:
    stores = [u.operation for u in cell.uses if isinstance(u.operation, memref.StoreOp)]
    inside = [s for s in stores if _is_inside(s, body)]
    if len(inside) != 1 or inside[0].parent_block() is not body:
        return None
    value = inside[0].value.owner
    if not isinstance(value, arith.AddiOp):
        return None
    lhs = value.lhs.owner
    if not isinstance(lhs, memref.LoadOp) or lhs.memref is not cell:
        return None
    return fold_int(value.rhs)


def _is_inside(op: Operation, block: Block) -> bool:
    current: Operation | None = op
    while current is not None:
        if current.parent_block() is block:
            return True
        current = current.parent_op()
    return False


@dataclass
class FlagFinding:
    code: str
    op: Operation
    key: Key
    other: frozenset[Operation] = frozenset()


@dataclass
class FlagInterpreter:
    """Follows the (event, id) flags through one kernel body."""

    skip_events: set[str]
    interesting: set[Operation]  # ops with a SetFlag/WaitFlag nested inside
    findings: dict[tuple[str, Operation], FlagFinding] = field(default_factory=dict)
    report: bool = True
    known: dict[SSAValue, int] = field(default_factory=dict)  # induction variables of the iteration being run
    first_of: dict[SSAValue, SSAValue] = field(default_factory=dict)  # ... in a first iteration: their lower bound
    loops: list[Operation] = field(default_factory=list)  # loops whose body is being run around the current op
    # what a loop left, by everything its run depends on: a loop nested in unrolled or fixpoint-iterated loops
    # is met again and again with the same entry (ops-transformer sparse_flash_attention ran 32 million ops)
    _loop_runs: dict[tuple[object, ...], State] = field(default_factory=dict)
    _block_ops: dict[Block, list[Operation]] = field(default_factory=dict)  # per block, the ops run_op follows
    _flags: dict[Operation, tuple[bool, tuple[str | None, int | None]] | None] = field(default_factory=dict)

    def run_block(self, block: Block, state: State) -> State:
        ops = self._block_ops.get(block)
        if ops is None:  # the ops that can change a flag: the rest of a block (most of it) is passed over once
            ops = self._block_ops[block] = [op for op in block.ops if self._may_flag(op)]
        for op in ops:
            state = self.run_op(op, state)
        return state

    def _may_flag(self, op: Operation) -> bool:
        return self._flag_of(op) is not None or bool(op.regions) and op in self.interesting

    def _flag_of(self, op: Operation) -> tuple[bool, tuple[str | None, int | None]] | None:
        """(whether it sets, its (event, id)) for a free SetFlag/WaitFlag, else None; once per op."""
        if op in self._flags:
            return self._flags[op]
        flag = None
        if is_kind(op, asc.SyncOp) and op.api.data in ("SetFlag", "WaitFlag") and not has_receiver(op):
            flag = (op.api.data == "SetFlag", flag_key(op))
        self._flags[op] = flag
        return flag

    def run_op(self, op: Operation, state: State) -> State:
        flag = self._flag_of(op)
        if flag is not None:
            sets, (event, ident) = flag
            if event is None:
                return state
            if ident is None or event in self.skip_events:
                return self._counted(op, event, state)
            key = (event, ident)
            values, setters = state.get(key, _CLEAR)
            state = dict(state)
            if sets:
                if values == FLAG_SET:
                    self._find("ASC703", op, key, setters)
                state[key] = (FLAG_SET, frozenset({op}))
            else:
                if values == _ZERO:
                    self._find("ASC701", op, key)
                state[key] = _CLEAR
            return state
        if not op.regions or op not in self.interesting:
            return state
        if isinstance(op, scf.IfOp):
            taken = self._fold_condition(op.cond)
            if taken is True:
                return self.run_region(op.true_region, state)
            if taken is False:
                return self.run_region(op.false_region, state) if op.false_region.blocks else state
            # In a loop, a guard that changes from one iteration to the next often counts iterations
            # (`if (pingPong_ >= 2) WaitFlag(...)`, true only once flags were set): what its branches do is
            # followed, but a wait or set under it is not judged, as it may not run in the iteration looked at.
            reporting = self.report
            self.report = reporting and not (self.loops and _varies_in(op.cond, self.loops))
            try:
                then = self.run_region(op.true_region, state)
                other = self.run_region(op.false_region, state) if op.false_region.blocks else state
            finally:
                self.report = reporting
            return _join(then, other)
        if isinstance(op, scf.ForOp | scf.WhileOp):
            return self.run_loop(op, state)
        if op.regions:  # an op we do not model: each region may run or not, in order
            after = state
            for region in op.regions:
                after = _join(after, self.run_region(region, after))
            return after
        return state

    def _counted(self, op: asc.ApiCallOp, event: str, state: State) -> State:
        """A flag of an event some of whose ids are not constants: count the flags set, whatever their id.

        Each SetFlag that is not a double set raises one flag and each WaitFlag that does not hang lowers one,
        so the count is exact on every path that neither hangs nor double-sets; it is kept as the set of
        values it may have, with `_MAX_COUNT` standing for that many or more.
        """
        key = (event, ANY_ID)
        counts, setters = state.get(key, _CLEAR)
        state = dict(state)
        if op.api.data == "SetFlag":
            state[key] = (frozenset(min(c + 1, MAX_COUNT) for c in counts), setters | {op})
            return state
        if counts == _ZERO:
            self._find("ASC701", op, key)
            state[key] = _CLEAR
            return state
        # paths on which no flag is set hang here; on the others one flag is consumed
        left = frozenset(c - 1 for c in counts if c > 0) | (frozenset({MAX_COUNT}) & counts)
        state[key] = (left, setters if left != _ZERO else frozenset())
        return state

    def run_region(self, region: object, state: State) -> State:
        blocks = getattr(region, "blocks", ())
        return self.run_block(blocks[0], state) if blocks else state

    def body(self, loop: Operation, state: State) -> State:
        self.loops.append(loop)
        try:
            for region in loop.regions:
                state = self.run_region(region, state)
        finally:
            self.loops.pop()
        return state

    def quiet_body(self, loop: Operation, state: State) -> State:
        reporting, self.report = self.report, False
        try:
            return self.body(loop, state)
        finally:
            self.report = reporting

    def run_loop(self, loop: Operation, entry: State) -> State:
        # a run depends on the entry state, the known induction values and bounds that fold its conditions, the
        # loops around it (whether a guard varies) and whether findings are reported; findings of a reported run
        # are recorded already, so a repeat adds none
        key = (loop, self.report, frozenset(entry.items()), frozenset(self.known.items()),
               frozenset(self.first_of.items()), tuple(self.loops))
        done = self._loop_runs.get(key)
        if done is None:
            done = self._loop_runs[key] = self._run_loop(loop, entry)
        return done

    def _run_loop(self, loop: Operation, entry: State) -> State:
        trips = trip_count(loop)
        if trips == 0:
            return entry
        if trips is not None and trips <= _MAX_UNROLL:
            state = entry
            for k in range(trips):
                with self._iteration(loop, k):
                    state = self.body(loop, state)
            return state
        head = entry
        for _ in range(64):
            nxt = _join(head, self.quiet_body(loop, head))
            if nxt == head:
                break
            head = nxt
        with self._iteration(loop, 0):
            self.body(loop, entry)  # the first iteration runs whenever the body runs
        after = self.body(loop, head)  # what holds in every iteration
        return after if trips is not None else _join(entry, after)

    @contextmanager
    def _iteration(self, loop: Operation, k: int) -> Iterator[None]:
        """While iteration `k` of an scf.for runs, its induction variable is known (lb + k * step), so that
        `if (i > 0) WaitFlag(...)` is skipped in the first iteration, as on the hardware."""
        iv = loop.body.block.args[0] if isinstance(loop, scf.ForOp) and loop.body.block.args else None
        lb = fold_int(loop.lb, known=self.known) if iv is not None else None
        step = fold_int(loop.step, known=self.known) if lb is not None and k else 0
        if iv is not None and lb is None and k == 0:
            # `for (flat = start; ...) { if (flat != start) WaitFlag(...); }`: equal to its bound, not a number
            self.first_of[iv] = loop.lb  # type: ignore[union-attr]
            try:
                yield
            finally:
                self.first_of.pop(iv, None)
            return
        if iv is None or lb is None or step is None:
            yield
            return
        self.known[iv] = lb + k * step
        try:
            yield
        finally:
            self.known.pop(iv, None)

    def _fold_condition(self, cond: SSAValue) -> bool | None:
        """The truth of an scf.if condition in the iteration being run, where it is decided."""
        taken = fold_bool(cond, known=self.known)
        if taken is not None or not self.first_of:
            return taken
        source = source_of(cond)
        owner = source.owner if source is not None else None
        if not isinstance(owner, arith.CmpiOp):
            return None
        lhs, rhs = _widened_from(owner.lhs), _widened_from(owner.rhs)
        for iv, bound in self.first_of.items():
            start = _widened_from(bound)
            if (lhs is iv and rhs is start) or (rhs is iv and lhs is start):
                # the two sides are equal: eq, le, ge (signed or not) hold, ne, lt, gt do not
                return owner.predicate.value.data in (0, 3, 5, 7, 9)
        return None

    def _find(self, code: str, op: Operation, key: Key, other: frozenset[Operation] = frozenset()) -> None:
        if self.report and (code, op) not in self.findings:
            self.findings[(code, op)] = FlagFinding(code, op, key, other)


def _analyse(kernel: asc.KernelOp) -> tuple[FlagInterpreter, State, set[str]] | None:
    """Runs the flag interpretation over one kernel; None when a portable TQueSync hides which flags it uses."""
    skip: set[str] = set()
    flags = flag_ops(kernel)
    if not flags:
        return FlagInterpreter(skip, set()), {}, skip
    if any(op.callee.data == FLAGS_NOT_LOWERED and kernel_of(op) is kernel
           for op in module_index(kernel.parent_op()).opaque_calls):  # type: ignore[arg-type]
        return None  # a statement setting or waiting for flags was not lowered: which flags are set is unknown
    for op in flags:
        if has_receiver(op):
            return None
        event, ident = flag_key(op)
        if event is None:
            return None
        if ident is None:
            skip.add(event)
    module = kernel.parent_op()
    assert module is not None
    interp = FlagInterpreter(skip, module_index(module).flagged_ancestors)
    block = kernel.body.blocks[0] if kernel.body.blocks else None
    if block is None:
        return None
    final = interp.run_block(block, {})
    return interp, final, skip


_CACHE: dict[int, tuple[object, tuple[FlagInterpreter, State, set[str]] | None]] = {}


def kernel_analysis(kernel: asc.KernelOp) -> tuple[FlagInterpreter, State, set[str]] | None:
    cached = _CACHE.get(id(kernel))
    if cached is not None and cached[0] is kernel:
        return cached[1]
    result = _analyse(kernel)
    _CACHE.clear()  # one kernel at a time: the three pairing rules share one run
    _CACHE[id(kernel)] = (kernel, result)
    return result
