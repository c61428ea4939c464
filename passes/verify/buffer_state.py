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

Analysis (this module) drives the run (kernels, the step budget, the per-op dispatch, the checks' verdicts) and
inherits the rest:

- buffer_flow.py (ControlFlow): regions, branches and loops (rounds, widening, remembered exits), leak checks;
- buffer_scalars.py (ScalarTracking): integer scalars in memref cells, branch conditions, tokens;
- buffer_queues.py (QueueSteps): TPipe / TQue / AllocTensor / EnQue / DeQue / FreeTensor and API calls;
- buffer_memory.py (BufferAllocation): InitBuffer, LocalMemAllocator blocks and the memory limits;
- buffer_states.py: the abstract state (queues, tensors, blocks), its join and the analysis' limits;
- buffer_ir.py: the TPipe a value holds, the tensor a view looks into, an op's source position;
- buffer_ints.py: integer arithmetic at a width, as the scalar ops compute it (also footprint.py's).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue

from ascendir.chips import Chip
from ascendir.dialects import ascendc as asc
from passes.verify import queue_reuse
from passes.verify.buffer_flow import ControlFlow
from passes.verify.buffer_ir import (
    line_of as line_of,
    location_key as location_key,
    stored_pipe as stored_pipe,
)
from passes.verify.buffer_memory import BufferAllocation
from passes.verify.buffer_queues import QueueSteps
from passes.verify.buffer_scalars import ScalarTracking
from passes.verify.buffer_states import (
    Finding as Finding,
    MAX_STATES as MAX_STATES,
    OverBudget as OverBudget,
    STEP_BUDGET as STEP_BUDGET,
    State as State,
    normalize_keyed as normalize_keyed,
)
from passes.verify.ir import is_kind, walk_of

# Defined in the modules this one was split into; other modules import them from here.
from passes.verify.buffer_ints import (
    BINARY_FOLDS as BINARY_FOLDS,
    compare_ints as compare_ints,
    int_width as int_width,
    signed_value as signed_value,
)
from passes.verify.buffer_ir import tensor_root as tensor_root
from passes.verify.buffer_memory import memory_of as memory_of, memory_size as memory_size
from passes.verify.buffer_states import (
    DEQUE as DEQUE,
    ENQUE as ENQUE,
    FREE as FREE,
    Init as Init,
    LocalBlock as LocalBlock,
    MAX_ROUNDS as MAX_ROUNDS,
    OCCUPIED as OCCUPIED,
    QueueState as QueueState,
    Token as Token,
    UNKNOWN as UNKNOWN,
    UNROLL as UNROLL,
    join as join,
    round32 as round32,
)


_NAMED_DECLARATIONS = (asc.TPipeOp, asc.TQueOp, asc.TBufOp, asc.ObjectOp)  # ops whose var_name names a value


@dataclass
class _Verdict:
    op: Operation
    seen: int = 0
    bad: int = 0
    soft: int = 0  # bad states in which the problem is of the harmless kind
    message: str = ""
    notes: tuple[tuple[Operation, str], ...] = ()


@dataclass
class Analysis(ControlFlow, ScalarTracking, QueueSteps, BufferAllocation):
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
    # a read of a freed buffer graded on the happens-before relation (happens_before.py), by the read op's id ->
    # the first later write of the buffer on some path not ordered after it: (writer, read pipe, what it does)
    _unordered: dict[int, tuple[Operation, str, str]] = field(default_factory=dict)

    gave_up: list[asc.KernelOp] = field(default_factory=list)  # kernels over STEP_BUDGET
    _steps_left: int = STEP_BUDGET
    _state_limit: int = MAX_STATES  # 1 while a kernel is run with its paths merged
    _loop_memo: dict[tuple[object, ...], tuple[State, ...]] = field(default_factory=dict)

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
            if finding.soft and code == "ASC201" and id(v.op) in self._unordered:
                finding = self._overtaken(finding)
            at = reported.get(key)
            if at is None:
                reported[key] = len(found)
                found.append(finding)
            elif found[at].soft and not finding.soft:
                found[at] = finding
        for found in self.findings.values():
            found.sort(key=lambda f: line_of(f.op))
        return self

    def _overtaken(self, finding: Finding) -> Finding:
        """A read of a freed buffer that some later write of the buffer may overtake: an error, its notes the
        free and that writer (not what the warning said the read relies on)."""
        writer, read_pipe, how = self._unordered[id(finding.op)]
        relies = (queue_reuse.ROTATION_NOTE, queue_reuse.ORDER_NOTE.format(pipe=read_pipe))
        notes = tuple(n for n in finding.notes if n[1] not in relies)
        note = (f"{how}, with no chain of SetFlag/WaitFlag (or barrier) from the read's PIPE_{read_pipe} to it: "
                "the write may overtake the read")
        return Finding(finding.code, finding.op, finding.message, (*notes, (writer, note)), soft=False)

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
        except OverBudget:
            inside = {id(op) for op in walk_of(kernel)}
            self._verdicts = {k: v for k, v in self._verdicts.items() if k[1] not in inside}
            self._unordered = {k: v for k, v in self._unordered.items() if k not in inside}
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
        return self.idx(stored_pipe(pipe) or pipe)

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

    def _step(self, op: Operation, s: State) -> State:
        cls = type(op)
        handler = _STEP_HANDLER.get(cls, _UNSEEN)
        if handler is _UNSEEN:
            handler = _STEP_HANDLER[cls] = next((h for k, h in _STEP_HANDLERS if issubclass(cls, k)), None)
        if handler is None:
            return s  # most ops (arithmetic, constants, ...) change nothing here
        return handler(self, op, s)


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
