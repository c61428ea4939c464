"""Which global-memory bytes each core reads and writes, for concrete shapes (ASC604-ASC607).

With the host tiling values folded in (`--shape`, `--test-case`), a kernel's addresses are plain arithmetic
on the block index: this module runs the kernel's scalar code for one block index at a time and records
every GM access its DataCopy / DataCopyPad / GetValue / SetValue calls, GM fills and raw-pointer accesses
make, as byte ranges of the kernel's GM_ADDR arguments. Nothing else of the kernel is computed: vector instructions and queue calls are skipped,
and a branch or loop bound that depends on data (a value read from memory, a float) stops that core's run.
What was recorded before the stop still happened on the hardware, so the findings are certain.

The run is bounded (a step budget per core). The rules on neighbouring slices and buffer ends sample the
first two cores and the last one; ASC607, which asks what no core writes, runs them all, and only trusts a
launch in which every core ran to the end and no write had bytes the run could not work out (a length not
computed, a GM-writing API not modelled): those are kept apart as `unknown_writes`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, MemRefType
from xdsl.ir import Block, Operation, SSAValue

from ascendir.dialects import ascendc as asc
from passes.verify.buffer_state import BINARY_FOLDS, compare_ints, int_width, signed_value

STEP_BUDGET = 200_000  # ops per core; kernels whose address arithmetic needs more are not followed
MAX_OBSERVED = 16  # distinct values kept per call and parameter (CoreRun.observed)
# the API parameters whose run-time values CoreRun.observed keeps: (API, overload prefix) -> parameter names
_OBSERVED_PARAMS = {("DataCopy", "count"): ("count",), ("Compare", ""): ("count",),
                    ("DataCopyPad", ""): ("padParams",)}
# GlobalTensor APIs that fill `size` elements from the tensor's start with a value: (gm, size, value)
_GM_FILLS = frozenset({"InitGlobalMemory", "Fill", "InitOutput"})
# GlobalTensor APIs that write no GM data (cache hints, shape info)
_GM_READ_ONLY = frozenset({"SetL2CacheHint", "SetShapeInfo", "SetGlobalBuffer", "DataCacheCleanAndInvalid",
                           "DataCachePreload"})


class _Stop(Exception):
    """This core's run cannot go on: control flow depends on something unknown, or the budget is spent."""


@dataclass(frozen=True)
class _Ptr:
    arg: int  # index of the kernel's GM_ADDR parameter
    offset: int  # bytes


@dataclass(frozen=True)
class _GmTensor:
    arg: int
    offset: int  # bytes from the start of the argument
    elem: int  # element size in bytes
    name: str


@dataclass(frozen=True)
class Access:
    """`size` bytes at `offset` of kernel argument `arg`, read or written by `op`."""

    arg: int
    offset: int
    size: int
    write: bool
    op: Operation
    tensor: str


@dataclass
class CoreRun:
    block_idx: int
    accesses: list[Access] = field(default_factory=list)
    stopped: str | None = None  # why the run stopped before the end, if it did
    # GM writes whose bytes are not known here (a length or index not computed, a GM-writing API not modelled):
    # with one of them, the accesses are not all the core writes, so nothing may be concluded from a gap
    unknown_writes: list[Operation] = field(default_factory=list)
    # the bytes count-form DataCopy writes to GM were asked for and did not move (a length cut to whole 32-byte
    # blocks): ASC401/ASC408 report the cut, so ASC607 does not report these bytes again as unwritten
    cut_writes: list[Access] = field(default_factory=list)
    steps: int = 0  # ops run
    # the values the alignment rules judge (a count-form DataCopy's or Compare's count, DataCopyPad's padding),
    # by call and parameter ("count", "padParams.rightPadding"), as computed on this core: up to
    # MAX_OBSERVED distinct values each, in the order first seen
    observed: dict[tuple[Operation, str], list[int]] = field(default_factory=dict)
    # the GM tensors a Matmul object's calls are given on this core (SetTensorA/B, SetBias, IterateAll): the call
    # and the tensor's (argument, byte offset, element size) the first time it runs (ASC609 places the blocks)
    matmul_views: dict[Operation, tuple[int, int, int]] = field(default_factory=dict)


def elem_bytes(t: object) -> int | None:
    """sizeof(T) of a `GlobalTensor<T>`, `LocalTensor<T>` or `__gm__ T*` type."""
    from passes.verify.value_fold import elem_bytes as scalar_bytes

    element = getattr(t, "element_type", None)
    return scalar_bytes(element) if element is not None else None


def run_core(kernel: asc.KernelOp, block_idx: int, block_dim: int, budget: int = STEP_BUDGET) -> CoreRun:
    runner = _Runner(kernel, block_idx, block_dim, budget)
    try:
        runner.block(kernel.body.blocks[0])
    except _Return:
        pass
    except _Stop as stop:
        runner.run.stopped = str(stop) or "unknown control flow"
    runner.run.steps = budget - max(runner.budget, 0)
    return runner.run


class _Return(Exception):
    pass


class _Runner:
    def __init__(self, kernel: asc.KernelOp, block_idx: int, block_dim: int, budget: int) -> None:
        self.run = CoreRun(block_idx)
        self.block_idx = block_idx
        self.block_dim = block_dim
        self.budget = budget
        self.env: dict[SSAValue, object] = {}
        self.observed_operands: dict[Operation, list[tuple[str, SSAValue]]] = {}
        self.cells: dict[SSAValue, object] = {}
        self.gm: dict[SSAValue, _GmTensor | None] = {}
        for i, arg in enumerate(kernel.body.blocks[0].args):
            if isinstance(arg.type, asc.GmPtrType):
                self.env[arg] = _Ptr(i, 0)

    # ------------------------------------------------------------------ control flow

    def block(self, block: Block, args: list[object] | None = None) -> list[object] | None:
        """Runs `block`; returns the operands of its terminator (yield / condition), if any."""
        for arg, value in zip(block.args, args or [], strict=False):
            self.env[arg] = value
        for op in block.ops:
            if isinstance(op, scf.YieldOp):
                return [self.env.get(v) for v in op.operands]
            if isinstance(op, scf.ConditionOp):
                return [self.env.get(v) for v in op.operands]
            self.op(op)
        return None

    def op(self, op: Operation) -> None:
        self.budget -= 1
        if self.budget < 0:
            raise _Stop("step budget spent")
        handler = _HANDLERS.get(type(op))
        if handler is not None:
            handler(self, op)
            return
        fold = BINARY_FOLDS.get(type(op))
        if fold is not None:
            a, b = (self.env.get(v) for v in op.operands)
            width = int_width(op.results[0].type)
            if isinstance(a, int) and isinstance(b, int) and width is not None:
                r = fold(a, b, width)
                self.env[op.results[0]] = None if r is None else r % (1 << width)
            else:
                self.env[op.results[0]] = None
            return
        if isinstance(op, asc.ApiCallOp):
            self.api_call(op)
            return
        if op.regions:
            raise _Stop(f"{op.name} is not followed")
        for r in op.results:
            self.env[r] = None

    def int_of(self, value: SSAValue) -> int:
        v = self.env.get(value)
        if not isinstance(v, int):
            raise _Stop("a branch or bound depends on a value not known here")
        return v

    # ------------------------------------------------------------------ accesses

    def record(self, tensor: SSAValue, first: int, count: int, write: bool, op: Operation) -> None:
        t = self.gm.get(tensor) if tensor in self.gm else self._view(tensor)
        if t is None and write:
            self.run.unknown_writes.append(op)
        if t is None or count <= 0:
            return
        self.run.accesses.append(Access(t.arg, t.offset + first * t.elem, count * t.elem, write, op, t.name))

    def record_blocks(self, tensor: SSAValue, blocks: int, length: int, gap: int, write: bool, op: Operation) -> None:
        """`blocks` runs of `length` bytes, `gap` bytes apart (end to start), from the tensor's start."""
        t = self.gm.get(tensor) if tensor in self.gm else self._view(tensor)
        if t is None and write or blocks > 4096 and write:
            self.run.unknown_writes.append(op)
        if t is None or blocks <= 0 or length <= 0:
            return
        for i in range(min(blocks, 4096)):
            self.run.accesses.append(Access(t.arg, t.offset + i * (length + gap), length, write, op, t.name))

    def _view(self, tensor: SSAValue) -> _GmTensor | None:
        v = self.env.get(tensor)
        return v if isinstance(v, _GmTensor) else None

    def observe(self, op: asc.ApiCallOp) -> None:
        """Keeps the values of the parameters the alignment rules judge (see CoreRun.observed)."""
        operands = self.observed_operands.get(op)
        if operands is None:
            operands = self.observed_operands[op] = _observed_operands(op)
        for name, value in operands:
            v = self.env.get(value)
            items = [(name, v)] if isinstance(v, int) else \
                [(f"{name}.{k}", x) for k, x in v.items() if isinstance(x, int)] if isinstance(v, dict) else []
            for key, x in items:
                seen = self.run.observed.setdefault((op, key), [])
                if x not in seen and len(seen) < MAX_OBSERVED:
                    seen.append(x)

    def api_call(self, op: asc.ApiCallOp) -> None:
        if op.FAMILY in ("data_copy", "compare"):
            self.observe(op)
        for r in op.results:
            self.env[r] = None
        if op.FAMILY == "system" and op.results:
            api = op.api.data
            if api == "GetBlockIdx":
                self.env[op.results[0]] = self.block_idx
            elif api == "GetBlockNum":
                self.env[op.results[0]] = self.block_dim
            return
        if op.FAMILY != "data_copy":
            self.other_api(op)
            return
        if len(op.args) < 3:
            return
        dst, src, third = op.args[0], op.args[1], op.args[2]
        to_gm = isinstance(dst.type, asc.GlobalTensorType)
        from_gm = isinstance(src.type, asc.GlobalTensorType)
        if not (to_gm or from_gm):
            return
        gm_side = dst if to_gm else src
        overload = op.overload.data
        value = self.env.get(third)
        if overload.startswith("count") and isinstance(value, int):
            t = self.gm.get(gm_side) if gm_side in self.gm else self._view(gm_side)
            if t is None and to_gm:
                self.run.unknown_writes.append(op)
            if t is not None:
                # DataCopy moves whole 32-byte blocks: a count that is not a multiple is cut down (ASC401)
                nbytes = value * t.elem // 32 * 32
                if nbytes > 0:
                    self.run.accesses.append(Access(t.arg, t.offset, nbytes, to_gm, op, t.name))
                if to_gm and value * t.elem > nbytes:
                    self.run.cut_writes.append(Access(t.arg, t.offset + nbytes, value * t.elem - nbytes, True, op,
                                                      t.name))
            return
        if isinstance(value, dict):
            blocks, length = value.get("blockCount"), value.get("blockLen")
            stride = value.get("dstStride" if to_gm else "srcStride", 0)
            if all(isinstance(x, int) for x in (blocks, length, stride)):
                pad = op.api.data == "DataCopyPad"
                unit = 1 if pad else 32  # DataCopyPad counts bytes on the GM side, DataCopy 32-byte blocks
                self.record_blocks(gm_side, blocks, length * unit, stride * unit, to_gm, op)  # type: ignore[operator]
                return
        if to_gm:
            self.run.unknown_writes.append(op)  # a length not computed here, or a form not modelled

    def other_api(self, op: asc.ApiCallOp) -> None:
        """APIs other than DataCopy that take a GlobalTensor: the GM fills are followed, queries write nothing,
        anything else is a GM write of unknown extent."""
        gm_args = [a for a in op.args if isinstance(a.type, asc.GlobalTensorType)]
        if not gm_args:
            return
        api = op.api.data
        if api.startswith("Get") or api in _GM_READ_ONLY:
            return
        if op.FAMILY == "matmul":
            view = self.gm.get(gm_args[0]) if gm_args[0] in self.gm else self._view(gm_args[0])
            if view is not None:
                self.run.matmul_views.setdefault(op, (view.arg, view.offset, view.elem))
        size = self.env.get(op.args[1]) if api in _GM_FILLS and len(op.args) >= 2 else None
        if isinstance(size, int):
            self.record(op.args[0], 0, size, True, op)
        else:
            self.run.unknown_writes.append(op)


def _observed_operands(op: asc.ApiCallOp) -> list[tuple[str, SSAValue]]:
    from passes.verify.ir import arg

    names = next((names for (api, overload), names in _OBSERVED_PARAMS.items()
                  if api == op.api.data and op.overload.data.startswith(overload)), ())
    return [(name, value) for name in names if (value := arg(op, name)) is not None]


def _constant(r: _Runner, op: arith.ConstantOp) -> None:
    attr = op.value
    if isinstance(attr, IntegerAttr):
        width = int_width(op.result.type) or 64
        r.env[op.result] = attr.value.data % (1 << width)
    elif isinstance(attr, FloatAttr):
        r.env[op.result] = float(attr.value.data)
    else:
        r.env[op.result] = None


def _cast(r: _Runner, op: Operation) -> None:
    src, res = op.operands[0], op.results[0]
    v = r.env.get(src)
    src_w, width = int_width(src.type), int_width(res.type)
    if not isinstance(v, int) or src_w is None or width is None:
        r.env[res] = None
        return
    if isinstance(op, arith.ExtSIOp | arith.IndexCastOp):
        v = signed_value(v, src_w)
    r.env[res] = v % (1 << width)


def _cmpi(r: _Runner, op: arith.CmpiOp) -> None:
    a, b = r.env.get(op.lhs), r.env.get(op.rhs)
    width = int_width(op.lhs.type)
    r.env[op.result] = compare_ints(op.predicate.value.data, a, b, width) \
        if isinstance(a, int) and isinstance(b, int) and width else None


def _select(r: _Runner, op: arith.SelectOp) -> None:
    c = r.env.get(op.cond)
    r.env[op.result] = None if not isinstance(c, int) else r.env.get(op.lhs if c else op.rhs)


def _alloca(r: _Runner, op: memref.AllocaOp) -> None:
    r.cells[op.memref] = {} if isinstance(op.memref.type, MemRefType) and op.memref.type.get_shape() else None


def _store(r: _Runner, op: memref.StoreOp) -> None:
    value = r.env.get(op.value)
    if op.indices:
        cell = r.cells.get(op.memref)
        index = tuple(r.env.get(i) for i in op.indices)
        if isinstance(cell, dict):
            if all(isinstance(i, int) for i in index):
                cell[index] = value
            else:
                cell.clear()  # an unknown element changed: forget them all
    else:
        r.cells[op.memref] = value


def _load(r: _Runner, op: memref.LoadOp) -> None:
    if op.indices:
        cell = r.cells.get(op.memref)
        index = tuple(r.env.get(i) for i in op.indices)
        r.env[op.res] = cell.get(index) if isinstance(cell, dict) else None
    else:
        r.env[op.res] = r.cells.get(op.memref)


def _if(r: _Runner, op: scf.IfOp) -> None:
    taken = op.true_region if r.int_of(op.cond) else op.false_region
    out = r.block(taken.blocks[0]) if taken.blocks else None
    for res, v in zip(op.results, out or [], strict=False):
        r.env[res] = v


def _for(r: _Runner, op: scf.ForOp) -> None:
    lb, ub, step = r.int_of(op.lb), r.int_of(op.ub), r.int_of(op.step)
    width = int_width(op.lb.type) or 64
    lb, ub, step = signed_value(lb, width), signed_value(ub, width), signed_value(step, width)
    if step <= 0:
        raise _Stop("a loop with a step that is not positive")
    carried = [r.env.get(v) for v in op.iter_args]
    body = op.body.blocks[0]
    i = lb
    while i < ub:
        out = r.block(body, [i % (1 << width), *carried])
        carried = out if out is not None else carried
        i += step
    for res, v in zip(op.results, carried, strict=False):
        r.env[res] = v


def _while(r: _Runner, op: scf.WhileOp) -> None:
    args = [r.env.get(v) for v in op.arguments]
    before, after = op.before_region.blocks[0], op.after_region.blocks[0]
    while True:
        out = r.block(before, args) or []
        if not out or not isinstance(out[0], int):
            raise _Stop("a loop condition that depends on a value not known here")
        if not out[0]:
            for res, v in zip(op.results, out[1:], strict=False):
                r.env[res] = v
            return
        args = r.block(after, out[1:]) or []


def _set_global_buffer(r: _Runner, op: asc.SetGlobalBufferOp) -> None:
    ptr = r.env.get(op.pointer)
    elem = elem_bytes(op.tensor.type)
    owner = op.tensor.owner
    name = owner.var_name.data if isinstance(owner, asc.GlobalTensorOp) else "a GlobalTensor"
    r.gm[op.tensor] = _GmTensor(ptr.arg, ptr.offset, elem, name) if isinstance(ptr, _Ptr) and elem else None
    loaded = op.tensor.owner
    if isinstance(loaded, memref.LoadOp) and not loaded.indices:
        # a GlobalTensor kept in a variable (a member assigned a sub-tensor later): the variable now holds it
        r.cells[loaded.memref] = r.gm[op.tensor]


def _subtensor(r: _Runner, op: asc.SubTensorOp) -> None:
    base = r.gm.get(op.tensor) if op.tensor in r.gm else r._view(op.tensor)
    off = r.env.get(op.offset)
    if isinstance(base, _GmTensor) and isinstance(off, int):
        width = int_width(op.offset.type) or 64
        r.env[op.result] = _GmTensor(base.arg, base.offset + signed_value(off, width) * base.elem, base.elem, base.name)
    else:
        r.env[op.result] = None


def _ptr_cast(r: _Runner, op: asc.GmPtrCastOp) -> None:
    r.env[op.result] = r.env.get(op.pointer)


def _ptr_offset(r: _Runner, op: asc.GmPtrOffsetOp) -> None:
    ptr, off = r.env.get(op.pointer), r.env.get(op.offset)
    elem = elem_bytes(op.pointer.type)  # gm_ptr<T>: T's size
    width = int_width(op.offset.type) or 64
    r.env[op.result] = _Ptr(ptr.arg, ptr.offset + signed_value(off, width) * elem) \
        if isinstance(ptr, _Ptr) and isinstance(off, int) and elem else None


def _scalar_access(r: _Runner, op: asc.GetValueOp | asc.SetValueOp) -> None:
    if isinstance(op, asc.GetValueOp):
        r.env[op.result] = None
    if not isinstance(op.tensor.type, asc.GlobalTensorType):
        return
    index = r.env.get(op.index)
    write = isinstance(op, asc.SetValueOp)
    if isinstance(index, int):
        width = int_width(op.index.type) or 64
        r.record(op.tensor, signed_value(index, width), 1, write, op)
    elif write:
        r.run.unknown_writes.append(op)


def _pointer_access(r: _Runner, op: asc.GmLoadOp | asc.GmStoreOp) -> None:
    """`ptr[i]` through a raw `__gm__` pointer, read or written."""
    write = isinstance(op, asc.GmStoreOp)
    if not write:
        r.env[op.result] = None
    ptr, index, elem = r.env.get(op.pointer), r.env.get(op.index), elem_bytes(op.pointer.type)
    if isinstance(ptr, _Ptr) and isinstance(index, int) and elem:
        width = int_width(op.index.type) or 64
        r.run.accesses.append(Access(ptr.arg, ptr.offset + signed_value(index, width) * elem, elem, write, op,
                                     op.pointer.name_hint or "a pointer"))
    elif write:
        r.run.unknown_writes.append(op)


def _struct_init(r: _Runner, op: asc.StructInitOp) -> None:
    r.env[op.result] = {name.data: r.env.get(v) for name, v in zip(op.fields.data, op.values, strict=False)}


def _struct_get(r: _Runner, op: asc.StructGetOp) -> None:
    s = r.env.get(op.struct)
    r.env[op.result] = s.get(op.field.data, 0) if isinstance(s, dict) else None


def _struct_set(r: _Runner, op: asc.StructSetOp) -> None:
    s = r.env.get(op.struct)
    r.env[op.result] = {**s, op.field.data: r.env.get(op.value)} if isinstance(s, dict) else None


def _return(r: _Runner, op: Operation) -> None:
    raise _Return()


_HANDLERS = {
    arith.ConstantOp: _constant,
    arith.ExtUIOp: _cast, arith.ExtSIOp: _cast, arith.TruncIOp: _cast, arith.IndexCastOp: _cast,
    arith.CmpiOp: _cmpi,
    arith.SelectOp: _select,
    memref.AllocaOp: _alloca,
    memref.StoreOp: _store,
    memref.LoadOp: _load,
    scf.IfOp: _if,
    scf.ForOp: _for,
    scf.WhileOp: _while,
    asc.SetGlobalBufferOp: _set_global_buffer,
    asc.SubTensorOp: _subtensor,
    asc.GmPtrCastOp: _ptr_cast,
    asc.GmPtrOffsetOp: _ptr_offset,
    asc.GetValueOp: _scalar_access,
    asc.SetValueOp: _scalar_access,
    asc.GmLoadOp: _pointer_access,
    asc.GmStoreOp: _pointer_access,
    asc.StructInitOp: _struct_init,
    asc.StructGetOp: _struct_get,
    asc.StructSetOp: _struct_set,
    asc.ReturnOp: _return,
}  # fmt: skip
