"""Synchronisation (ASC7xx): SetFlag/WaitFlag pairing, illegal barriers and events, scalar-read hazards.

The pairing rules run an abstract interpretation of each kernel body over the scf regions: the state maps
each (HardEvent, event id) to the set of values its hardware flag may hold (0 or 1) at that point. `scf.if`
joins its branches; loops iterate to a fixpoint (0 or more iterations, or exactly N when the trip count is a
constant). A finding is reported only when it holds in every state that reaches the op: a WaitFlag whose
flag is 0 on every path hangs, a SetFlag whose flag is already 1 on every path is a double set. A loop body
is also checked in its first iteration's state, which runs whenever the body runs at all (a WaitFlag at the
top of a loop with no pre-set before the loop hangs at once, even though later iterations would be fine).

Events whose id is not a compile-time constant (`FetchEventID`, `ping ? EVENT_ID0 : EVENT_ID1`) are not
followed: every rule stays silent on that HardEvent.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Block, Operation, SSAValue

from ascendir.dialects import ascendc as asc
from passes.verify.alignment import fold_int, module_index, source_of
from passes.verify.rules import CheckContext, rule

Key = tuple[str, int]  # (HardEvent, event id)
_MAX_UNROLL = 16  # constant-trip loops up to this many iterations are followed iteration by iteration


def _template(op: asc.ApiCallOp) -> str | None:
    targs = op.template_args
    if targs is None or not targs.data:
        return None
    first = targs.data[0]
    return first.data if isinstance(first, StringAttr) else None


def _has_receiver(op: asc.ApiCallOp) -> bool:
    return bool(op.args) and isinstance(op.args[0].type, asc.ObjectType)


def _flag_key(op: asc.ApiCallOp) -> tuple[str | None, int | None]:
    """(HardEvent, constant id) of a free SetFlag/WaitFlag; either may be None when unknown."""
    event = _template(op)
    ident = fold_int(op.args[0]) if op.args else None
    return event, ident


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

    def run_block(self, block: Block, state: State) -> State:
        for op in block.ops:
            state = self.run_op(op, state)
        return state

    def run_op(self, op: Operation, state: State) -> State:
        if isinstance(op, asc.SyncOp) and op.api.data in ("SetFlag", "WaitFlag") and not _has_receiver(op):
            event, ident = _flag_key(op)
            if event is None or ident is None or event in self.skip_events:
                return state
            key = (event, ident)
            values, setters = state.get(key, _CLEAR)
            state = dict(state)
            if op.api.data == "SetFlag":
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
            then = self.run_region(op.true_region, state)
            other = self.run_region(op.false_region, state) if op.false_region.blocks else state
            return _join(then, other)
        if isinstance(op, scf.ForOp | scf.WhileOp):
            return self.run_loop(op, state)
        if op.regions:  # an op we do not model: each region may run or not, in order
            after = state
            for region in op.regions:
                after = _join(after, self.run_region(region, after))
            return after
        return state

    def run_region(self, region: object, state: State) -> State:
        blocks = getattr(region, "blocks", ())
        return self.run_block(blocks[0], state) if blocks else state

    def body(self, loop: Operation, state: State) -> State:
        for region in loop.regions:
            state = self.run_region(region, state)
        return state

    def quiet_body(self, loop: Operation, state: State) -> State:
        reporting, self.report = self.report, False
        try:
            return self.body(loop, state)
        finally:
            self.report = reporting

    def run_loop(self, loop: Operation, entry: State) -> State:
        trips = trip_count(loop)
        if trips == 0:
            return entry
        if trips is not None and trips <= _MAX_UNROLL:
            state = entry
            for _ in range(trips):
                state = self.body(loop, state)
            return state
        head = entry
        for _ in range(64):
            nxt = _join(head, self.quiet_body(loop, head))
            if nxt == head:
                break
            head = nxt
        self.body(loop, entry)  # the first iteration runs whenever the body runs
        after = self.body(loop, head)  # what holds in every iteration
        return after if trips is not None else _join(entry, after)

    def _find(self, code: str, op: Operation, key: Key, other: frozenset[Operation] = frozenset()) -> None:
        if self.report and (code, op) not in self.findings:
            self.findings[(code, op)] = FlagFinding(code, op, key, other)


def _analyse(kernel: asc.KernelOp) -> tuple[FlagInterpreter, State, set[str]] | None:
    """Runs the flag interpretation over one kernel; None when a portable TQueSync hides which flags it uses."""
    skip: set[str] = set()
    flags = _flag_ops(kernel)
    if not flags:
        return FlagInterpreter(skip, set()), {}, skip
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


def _flag_text(key: Key) -> str:
    return f"HardEvent::{key[0]}, event id {key[1]}"


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
            if f.code == "ASC701":
                reported.add(f.op)
                ctx.report(f.op, f"WaitFlag<{_flag_text(f.key)}> waits for a flag no SetFlag has set on any path "
                                 f"here; the pipe blocks forever")
        sets = _keys_used(kernel, "SetFlag")
        for op in _flag_ops(kernel):
            event, ident = _flag_key(op)
            if (op.api.data == "WaitFlag" and op not in reported and event is not None and ident is not None
                    and event not in skip and (event, ident) not in sets):
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
            if values != _ONE:
                continue
            for op in sorted(setters, key=_order_key):
                reported.add(op)
                ctx.report(op, f"SetFlag<{_flag_text(key)}> is still set when the kernel ends; no WaitFlag "
                               f"consumes it")
        waits = _keys_used(kernel, "WaitFlag")
        for op in _flag_ops(kernel):
            event, ident = _flag_key(op)
            if (op.api.data == "SetFlag" and op not in reported and event is not None and ident is not None
                    and event not in skip and (event, ident) not in waits):
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
            return self.run_call(op, state)
        if not op.regions or op not in self.interesting:
            return state
        if isinstance(op, scf.IfOp):
            then = self.run_region(op.true_region, state, report)
            other = self.run_region(op.false_region, state, report) if op.false_region.blocks else state
            return _meet(then, other)
        if isinstance(op, scf.ForOp | scf.WhileOp):
            head = state
            for _ in range(32):
                nxt = _meet(head, self.body(op, head, False))
                if nxt == head:
                    break
                head = nxt
            if report:
                self.body(op, head, True)
            return head
        if op.regions:
            after = state
            for region in op.regions:
                after = _meet(after, self.run_region(region, after, report))
            return after
        return state

    def run_sync(self, op: asc.SyncOp, state: HazardState) -> HazardState:
        name = op.api.data
        event = _template(op) or ""
        if name in ("SetFlag", "WaitFlag") and not _has_receiver(op) and "_" in event:
            src, _, dst = event.partition("_")
            if name == "SetFlag":
                carried = dict(state.carried)
                carried[event] = carried.get(event, frozenset()) | {
                    k for k, w in state.pending.items() if src in w.seen_by}
                return HazardState(state.pending, carried)
            return _seen(state, state.carried.get(event, frozenset()), dst)
        if name == "PipeBarrier" and event != "PIPE_ALL":
            return state
        if name in ("SetAtomicAdd", "SetAtomicMax", "SetAtomicMin", "SetAtomicNone", "CrossCoreSetFlag"):
            return state
        return HazardState({}, {})  # PIPE_ALL, SyncAll, a portable TQueSync: assume it orders everything

    def run_call(self, op: asc.ApiCallOp, state: HazardState) -> HazardState:
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
