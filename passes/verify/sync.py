"""Synchronisation (ASC7xx): SetFlag/WaitFlag pairing, illegal barriers and events, scalar-read hazards.

The pairing rules run an abstract interpretation of each kernel body over the scf regions: the state maps
each (HardEvent, event id) to the set of values its hardware flag may hold (0 or 1) at that point. `scf.if`
joins its branches; loops iterate to a fixpoint (0 or more iterations, or exactly N when the trip count is a
constant). A finding is reported only when it holds in every state that reaches the op: a WaitFlag whose
flag is 0 on every path hangs, a SetFlag whose flag is already 1 on every path is a double set. A loop body
is also checked in its first iteration's state, which runs whenever the body runs at all (a WaitFlag at the
top of a loop with no pre-set before the loop hangs at once, even though later iterations would be fine).

Events whose id is not a compile-time constant (`FetchEventID`, `ping ? EVENT_ID0 : EVENT_ID1`) cannot be
told apart by id: all flags of such a HardEvent are counted instead (how many may be set at a point), which
still shows a WaitFlag with no flag of its event set on any path (ASC701) and flags left set at the end
(ASC702), but not a double set.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Block, Operation, SSAValue

from ascendir.dialects import ascendc as asc
from ascendir.lower.function import FLAGS_NOT_LOWERED
from passes.verify.alignment import (
    ModuleIndex,
    fold_bool,
    fold_int,
    module_index,
    reaching_store,
    source_of,
    tensor_elem_bytes,
)
from passes.verify.ir import is_kind, run_table
from passes.verify.rules import CheckContext, rule

Key = tuple[str, int]  # (HardEvent, event id)
ANY_ID = -1  # the id of a counted event's key: its flags are counted, not told apart (FlagInterpreter._counted)
_MAX_COUNT = 4
_MAX_UNROLL = 16  # constant-trip loops up to this many iterations are followed iteration by iteration


def _template(op: asc.ApiCallOp) -> str | None:
    targs = op.template_args
    if targs is None or not targs.data:
        return None
    first = targs.data[0]
    return first.data if isinstance(first, StringAttr) else None


def _has_receiver(op: asc.ApiCallOp) -> bool:
    return bool(op.args) and isinstance(op.args[0].type, asc.ObjectType)


_KEYS: dict[int, tuple[Operation, tuple[str | None, int | None]]] = run_table()


def _flag_key(op: asc.ApiCallOp) -> tuple[str | None, int | None]:
    """(HardEvent, constant id) of a free SetFlag/WaitFlag; either may be None when unknown. Remembered per op:
    folding the id follows cells, and the pairing rules and every loop round of the interpretation ask."""
    hit = _KEYS.get(id(op))
    if hit is not None and hit[0] is op:
        return hit[1]
    event = _template(op)
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


def _kernel_of(op: Operation) -> Operation | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, asc.KernelOp):
        parent = parent.parent_op()
    return parent


def _flag_ops(kernel: asc.KernelOp) -> list[asc.ApiCallOp]:
    module = kernel.parent_op()
    if module is None:
        return []
    return [op for op in module_index(module).of("sync")
            if op.api.data in ("SetFlag", "WaitFlag") and _kernel_of(op) is kernel]


# ----------------------------------------------------------------------------------------------------
# The flag-state interpretation
# ----------------------------------------------------------------------------------------------------

Flag = tuple[frozenset[int], frozenset[Operation]]  # values the flag may hold, SetFlags that may have set it
State = dict[Key, Flag]
_ZERO = frozenset({0})
_ONE = frozenset({1})
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
        if is_kind(op, asc.SyncOp) and op.api.data in ("SetFlag", "WaitFlag") and not _has_receiver(op):
            flag = (op.api.data == "SetFlag", _flag_key(op))
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
                if values == _ONE:
                    self._find("ASC703", op, key, setters)
                state[key] = (_ONE, frozenset({op}))
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
            state[key] = (frozenset(min(c + 1, _MAX_COUNT) for c in counts), setters | {op})
            return state
        if counts == _ZERO:
            self._find("ASC701", op, key)
            state[key] = _CLEAR
            return state
        # paths on which no flag is set hang here; on the others one flag is consumed
        left = frozenset(c - 1 for c in counts if c > 0) | (frozenset({_MAX_COUNT}) & counts)
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
    flags = _flag_ops(kernel)
    if not flags:
        return FlagInterpreter(skip, set()), {}, skip
    if any(op.callee.data == FLAGS_NOT_LOWERED and _kernel_of(op) is kernel
           for op in module_index(kernel.parent_op()).opaque_calls):  # type: ignore[arg-type]
        return None  # a statement setting or waiting for flags was not lowered: which flags are set is unknown
    for op in flags:
        if _has_receiver(op):
            return None
        event, ident = _flag_key(op)
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


def _analysis(kernel: asc.KernelOp) -> tuple[FlagInterpreter, State, set[str]] | None:
    cached = _CACHE.get(id(kernel))
    if cached is not None and cached[0] is kernel:
        return cached[1]
    result = _analyse(kernel)
    _CACHE.clear()  # one kernel at a time: the three pairing rules share one run
    _CACHE[id(kernel)] = (kernel, result)
    return result


def _kernels(ctx: CheckContext) -> Iterator[asc.KernelOp]:
    for op in ctx.module.body.block.ops:
        if isinstance(op, asc.KernelOp):
            yield op


def _keys_used(kernel: asc.KernelOp, name: str) -> set[Key]:
    out: set[Key] = set()
    for op in _flag_ops(kernel):
        event, ident = _flag_key(op)
        if op.api.data == name and event is not None and ident is not None:
            out.add((event, ident))
    return out


def _counted_events_used(kernel: asc.KernelOp, name: str, skip: set[str]) -> set[str]:
    """The HardEvents of `name` calls (SetFlag or WaitFlag) whose flags are counted, not told apart by id."""
    out: set[str] = set()
    for op in _flag_ops(kernel):
        event, ident = _flag_key(op)
        if op.api.data == name and event is not None and (ident is None or event in skip):
            out.add(event)
    return out


def _flag_text(key: Key) -> str:
    return f"HardEvent::{key[0]}" if key[1] == ANY_ID else f"HardEvent::{key[0]}, event id {key[1]}"


# ----------------------------------------------------------------------------------------------------
# ASC701-ASC703 pairing
# ----------------------------------------------------------------------------------------------------


@rule(
    "ASC701", "waitflag-never-set", "sync",
    summary="A WaitFlag whose (event, id) no SetFlag can have set on any path before it.",
    why="WaitFlag<E>(id) blocks the waiting pipe until flag (E, id) is 1. If no SetFlag of the same event "
        "and id ran before it, the pipe waits forever: the kernel hangs until the runtime's timeout, with "
        "no message pointing at the line. A loop that waits at the top of each iteration needs the flag "
        "pre-set once before the loop (and one last WaitFlag after it to drain the final set).",
    example="for (int i = 0; i < n; ++i) {\n"
            "    WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);   // iteration 0: nothing set it\n"
            "    CopyIn(i); Compute(i); CopyOut(i);\n"
            "    SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);\n"
            "}",
    instead="SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);        // pre-set\n"
            "for (int i = 0; i < n; ++i) {\n"
            "    WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);\n"
            "    CopyIn(i); Compute(i); CopyOut(i);\n"
            "    SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);\n"
            "}\n"
            "WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);       // drain",
)
def waitflag_never_set(ctx: CheckContext) -> None:
    for kernel in _kernels(ctx):
        result = _analysis(kernel)
        if result is None:
            continue
        interp, _final, skip = result
        reported: set[Operation] = set()
        for f in interp.findings.values():
            if f.code == "ASC701" and f.key[1] == ANY_ID:
                reported.add(f.op)
                ctx.report(f.op, f"WaitFlag<{_flag_text(f.key)}> waits while no SetFlag of that event, whatever "
                                 f"its id, has left a flag set on any path here; the pipe blocks forever")
            elif f.code == "ASC701":
                reported.add(f.op)
                ctx.report(f.op, f"WaitFlag<{_flag_text(f.key)}> waits for a flag no SetFlag has set on any path "
                                 f"here; the pipe blocks forever")
        sets = _keys_used(kernel, "SetFlag")
        set_events = {event for event, _ in sets} | _counted_events_used(kernel, "SetFlag", skip)
        for op in _flag_ops(kernel):
            event, ident = _flag_key(op)
            if op.api.data != "WaitFlag" or op in reported or event is None:
                continue
            if (ident is None or event in skip) and event not in set_events:
                ctx.report(op, f"WaitFlag<HardEvent::{event}> has no SetFlag of the same event in the kernel; "
                               f"the pipe blocks forever")
            elif ident is not None and event not in skip and (event, ident) not in sets:
                ctx.report(op, f"WaitFlag<{_flag_text((event, ident))}> has no SetFlag of the same event and id "
                               f"in the kernel; the pipe blocks forever")


@rule(
    "ASC702", "setflag-never-waited", "sync",
    summary="A SetFlag whose (event, id) is still set when the kernel ends, or is never waited for at all.",
    why="Every SetFlag must be consumed by a WaitFlag of the same event and id. A flag left set at the end "
        "of the kernel stays set in hardware: the next kernel on the core sees a stale flag and its first "
        "WaitFlag passes too early (racing on UB). msSanitizer's synccheck reports it as 'Unpaired set_flag "
        "instructions detected'. A loop that pre-sets before the loop must drain with a WaitFlag after it.",
    example="SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);        // pre-set\n"
            "for (int i = 0; i < n; ++i) {\n"
            "    WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);\n"
            "    ...\n"
            "    SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);\n"
            "}                                                // the last set is never waited for",
    instead="...\n"
            "}\n"
            "WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);       // drain the last set",
)
def setflag_never_waited(ctx: CheckContext) -> None:
    for kernel in _kernels(ctx):
        result = _analysis(kernel)
        if result is None:
            continue
        _interp, final, skip = result
        reported: set[Operation] = set()
        for key, (values, setters) in sorted(final.items(), key=lambda kv: kv[0]):
            if key[1] == ANY_ID:
                if 0 not in values and setters:
                    last = max(setters, key=_order_key)
                    reported.add(last)
                    fewest = min(values)
                    more = "at least" if fewest == _MAX_COUNT else "still"
                    ctx.report(last, f"{more} {fewest} flag{'s' if fewest != 1 else ''} of {_flag_text(key)} "
                                     f"{'are' if fewest != 1 else 'is'} set when the kernel ends on every path: "
                                     f"more SetFlag than WaitFlag of this event")
                continue
            if values != _ONE:
                continue
            for op in sorted(setters, key=_order_key):
                reported.add(op)
                ctx.report(op, f"SetFlag<{_flag_text(key)}> is still set when the kernel ends; no WaitFlag "
                               f"consumes it")
        waits = _keys_used(kernel, "WaitFlag")
        wait_events = {event for event, _ in waits} | _counted_events_used(kernel, "WaitFlag", skip)
        for op in _flag_ops(kernel):
            event, ident = _flag_key(op)
            if op.api.data != "SetFlag" or op in reported or event is None:
                continue
            if (ident is None or event in skip) and event not in wait_events:
                ctx.report(op, f"SetFlag<HardEvent::{event}> has no WaitFlag of the same event in the kernel; "
                               f"the flag stays set")
            elif (ident is not None and event not in skip and (event, ident) not in waits):
                ctx.report(op, f"SetFlag<{_flag_text((event, ident))}> has no WaitFlag of the same event and id "
                               f"in the kernel; the flag stays set")


def _order_key(op: Operation) -> tuple[int, int]:
    loc = op.location
    line = getattr(getattr(loc, "line", None), "data", 0)
    col = getattr(getattr(loc, "column", None), "data", 0)
    return (line, col)


@rule(
    "ASC703", "setflag-twice", "sync",
    summary="A SetFlag of an (event, id) that is already set on every path, with no WaitFlag in between.",
    why="A hardware flag is one bit: setting it twice sets it once. The second SetFlag's WaitFlag then finds "
        "the flag already consumed and blocks forever, or the first WaitFlag lets the consumer run before "
        "the second producer's work finished (a race). Use another event id for the second hand-off, or wait "
        "for the first before setting again.",
    example="SetFlag<HardEvent::MTE2_V>(EVENT_ID0);\n"
            "SetFlag<HardEvent::MTE2_V>(EVENT_ID0);   // still set\n"
            "WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);\n"
            "WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);  // hangs",
    instead="SetFlag<HardEvent::MTE2_V>(EVENT_ID0);\n"
            "SetFlag<HardEvent::MTE2_V>(EVENT_ID1);\n"
            "WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);\n"
            "WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);",
)
def setflag_twice(ctx: CheckContext) -> None:
    for kernel in _kernels(ctx):
        result = _analysis(kernel)
        if result is None:
            continue
        interp = result[0]
        for f in interp.findings.values():
            if f.code != "ASC703":
                continue
            notes = [ctx.note_at(o, "set here before") for o in sorted(f.other - {f.op}, key=_order_key)[:1]]
            ctx.report(f.op, f"SetFlag<{_flag_text(f.key)}> while the flag is already set on every path; the "
                             f"first set is lost", *notes)


# ----------------------------------------------------------------------------------------------------
# ASC704-ASC706: barriers and events that are illegal on their own
# ----------------------------------------------------------------------------------------------------


@rule(
    "ASC704", "pipe-barrier-scalar", "sync",
    summary="PipeBarrier<PIPE_S>: a barrier on the scalar pipe.",
    why="The scalar unit issues every instruction in program order itself, so a barrier on PIPE_S means "
        "nothing and is rejected as illegal by the API. To order scalar work against another pipe use a "
        "flag (SetFlag/WaitFlag<HardEvent::V_S> or S_V ...); to stop everything use PipeBarrier<PIPE_ALL>.",
    example="Add(z, x, y, n);\nPipeBarrier<PIPE_S>();\nfloat v = z.GetValue(0);",
    instead="Add(z, x, y, n);\nSetFlag<HardEvent::V_S>(EVENT_ID0);\nWaitFlag<HardEvent::V_S>(EVENT_ID0);\n"
            "float v = z.GetValue(0);",
)
def pipe_barrier_scalar(ctx: CheckContext) -> None:
    for op in module_index(ctx.module).of("sync"):
        if op.api.data == "PipeBarrier" and _template(op) == "PIPE_S":
            ctx.report(op, "PipeBarrier<PIPE_S> is illegal; order scalar work with SetFlag/WaitFlag or use "
                           "PipeBarrier<PIPE_ALL>")


@rule(
    "ASC705", "event-id-out-of-range", "sync",
    summary="SetFlag/WaitFlag with a constant event id the chip does not have.",
    why="Each HardEvent has a small number of hardware flags: ids 0-7 on Atlas A2/A3 and 310P, 0-3 on the "
        "910 training chip. A larger id selects another event's flag or is cut to its low bits, so the "
        "Set and the Wait no longer meet: hangs or races that depend on the chip.",
    example="SetFlag<HardEvent::V_MTE3>(8);",
    instead="SetFlag<HardEvent::V_MTE3>(EVENT_ID7);   // or an id from pipe.AllocEventID / FetchEventID",
)
def event_id_out_of_range(ctx: CheckContext) -> None:
    limit = ctx.chip.event_ids
    for op in module_index(ctx.module).of("sync"):
        if op.api.data not in ("SetFlag", "WaitFlag") or _has_receiver(op):
            continue
        ident = fold_int(op.args[0]) if op.args else None
        if ident is not None and not 0 <= ident < limit:
            ctx.report(op, f"{op.api.data} with event id {ident}; {ctx.chip.name} has event ids 0..{limit - 1}")


@rule(
    "ASC706", "flag-within-one-pipe", "sync",
    summary="SetFlag/WaitFlag with a HardEvent whose producer and consumer are the same pipe (V_V).",
    why="A flag hands work from one pipe to another; within one pipe instructions are ordered by "
        "PipeBarrier<pipe>, not by an event. A same-pipe event either does not order anything the way it "
        "looks (the pipe runs ahead of its own flag) or stalls the pipe on itself.",
    example="Add(t, t, t, n);\nSetFlag<HardEvent::V_V>(EVENT_ID0);\nWaitFlag<HardEvent::V_V>(EVENT_ID0);\nExp(t, t, n);",
    instead="Add(t, t, t, n);\nPipeBarrier<PIPE_V>();\nExp(t, t, n);",
)
def flag_within_one_pipe(ctx: CheckContext) -> None:
    for op in module_index(ctx.module).of("sync"):
        if op.api.data not in ("SetFlag", "WaitFlag") or _has_receiver(op):
            continue
        event = _template(op)
        if event is None or "_" not in event:
            continue
        src, _, dst = event.partition("_")
        if src == dst:
            ctx.report(op, f"{op.api.data}<HardEvent::{event}> syncs pipe {src} with itself; use "
                           f"PipeBarrier<PIPE_{src}>() to order one pipe")


# ----------------------------------------------------------------------------------------------------
# ASC707 scalar read of a vector / MTE2 result without a flag
# ----------------------------------------------------------------------------------------------------

_VECTOR_FAMILIES = frozenset({
    "vec_binary", "vec_scalar", "vec_unary", "duplicate", "cast", "compare", "select", "reduce", "brcb",
    "gather", "transpose", "sort", "high_level",
})  # fmt: skip

_PIPES = frozenset({"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX"})


def _pipes_of(event: str) -> tuple[str, str] | None:
    """(producer, consumer) of a HardEvent name such as MTE3_MTE2; None for a name that is not one (a
    template parameter the lowering could not bind): such a flag is taken as ordering everything."""
    src, _, dst = event.partition("_")
    return (src, dst) if src in _PIPES and dst in _PIPES else None


# What a queue operation does to the pipes [ADK kernel_tquebind_impl.h]: EnQue = SetFlag<forward>,
# DeQue = WaitFlag<forward>, FreeTensor = SetFlag<backward>, AllocTensor = WaitFlag<backward>. A VECOUT
# queue may be a TQueBind<VECIN, VECOUT> whose free hands the buffer from MTE3 back to MTE2: its
# AllocTensor is taken as waiting for either event (the ordering it may give is never missed).
_QUEUE_EVENTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "VECIN": ("MTE2_V", ("V_MTE2",)),
    "VECOUT": ("V_MTE3", ("MTE3_V", "MTE3_MTE2")),
}
_QUEUE_OPS = (asc.EnQueOp, asc.DeQueOp, asc.FreeTensorOp, asc.AllocTensorOp)


@dataclass(frozen=True)
class Write:
    pipe: str  # the pipe that wrote the tensor: V or MTE2
    op: Operation
    seen_by: frozenset[str]  # pipes ordered after the write (through flags, or by consuming it)


@dataclass(frozen=True)
class HazardState:
    pending: dict[SSAValue, Write]  # the last write of each tensor, while not yet known to be seen by S
    carried: dict[str, frozenset[SSAValue]]  # HardEvent -> tensors whose writes a SetFlag of it carries


def _meet(a: HazardState, b: HazardState) -> HazardState:
    """Joins two paths; visibility is over-approximated (a pipe that may see a write counts as seeing it)."""
    pending = {k: Write(w.pipe, w.op, w.seen_by | b.pending[k].seen_by) for k, w in a.pending.items() if k in b.pending
               and b.pending[k].pipe == w.pipe}
    carried = {e: a.carried.get(e, frozenset()) | b.carried.get(e, frozenset()) for e in a.carried.keys() | b.carried.keys()}
    return HazardState(pending, carried)


def _dst(op: asc.ApiCallOp) -> SSAValue | None:
    from passes.verify.ir import arg

    value = arg(op, "dst")
    if value is None or not isinstance(value.type, asc.LocalTensorType):
        return None
    return source_of(value)


def _seen(state: HazardState, keys: object, pipe: str) -> HazardState:
    pending = dict(state.pending)
    for k in keys:  # type: ignore[attr-defined]
        w = pending.get(k)
        if w is not None and pipe not in w.seen_by:
            pending[k] = Write(w.pipe, w.op, w.seen_by | {pipe})
    return HazardState(pending, state.carried)


@dataclass
class HazardInterpreter:
    """Which tensors were written by V / MTE2 with no chain of flags (or consumers) ordering PIPE_S after it."""

    interesting: set[Operation]  # ops with a GetValue, an API call or a sync nested inside
    findings: dict[Operation, Write] = field(default_factory=dict)

    def run_block(self, block: Block, state: HazardState, report: bool) -> HazardState:
        for op in block.ops:
            state = self.run_op(op, state, report)
        return state

    def run_op(self, op: Operation, state: HazardState, report: bool) -> HazardState:
        if isinstance(op, asc.GetValueOp) and isinstance(op.tensor.type, asc.LocalTensorType):
            key = source_of(op.tensor)
            w = state.pending.get(key) if key is not None else None
            if report and w is not None and "S" not in w.seen_by and op not in self.findings:
                self.findings[op] = w
            return state
        if isinstance(op, asc.SyncOp):
            return self.run_sync(op, state)
        if isinstance(op, asc.ApiCallOp):
            return self.run_call(op, state, report)
        if isinstance(op, _QUEUE_OPS):
            return self.run_queue(op, state)
        if not op.regions or op not in self.interesting:
            return self.run_other(op, state)
        if isinstance(op, scf.IfOp):
            then = self.run_region(op.true_region, state, report)
            other = self.run_region(op.false_region, state, report) if op.false_region.blocks else state
            return _meet(then, other)
        if isinstance(op, scf.ForOp | scf.WhileOp):
            return self.run_loop(op, state, report)
        if op.regions:
            after = state
            for region in op.regions:
                after = _meet(after, self.run_region(region, after, report))
            return after
        return state

    def run_sync(self, op: asc.SyncOp, state: HazardState) -> HazardState:
        name = op.api.data
        event = _template(op) or ""
        if name in ("SetFlag", "WaitFlag") and not _has_receiver(op) and _pipes_of(event) is not None:
            return self.signal(event, state) if name == "SetFlag" else self.wait(event, state)
        if name == "PipeBarrier" and event != "PIPE_ALL":
            return state
        if name in ("SetAtomicAdd", "SetAtomicMax", "SetAtomicMin", "SetAtomicNone", "CrossCoreSetFlag"):
            return state
        return HazardState({}, {})  # PIPE_ALL, SyncAll, a portable TQueSync: assume it orders everything

    @staticmethod
    def signal(event: str, state: HazardState) -> HazardState:
        """SetFlag<event>: carries the accesses its source pipe is ordered after."""
        src = event.partition("_")[0]
        carried = dict(state.carried)
        ordered = {k for k, w in state.pending.items() if src in w.seen_by}
        carried[event] = carried.get(event, frozenset()) | ordered
        return HazardState(state.pending, carried)

    @staticmethod
    def wait(event: str, state: HazardState) -> HazardState:
        """WaitFlag<event>: its destination pipe is now ordered after what the flag carries."""
        return _seen(state, state.carried.get(event, frozenset()), event.partition("_")[2])

    def run_loop(self, loop: Operation, state: HazardState, report: bool) -> HazardState:
        """What holds at the loop head on every path (0 or more iterations), and the body checked there."""
        head = state
        for _ in range(32):
            nxt = _meet(head, self.body(loop, head, False))
            if nxt == head:
                break
            head = nxt
        if report:
            self.body(loop, head, True)
        return head

    def run_queue(self, op: Operation, state: HazardState) -> HazardState:
        """A queue operation is the SetFlag / WaitFlag its queue's position stands for (see _QUEUE_EVENTS)."""
        queue = getattr(op, "queue")
        position = queue.type.position.data if isinstance(queue.type, asc.TQueType) else ""
        events = _QUEUE_EVENTS.get(position)
        if events is None:
            return state
        forward, backward = events
        if isinstance(op, asc.EnQueOp):
            return self.signal(forward, state)
        if isinstance(op, asc.DeQueOp):
            return self.wait(forward, state)
        for event in backward:
            state = self.signal(event, state) if isinstance(op, asc.FreeTensorOp) else self.wait(event, state)
        return state

    def run_other(self, op: Operation, state: HazardState) -> HazardState:
        return state

    def run_call(self, op: asc.ApiCallOp, state: HazardState, report: bool) -> HazardState:
        if op.FAMILY in _VECTOR_FAMILIES:
            pipe = "V"
        elif op.FAMILY == "data_copy":
            pipe = "MTE2" if op.overload.data.endswith("gm_to_local") else "MTE3"
        else:
            return state
        dst = _dst(op)
        # an instruction that reads a tensor was (by whatever sync) ordered after its last write
        reads = [source_of(v) for v in op.args if isinstance(v.type, asc.LocalTensorType)]
        state = _seen(state, [k for k in reads if k is not None and k != dst], pipe)
        if dst is not None and pipe != "MTE3" and isinstance(dst.type, asc.LocalTensorType):
            pending = dict(state.pending)
            pending[dst] = Write(pipe, op, frozenset({pipe}))
            return HazardState(pending, state.carried)
        return state

    def run_region(self, region: object, state: HazardState, report: bool) -> HazardState:
        blocks = getattr(region, "blocks", ())
        return self.run_block(blocks[0], state, report) if blocks else state

    def body(self, loop: Operation, state: HazardState, report: bool) -> HazardState:
        for region in loop.regions:
            state = self.run_region(region, state, report)
        return state


def _uses_tpipe(kernel: Operation) -> bool:
    module = kernel.parent_op()
    return module is None or any(_kernel_of(op) is kernel for op in module_index(module).tpipes)


def _in_hazard_scope(kernel: Operation) -> bool:
    """TPipe-free kernels only: elsewhere the compiler's automatic synchronisation may cover the read (see
    ASC707's page)."""
    return not _uses_tpipe(kernel)


@rule(
    "ASC707", "scalar-read-without-flag", "sync",
    summary="GetValue on a UB tensor right after a vector instruction or a GM->UB DataCopy wrote it, with no "
            "WaitFlag<HardEvent::V_S> / <MTE2_S> in between.",
    why="GetValue runs on the scalar pipe, which does not wait for the vector or MTE2 pipes: without a flag "
        "it can read the tensor before the write landed and see stale data (a wrong max, a zero denominator, "
        "a garbage index, later an out-of-bounds UB access). Scope: the compiler's automatic synchronisation "
        "(--cce-auto-sync, on by default) inserts these flags from LocalTensor dependencies of TPipe "
        "tensors, and real passing TPipe kernels read ReduceSum results with no V_S flag; so the rule only "
        "runs on TPipe-free kernels (LocalMemAllocator + explicit SetFlag/WaitFlag), where the code orders "
        "the pipes itself. A chain of flags counts (MTE2 -> V, then V -> S), and an instruction that "
        "consumes the tensor is taken as ordered after its write.",
    example="ReduceMax(maxLocal, xLocal, work, n);\nfloat m = maxLocal.GetValue(0);      // may read the old value",
    instead="ReduceMax(maxLocal, xLocal, work, n);\nSetFlag<HardEvent::V_S>(EVENT_ID0);\n"
            "WaitFlag<HardEvent::V_S>(EVENT_ID0);\nfloat m = maxLocal.GetValue(0);",
)
def scalar_read_without_flag(ctx: CheckContext) -> None:
    for kernel in _kernels(ctx):
        if not _in_hazard_scope(kernel):
            continue
        block = kernel.body.blocks[0] if kernel.body.blocks else None
        if block is None:
            continue
        index = module_index(ctx.module)
        if not any(isinstance(op.tensor.type, asc.LocalTensorType) and _kernel_of(op) is kernel
                   for op in index.get_values):
            continue
        interp = HazardInterpreter(index.hazard_ancestors)
        interp.run_block(block, HazardState({}, {}), True)
        for op, w in interp.findings.items():
            pipe, writer = w.pipe, w.op
            event = "V_S" if pipe == "V" else "MTE2_S"
            what = "a vector instruction" if pipe == "V" else "DataCopy"
            assert isinstance(writer, asc.ApiCallOp)
            ctx.report(op, f"GetValue reads a tensor {what} ({writer.api.data}) wrote with no "
                           f"WaitFlag<HardEvent::{event}> in between; the scalar read may see stale data",
                       ctx.note_at(writer, f"written here on PIPE_{pipe}"))


# ----------------------------------------------------------------------------------------------------
# ASC708 a UB buffer reloaded from GM while its write-back to GM may still be reading it
# ----------------------------------------------------------------------------------------------------

_UB_POSITIONS = frozenset({"VECIN", "VECOUT", "VECCALC", asc.UNKNOWN_POSITION})


Terms = tuple[tuple[SSAValue, int], ...]  # offsets that are not constants: (value, bytes per unit), in order


@dataclass(frozen=True)
class UbRegion:
    """The UB bytes a copy touches: inside `root` (a TBuf, one LocalMemAllocator allocation, the UB itself for
    tensors placed at an address, else the tensor value), `size` bytes (None: unknown) from `start` bytes plus
    the symbolic `terms`."""

    root: object
    what: str
    start: int
    terms: Terms
    size: int | None

    def overlaps(self, other: UbRegion) -> bool:
        """Whether the two surely share a byte: same buffer, same symbolic offset, intersecting ranges. Views
        at offsets that differ by an unknown amount are taken as apart (the family reports what holds on
        every path; a TBuf split at run-time offsets is common and correct)."""
        if self.root != other.root or self.terms != other.terms:
            return False
        low, high = (self, other) if self.start <= other.start else (other, self)
        return low.start == high.start or (low.size is not None and low.start + low.size > high.start)

    def varies_in(self, loop: Operation) -> bool:
        """Whether an offset is computed inside `loop` (it may differ from one iteration to the next)."""
        return any(_defined_in(value, loop) for value, _ in self.terms)


def _defined_in(value: SSAValue, loop: Operation) -> bool:
    owner = value.owner
    op = owner if isinstance(owner, Operation) else owner.parent_op()
    return op is not None and (op is loop or loop.is_ancestor(op))


def _tensor_source(value: SSAValue | None) -> SSAValue | None:
    """source_of, except that an element of an array of tensors (`LocalTensor<T> t[5]`, a load with indices)
    stands for itself: reaching_store does not tell the elements of one array apart."""
    for _ in range(16):
        if value is None:
            return None
        owner = value.owner
        if not isinstance(owner, memref.LoadOp):
            return value
        if owner.indices:
            return value
        value = reaching_store(owner)
    return None


def _add_offset(start: int, terms: Terms, value: SSAValue, width: int | None) -> tuple[int, Terms] | None:
    if width is None:
        return None
    count = fold_int(value)
    if count is not None:
        return start + count * width, terms
    source = source_of(value)
    return (start, (*terms, (source, width))) if source is not None else None


def _view_of(value: SSAValue) -> tuple[SSAValue, int, Terms] | None:
    """The tensor a chain of views (`t[off]`, ReinterpretCast) looks into, and the byte offset into it."""
    start, terms = 0, ()
    current = _tensor_source(value)
    for _ in range(32):
        if current is None:
            return None
        owner = current.owner
        inner: SSAValue | None = None
        offset: SSAValue | None = None
        if isinstance(owner, asc.SubTensorOp):
            inner, offset = owner.tensor, owner.offset
        elif isinstance(owner, asc.ReinterpretCastOp):
            inner = owner.tensor
        elif (isinstance(owner, asc.ApiCallOp) and owner.FAMILY == "local_tensor" and owner.args
              and owner.api.data in ("operator[]", "ReinterpretCast")):
            inner = owner.args[0]
            offset = owner.args[1] if owner.api.data == "operator[]" and len(owner.args) > 1 else None
        if inner is None:
            return current, start, terms
        if offset is not None:
            moved = _add_offset(start, terms, offset, tensor_elem_bytes(current))
            if moved is None:
                return None
            start, terms = moved
        current = _tensor_source(inner)
    return None


def _ub_region(value: SSAValue, copy_bytes: int | None) -> UbRegion | None:
    """Where a UB tensor lies, or None when it is not one ASC708 follows (a TQue buffer, another memory)."""
    found = _view_of(value)
    if found is None:
        return None
    base, start, terms = found
    t = base.type
    if not isinstance(t, asc.LocalTensorType) or t.position.data not in _UB_POSITIONS:
        return None
    owner = base.owner
    if isinstance(owner, asc.AllocTensorOp | asc.DeQueOp):
        return None  # a queue buffer: EnQue / DeQue / FreeTensor / AllocTensor order its pipes
    width = tensor_elem_bytes(base)
    root: object = base
    what = "the UB tensor"
    origin: SSAValue | None = None  # a byte offset the whole tensor starts at
    count: SSAValue | None = None
    if isinstance(owner, asc.TBufGetOp):
        buffer = source_of(owner.buffer)
        root = buffer if buffer is not None else base
        decl = buffer.owner if buffer is not None else None
        name = decl.var_name.data if isinstance(decl, asc.TBufOp) else ""
        what = f"TBuf {name}" if name else "the TBuf"
        origin, count = owner.byte_offset, owner.count
    elif isinstance(owner, asc.LocalAllocOp):
        what = "the LocalMemAllocator tensor"
        count = owner.count
    elif isinstance(owner, asc.LocalTensorAtOp):
        root = "UB"
        what = "the UB tensor at its address"
        origin, count = owner.address, owner.count
    elements = fold_int(count) if count is not None else None
    extent = elements * width - start if elements is not None and width is not None and not terms else None
    if copy_bytes is not None:
        extent = copy_bytes if extent is None else min(extent, copy_bytes)
    if origin is not None:
        moved = _add_offset(start, (), origin, 1)
        if moved is None:
            return None
        start, terms = moved[0], (*moved[1], *terms)
    return UbRegion(root, what, start, terms, extent)


def _copy_sides(op: asc.ApiCallOp) -> tuple[str, SSAValue] | None:
    """("store", UB source) of a UB->GM copy, ("load", UB destination) of a GM->UB copy, else None."""
    if op.FAMILY != "data_copy" or len(op.args) < 2:
        return None
    dst, src = op.args[0].type, op.args[1].type
    if isinstance(dst, asc.GlobalTensorType) and isinstance(src, asc.LocalTensorType):
        return "store", op.args[1]
    if isinstance(dst, asc.LocalTensorType) and isinstance(src, asc.GlobalTensorType):
        return "load", op.args[0]
    return None


def _copy_region(op: asc.ApiCallOp) -> UbRegion | None:
    from passes.verify.ir import arg

    sides = _copy_sides(op)
    if sides is None:
        return None
    tensor = sides[1]
    count = fold_int(arg(op, "count")) if op.overload.data.startswith("count_") else None
    width = tensor_elem_bytes(tensor)
    return _ub_region(tensor, count * width if count is not None and width is not None else None)


@dataclass(frozen=True)
class Reload:
    load: Operation
    store: Operation
    region: UbRegion
    loop: Operation | None  # the loop whose previous iteration did the store, None when straight-line


@dataclass
class ReloadInterpreter(HazardInterpreter):
    """Which UB buffers a UB->GM copy (PIPE_MTE3) may still be reading when a GM->UB copy (PIPE_MTE2) writes
    them. `pending` holds each store not known to be seen by MTE2; the flag chains are HazardInterpreter's.
    A loop body runs first from the entry state, then again from its own end state (iteration i+1 after
    iteration i) unless its trip count is at most one."""

    regions: dict[Operation, UbRegion | None] = field(default_factory=dict)
    reloads: dict[Operation, Reload] = field(default_factory=dict)
    loop: Operation | None = None  # the loop whose later iterations are being checked

    def region(self, op: asc.ApiCallOp) -> UbRegion | None:
        if op not in self.regions:
            self.regions[op] = _copy_region(op)
        return self.regions[op]

    def run_call(self, op: asc.ApiCallOp, state: HazardState, report: bool) -> HazardState:
        if op.FAMILY == "matmul":
            return HazardState({}, {})  # the Matmul object syncs its pipes itself, out of sight
        sides = _copy_sides(op)
        region = self.region(op) if sides is not None else None
        if sides is None or region is None:
            return state
        key = _tensor_source(sides[1])
        if key is None:
            return state
        if sides[0] == "store":
            pending = dict(state.pending)
            pending[key] = Write("MTE3", op, frozenset({"MTE3"}))
            carried = {e: keys - {key} for e, keys in state.carried.items()}  # earlier SetFlags miss it
            return HazardState(pending, carried)
        if report and op not in self.reloads:
            for w in state.pending.values():
                other = self.regions.get(w.op)
                if (w.pipe == "MTE3" and not w.seen_by & {"MTE2", "S"} and other is not None
                        and region.overlaps(other)):
                    self.reloads[op] = Reload(op, w.op, region, self.loop)
                    break
        return state

    def run_other(self, op: Operation, state: HazardState) -> HazardState:
        if isinstance(op, asc.OpaqueCallOp):
            return HazardState({}, {})  # a call we could not follow may synchronise
        if isinstance(op, asc.SetValueOp) and isinstance(op.tensor.type, asc.LocalTensorType):
            # the compiler orders a scalar write after the MTE3 read of the same tensor (--cce-auto-sync),
            # and the scalar unit issues every later instruction after that
            target = _ub_region(op.tensor, None)
            hit = [k for k, w in state.pending.items() if target is not None
                   and (other := self.regions.get(w.op)) is not None and target.overlaps(other)]
            return _seen(state, hit, "S") if hit else state
        return state

    def run_loop(self, loop: Operation, state: HazardState, report: bool) -> HazardState:
        trips = trip_count(loop)
        if trips == 0:
            return state
        first = self.body(loop, state, report)  # the first iteration runs whenever the body runs
        if trips == 1:
            return first
        head = self.next_iteration(loop, first)
        last = first
        for _ in range(32):
            last = self.body(loop, head, False)  # the end of iteration two or later
            nxt = _meet(head, self.next_iteration(loop, last))
            if nxt == head:
                break
            head = nxt
        if report:
            outer, self.loop = self.loop, loop
            self.body(loop, head, True)  # iteration i+1 after iteration i
            self.loop = outer
        return last if trips is not None else _meet(state, _meet(first, last))

    def next_iteration(self, loop: Operation, state: HazardState) -> HazardState:
        """The state at the top of the next iteration: a store at an offset computed in the loop is no longer
        known to be where the same offset expression points now."""
        gone = [k for k, w in state.pending.items()
                if (region := self.regions.get(w.op)) is not None and region.varies_in(loop)]
        if not gone:
            return state
        return HazardState({k: w for k, w in state.pending.items() if k not in gone}, state.carried)


def _reload_candidates(kernel: asc.KernelOp, index: ModuleIndex) -> bool:
    """Whether some UB->GM copy and some GM->UB copy of the kernel may touch one buffer (a quick filter)."""
    stores: list[UbRegion] = []
    loads: list[UbRegion] = []
    for op in index.of("data_copy"):
        sides = _copy_sides(op)
        if sides is None or _kernel_of(op) is not kernel:
            continue
        region = _copy_region(op)
        if region is not None:
            (stores if sides[0] == "store" else loads).append(region)
    return any(s.root == ld.root for s in stores for ld in loads)


def _reload_ancestors(kernel: Operation) -> set[Operation]:
    out: set[Operation] = set()
    for op in kernel.walk():
        if isinstance(op, asc.ApiCallOp | asc.SetValueOp | asc.OpaqueCallOp | asc.EnQueOp | asc.DeQueOp
                      | asc.FreeTensorOp | asc.AllocTensorOp):
            parent = op.parent_op()
            while parent is not None and parent not in out:
                out.add(parent)
                parent = parent.parent_op()
    return out


@rule(
    "ASC708", "ub-reload-before-writeback", "sync",
    summary="A GM->UB DataCopy into a TBuf or LocalMemAllocator tensor that a UB->GM DataCopy is writing "
            "back, with no WaitFlag<HardEvent::MTE3_MTE2> (or PipeBarrier<PIPE_ALL>) in between.",
    why="The write-back runs on PIPE_MTE3 and the reload on PIPE_MTE2; the two pipes run concurrently and "
        "nothing orders MTE2 after MTE3 unless the code does. The load can overwrite the buffer before the "
        "store has read it, and GM receives the next tile's data instead of this one's: wrong output, "
        "different from run to run. The typical form is a loop that loads a TBuf at the top and stores it at "
        "the bottom: iteration i+1's load races with iteration i's store. The compiler's automatic "
        "synchronisation does not cover it (--cce-auto-sync inserts syncs between the scalar unit and the "
        "other pipes and within PIPE_V; the MTE2/MTE3/V hand-offs are the framework's, made by the queue "
        "operations), so the rule follows TBuf tensors and TPipe-free LocalMemAllocator tensors and never "
        "TQue buffers, whose EnQue/DeQue/FreeTensor/AllocTensor order the pipes. A chain of flags counts "
        "(MTE3 -> V, then V -> MTE2), so does a WaitFlag that stops the scalar unit after the store (it "
        "issues the load); a loop is checked across iterations unless it runs at most once.",
    example="for (uint32_t i = 0; i < n; ++i) {\n"
            "    LocalTensor<float> t = buf.Get<float>();\n"
            "    DataCopy(t, xGm[i * len], len);          // may overwrite t while ...\n"
            "    ... compute on t ...\n"
            "    DataCopy(yGm[i * len], t, len);          // ... the previous iteration's store still reads it\n"
            "}",
    instead="for (uint32_t i = 0; i < n; ++i) {\n"
            "    LocalTensor<float> t = buf.Get<float>();\n"
            "    if (i > 0) {\n"
            "        SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);\n"
            "        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);\n"
            "    }\n"
            "    DataCopy(t, xGm[i * len], len);\n"
            "    ... compute on t ...\n"
            "    DataCopy(yGm[i * len], t, len);\n"
            "}",
)
def ub_reload_before_writeback(ctx: CheckContext) -> None:
    index = module_index(ctx.module)
    for kernel in _kernels(ctx):
        block = kernel.body.blocks[0] if kernel.body.blocks else None
        if block is None or not _reload_candidates(kernel, index):
            continue
        interp = ReloadInterpreter(_reload_ancestors(kernel))
        interp.run_block(block, HazardState({}, {}), True)
        for found in sorted(interp.reloads.values(), key=lambda r: _order_key(r.load)):
            load, store = found.load, found.store
            assert isinstance(load, asc.ApiCallOp) and isinstance(store, asc.ApiCallOp)
            when = "the previous iteration's" if found.loop is not None else "an earlier"
            ctx.report(load, f"{load.api.data} reloads {found.region.what} while {when} {store.api.data} may "
                             f"still be writing it back to GM; no WaitFlag<HardEvent::MTE3_MTE2> in between",
                       ctx.note_at(store, "written back here on PIPE_MTE3" + (
                           ", at the end of the previous iteration" if found.loop is not None else "")))
