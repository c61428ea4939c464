"""Scalar reads of a buffer a pipe may still be writing, without a flag between: the hazard interpreter
(HazardInterpreter: which pipes may have pending writes to which tensors) and its rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import scf
from xdsl.ir import Block, Operation, SSAValue

from ascendir.dialects import ascendc as asc
from passes.verify.flag_edges import queue_events
from passes.verify.happens_before import event_pipes
from passes.verify.op_index import module_index
from passes.verify.rules import CheckContext, rule
from passes.verify.sync_ir import api_template, has_receiver, kernel_of, kernels_to_check
from passes.verify.value_fold import source_of


_VECTOR_FAMILIES = asc.VECTOR_PIPE_FAMILIES | {"high_level"}


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


def meet_states(a: HazardState, b: HazardState) -> HazardState:
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


def mark_seen(state: HazardState, keys: object, pipe: str) -> HazardState:
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
    arch: int  # the chip's __NPU_ARCH__: which events a queue's operations stand for (run_queue)
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
            return meet_states(then, other)
        if isinstance(op, scf.ForOp | scf.WhileOp):
            return self.run_loop(op, state, report)
        if op.regions:
            after = state
            for region in op.regions:
                after = meet_states(after, self.run_region(region, after, report))
            return after
        return state

    def run_sync(self, op: asc.SyncOp, state: HazardState) -> HazardState:
        name = op.api.data
        event = api_template(op) or ""
        if name in ("SetFlag", "WaitFlag") and not has_receiver(op) and event_pipes(event) is not None:
            return self.signal(event, state) if name == "SetFlag" else self.wait(event, state)
        if name == "PipeBarrier" and event != "PIPE_ALL":
            return state
        if name in ("SetAtomicAdd", "SetAtomicMax", "SetAtomicMin", "SetAtomicNone", "CrossCoreSetFlag"):
            return state
        return HazardState({}, {})  # PIPE_ALL, SyncAll, a portable TQueSync: assume it orders everything

    @staticmethod
    def signal(event: str, state: HazardState) -> HazardState:
        """SetFlag<event>: carries the accesses its source pipe is ordered after."""
        src = _event_pipes(event)[0]
        carried = dict(state.carried)
        ordered = {k for k, w in state.pending.items() if src in w.seen_by}
        carried[event] = carried.get(event, frozenset()) | ordered
        return HazardState(state.pending, carried)

    @staticmethod
    def wait(event: str, state: HazardState) -> HazardState:
        """WaitFlag<event>: its destination pipe is now ordered after what the flag carries."""
        return mark_seen(state, state.carried.get(event, frozenset()), _event_pipes(event)[1])

    def run_loop(self, loop: Operation, state: HazardState, report: bool) -> HazardState:
        """What holds at the loop head on every path (0 or more iterations), and the body checked there."""
        head = state
        for _ in range(32):
            nxt = meet_states(head, self.body(loop, head, False))
            if nxt == head:
                break
            head = nxt
        if report:
            self.body(loop, head, True)
        return head

    def run_queue(self, op: Operation, state: HazardState) -> HazardState:
        """A queue operation is the SetFlag / WaitFlag it stands for on hardware [ADK kernel_tquebind_impl.h]:
        EnQue = SetFlag<forward>, DeQue = WaitFlag<forward>, FreeTensor = SetFlag<backward>, AllocTensor =
        WaitFlag<backward>, the events of the queue's route as the simulator's lowering and the buffer state
        machine read them (Catalog.queue_events_of: TQue<VECOUT> MTE3_V back, TQueBind<VECIN, VECOUT>
        MTE3_MTE2). The flags are keyed by event only, not by buffer: any free of a queue orders the next
        AllocTensor of any of its buffers (the ordering it may give is never missed)."""
        qtype = getattr(op, "queue").type
        if not isinstance(qtype, asc.TQueType):
            return state
        events = queue_events(qtype.position.data, qtype.source.data, self.arch)
        if events is None or event_pipes(events.forward) is None or event_pipes(events.backward) is None:
            return state
        if isinstance(op, asc.EnQueOp):
            return self.signal(events.forward, state)
        if isinstance(op, asc.DeQueOp):
            return self.wait(events.forward, state)
        if isinstance(op, asc.FreeTensorOp):
            return self.signal(events.backward, state)
        return self.wait(events.backward, state)

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
        state = mark_seen(state, [k for k in reads if k is not None and k != dst], pipe)
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
    return module is None or any(kernel_of(op) is kernel for op in module_index(module).tpipes)


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
    for kernel in kernels_to_check(ctx):
        if not _in_hazard_scope(kernel):
            continue
        block = kernel.body.blocks[0] if kernel.body.blocks else None
        if block is None:
            continue
        index = module_index(ctx.module)
        if not any(isinstance(op.tensor.type, asc.LocalTensorType) and kernel_of(op) is kernel
                   for op in index.get_values):
            continue
        interp = HazardInterpreter(index.hazard_ancestors, ctx.chip.npu_arch)
        interp.run_block(block, HazardState({}, {}), True)
        for op, w in interp.findings.items():
            pipe, writer = w.pipe, w.op
            event = "V_S" if pipe == "V" else "MTE2_S"
            what = "a vector instruction" if pipe == "V" else "DataCopy"
            assert isinstance(writer, asc.ApiCallOp)
            ctx.report(op, f"GetValue reads a tensor {what} ({writer.api.data}) wrote with no "
                           f"WaitFlag<HardEvent::{event}> in between; the scalar read may see stale data",
                       ctx.note_at(writer, f"written here on PIPE_{pipe}"))


def _event_pipes(event: str) -> tuple[str, str]:
    """The pipes of an event signal/wait is given: a HardEvent (run_sync takes any other name as ordering
    everything, run_queue skips a queue whose events are not HardEvent names)."""
    pipes = event_pipes(event)
    assert pipes is not None, event
    return pipes
