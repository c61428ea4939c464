"""A UB buffer reloaded from GM before the write-back of its previous contents has finished: the UB regions a
copy touches, the reload interpreter (ReloadInterpreter, a HazardInterpreter) and its rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import memref
from xdsl.ir import Operation, SSAValue

from ascendir.dialects import ascendc as asc
from passes.verify.op_index import ModuleIndex, module_index
from passes.verify.rules import CheckContext, rule
from passes.verify.sync_flags import trip_count
from passes.verify.sync_hazards import HazardInterpreter, HazardState, Write, mark_seen, meet_states
from passes.verify.sync_ir import kernel_of, kernels_to_check, order_key
from passes.verify.value_fold import fold_int, reaching_store, source_of, tensor_elem_bytes


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
            return mark_seen(state, hit, "S") if hit else state
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
            nxt = meet_states(head, self.next_iteration(loop, last))
            if nxt == head:
                break
            head = nxt
        if report:
            outer, self.loop = self.loop, loop
            self.body(loop, head, True)  # iteration i+1 after iteration i
            self.loop = outer
        return last if trips is not None else meet_states(state, meet_states(first, last))

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
        if sides is None or kernel_of(op) is not kernel:
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
        "(MTE3 -> V, then V -> MTE2), queue operations among them as the flags they stand for (a "
        "TQue<VECOUT>'s FreeTensor then AllocTensor: MTE3 -> V; a TQueBind<VECIN, VECOUT>'s: MTE3 -> MTE2), "
        "so does a WaitFlag that stops the scalar unit after the store (it issues the load); a loop is "
        "checked across iterations unless it runs at most once.",
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
    for kernel in kernels_to_check(ctx):
        block = kernel.body.blocks[0] if kernel.body.blocks else None
        if block is None or not _reload_candidates(kernel, index):
            continue
        interp = ReloadInterpreter(_reload_ancestors(kernel), ctx.chip.npu_arch)
        interp.run_block(block, HazardState({}, {}), True)
        for found in sorted(interp.reloads.values(), key=lambda r: order_key(r.load)):
            load, store = found.load, found.store
            assert isinstance(load, asc.ApiCallOp) and isinstance(store, asc.ApiCallOp)
            when = "the previous iteration's" if found.loop is not None else "an earlier"
            ctx.report(load, f"{load.api.data} reloads {found.region.what} while {when} {store.api.data} may "
                             f"still be writing it back to GM; no WaitFlag<HardEvent::MTE3_MTE2> in between",
                       ctx.note_at(store, "written back here on PIPE_MTE3" + (
                           ", at the end of the previous iteration" if found.loop is not None else "")))
