"""The per-core stride of an address: the coefficient of GetBlockIdx() in integer values (v = c * blockIdx +
the same on every core), through arithmetic, memref cells and loops; with the first-iteration variant, the
stride of a GM tensor's base or a pointer, and whether an op runs on one core only.
"""

from __future__ import annotations

from collections.abc import Container

from xdsl.dialects import arith, memref, scf
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from ascendir.dialects import ascendc as asc
from passes.verify.footprint import elem_bytes
from passes.verify.project import cached
from passes.verify.rules import CheckContext


# system APIs that only compute on their scalar arguments
_SCALAR_ARITHMETIC_APIS = frozenset({"DivCeil", "CeilDivision", "AlignUp", "GetDataBlockSizeInBytes"})
_UNIFORM_WHEN_OPERANDS_ARE = (asc.StructGetOp, asc.StructSetOp, asc.StructInitOp, asc.TilingKeyIsOp, asc.CoreIsOp)


class Strides:
    """The coefficient of GetBlockIdx() in integer values: `v = c * blockIdx + (same on every core)`.

    None means not provable (it depends on the block index some other way, or on values we cannot see).
    Loop counters and reassigned locals live in memref cells; a cell keeps the coefficient of its first
    store when every other store adds something the same on every core (`i += blockNum`). A store under a
    condition on the block index is not made on every core, so such a cell is not followed; a store in a
    loop whose trip count differs between cores (`for (c = 0; c < blockIdx; c++) sum += rows[c]`) keeps
    the cell in step only for reads inside that loop.
    """

    def __init__(self) -> None:
        self.memo: dict[SSAValue, int | None] = {}
        self.cells: dict[SSAValue, int | None] = {}
        self.cell_loops: dict[SSAValue, list[Operation]] = {}  # loops around the cell's stores

    def of(self, value: SSAValue) -> int | None:
        if value in self.memo:
            return self.memo[value]
        self.memo[value] = None  # cycles (loop-carried values) stay unknown
        result = self._of(value)
        self.memo[value] = result
        return result

    def _of(self, value: SSAValue) -> int | None:
        if isinstance(value, BlockArgument):
            owner = value.owner.parent_op() if isinstance(value.owner, Block) else None
            if isinstance(owner, asc.KernelOp):
                return 0
            if isinstance(owner, scf.ForOp) and value.index == 0:
                step = self.of(owner.step)
                return self.of(owner.lb) if step == 0 else None
            return None
        op = value.owner
        if isinstance(op, arith.ConstantOp | asc.GetTilingDataOp | asc.EnumConstantOp):
            return 0
        if isinstance(op, asc.TilingFieldOp):
            # the same on every core when read from the tiling data, not from a struct the kernel filled in
            # itself (a row range computed from GetBlockIdx())
            return 0 if self.of(op.operands[0]) == 0 else None
        if isinstance(op, asc.ApiCallOp) and op.FAMILY == "system":
            api = op.api.data
            if api == "GetBlockIdx":
                return 1
            if api in ("GetBlockNum", "GetTaskRation", "GetSubBlockNum"):
                return 0
            if api in _SCALAR_ARITHMETIC_APIS:
                return 0 if all(self.of(o) == 0 for o in op.operands) else None
            return None
        if isinstance(op, arith.ExtUIOp | arith.ExtSIOp | arith.TruncIOp | arith.IndexCastOp):
            return self.of(op.operands[0])
        if isinstance(op, arith.AddiOp | arith.SubiOp):
            a, b = self.of(op.operands[0]), self.of(op.operands[1])
            if a is None or b is None:
                return None
            return a + b if isinstance(op, arith.AddiOp) else a - b
        if isinstance(op, arith.MuliOp):
            a, b = self.of(op.operands[0]), self.of(op.operands[1])
            if a == 0 and b == 0:
                return 0
            if a is None or b is None:
                return None
            if b == 0:
                k = constant_value(op.operands[1])
                return a * k if k is not None else None
            if a == 0:
                k = constant_value(op.operands[0])
                return b * k if k is not None else None
            return None
        if isinstance(op, arith.ShLIOp):
            a, k = self.of(op.operands[0]), constant_value(op.operands[1])
            return a << k if a is not None and k is not None and 0 <= k < 32 and self.of(op.operands[1]) == 0 \
                else None
        if isinstance(op, arith.SelectOp):
            cond, t, f = (self.of(o) for o in op.operands)
            return t if cond == 0 and t == f else None
        if isinstance(op, memref.LoadOp) and not op.indices:
            return self._load(op)
        if op.regions:  # results of scf.if / scf.while: not followed
            return None
        if isinstance(op, asc.GetValueOp | asc.GmLoadOp):
            # data: equal on every core only when read from the same GM address (a per-core table entry
            # `tiling[2 + blockIdx]` read through a pointer is not; UB holds what each core put there)
            if self.of(op.index) != 0:
                return None
            if isinstance(op, asc.GmLoadOp):
                return 0 if _pointer_stride(op.pointer, self) == 0 else None
            return 0 if isinstance(op.tensor.type, asc.GlobalTensorType) and tensor_base_stride(op.tensor, self) == 0 \
                else None
        # arithmetic on values that are the same on every core is the same on every core; any other op (an
        # expression the lowering left undefined, an API reading hardware state) is not followed
        if isinstance(op, _UNIFORM_WHEN_OPERANDS_ARE) or op.name.startswith("arith."):
            return 0 if all(self.of(o) == 0 for o in op.operands) else None
        return None

    def _load(self, load: memref.LoadOp) -> int | None:
        result = self.cell(load.memref)
        if result is not None and any(not loop.is_ancestor(load) and trip_count_varies(loop, self)
                                      for loop in self.cell_loops.get(load.memref, ())):
            return None  # read after a loop that ran a different number of times on each core
        return result

    def cell(self, cell: SSAValue) -> int | None:
        if cell in self.cells:
            return self.cells[cell]
        self.cells[cell] = None
        stores = stores_of(cell)
        result, loops = self.agreed_coefficient(cell, stores) if stores is not None else (None, [])
        self.cells[cell] = result
        self.cell_loops[cell] = loops
        return result

    def agreed_coefficient(self, cell: SSAValue, stores: list[memref.StoreOp],
                           around_read: Container[Operation] = ()) -> tuple[int | None, list[Operation]]:
        """The coefficient `stores` agree on (increments by something the same on every core aside), None if
        they do not or one is made on some cores only; and the loops around them (judged at each read).
        Conditions in `around_read` (those around the read asked about) hold wherever the read runs."""
        first: int | None = None
        loops: list[Operation] = []
        for store in stores:
            for parent in parents(store):
                if isinstance(parent, scf.IfOp) and parent not in around_read and self.of(parent.cond) != 0:
                    return None, loops  # stored on some cores only
                if isinstance(parent, scf.ForOp | scf.WhileOp):
                    loops.append(parent)
            increment = _increment_of(store.value, cell)
            if increment is not None:
                if self.of(increment) != 0:
                    return None, loops
                continue
            coefficient = self.of(store.value)
            if coefficient is None or (first is not None and coefficient != first):
                return None, loops
            first = coefficient
        return first, loops


def stores_of(cell: SSAValue) -> list[memref.StoreOp] | None:
    """The stores to a local's cell; None when the cell is also passed somewhere (a call we inlined by
    reference), whose writes are not followed."""
    if any(not isinstance(use.operation, memref.StoreOp | memref.LoadOp) for use in cell.uses):
        return None
    return [use.operation for use in cell.uses if isinstance(use.operation, memref.StoreOp)]


def parents(op: Operation) -> list[Operation]:
    """The ops enclosing `op`, innermost first, up to its kernel."""
    out = []
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, asc.KernelOp):
        out.append(parent)
        parent = parent.parent_op()
    return out


def trip_count_varies(op: Operation, strides: Strides) -> bool:
    """A loop whose bounds or condition are not provably the same on every core."""
    if isinstance(op, scf.ForOp):
        return any(strides.of(v) != 0 for v in (op.lb, op.ub, op.step))
    if isinstance(op, scf.WhileOp):
        conditions = [o for o in op.before_region.walk() if isinstance(o, scf.ConditionOp)]
        return not conditions or any(strides.of(c.condition) != 0 for c in conditions)
    return False


def _increment_of(stored: SSAValue, cell: SSAValue) -> SSAValue | None:
    """`x` when `stored` is `load(cell) + x` or `x + load(cell)` (or `load(cell) - x`)."""
    op = stored.owner
    if not isinstance(op, arith.AddiOp | arith.SubiOp):
        return None
    a, b = op.operands

    def is_load(v: SSAValue) -> bool:
        while isinstance(v.owner, arith.ExtUIOp | arith.ExtSIOp | arith.TruncIOp | arith.IndexCastOp):
            v = v.owner.operands[0]
        return isinstance(v.owner, memref.LoadOp) and v.owner.memref is cell
    if is_load(a):
        return b
    if is_load(b) and isinstance(op, arith.AddiOp):
        return a
    return None


def constant_value(value: SSAValue) -> int | None:
    from passes.verify.ir import constant_of

    found = constant_of(value)
    return found if isinstance(found, int) else None


class FirstIterationStrides(Strides):
    """The per-core stride of values as they are in the first iteration of every loop around them.

    A core with work runs the first iteration of its loops, so two cores whose first-iteration addresses
    agree write the same bytes. This follows what `Strides` gives up on: a loop counter starts at its lower
    bound whatever its step, and a cell read before the loop body stores it holds what it held on entry
    (`offset = 0; while (offset < coreLength) { copy at offset; offset += len; }` with a per-core `len`).
    Values flowing through cells are still taken from `Strides`: a cell read after a loop holds what its
    last iteration stored.
    """

    def __init__(self, every_iteration: Strides) -> None:
        super().__init__()
        self.every_iteration = every_iteration

    def _of(self, value: SSAValue) -> int | None:
        if isinstance(value, BlockArgument) and value.index == 0 and isinstance(value.owner, Block) \
                and isinstance(value.owner.parent_op(), scf.ForOp):
            return self.of(value.owner.parent_op().lb)  # type: ignore[union-attr]
        return super()._of(value)

    def _load(self, load: memref.LoadOp) -> int | None:
        every = self.every_iteration
        result = every.of(load.results[0])
        if result is not None:
            return result
        cell = load.memref
        stores = stores_of(cell)
        if not stores:
            return None
        # the outermost loop around the load that stores the cell: each of those stores must come after the
        # load in the loop body, so that the first iteration reads the value the cell had on entry
        loops = [p for p in parents(load) if isinstance(p, scf.ForOp | scf.WhileOp)
                 and any(p.is_ancestor(s) for s in stores)]
        if not loops:
            return None
        loop = loops[-1]
        order = {op: i for i, op in enumerate(loop.walk())}
        if any(order[s] < order[load] for s in stores if s in order):
            return None
        entry, around = every.agreed_coefficient(cell, [s for s in stores if s not in order], set(parents(load)))
        if entry is not None and any(not p.is_ancestor(loop) and trip_count_varies(p, every) for p in around):
            return None  # stored by a loop that ran a different number of times on each core
        return entry


def block_strides(ctx: CheckContext) -> Strides:
    return cached(ctx, "coverage.strides", Strides)


def first_iteration_strides(ctx: CheckContext) -> FirstIterationStrides:
    return cached(ctx, "coverage.first_iteration_strides", lambda: FirstIterationStrides(block_strides(ctx)))


def tensor_base_stride(tensor: SSAValue, strides: Strides) -> int | None:
    """The per-core stride of element 0 of a GlobalTensor value: from SetGlobalBuffer's pointer, plus any
    `t[offset]` taken from it."""
    owner = tensor.owner
    if isinstance(owner, asc.SubTensorOp):
        base, offset = tensor_base_stride(owner.tensor, strides), strides.of(owner.offset)
        return base + offset if base is not None and offset is not None else None
    if not isinstance(owner, asc.GlobalTensorOp):
        return None
    bases = {_pointer_stride(use.operation.pointer, strides)
             for use in tensor.uses if isinstance(use.operation, asc.SetGlobalBufferOp)}
    return bases.pop() if len(bases) == 1 else None


def _pointer_stride(pointer: SSAValue, strides: Strides) -> int | None:
    owner = pointer.owner
    if isinstance(owner, asc.GmPtrCastOp):
        # a cast to another element type changes the unit: only followed when nothing was added before it
        inner = _pointer_stride(owner.pointer, strides)
        return 0 if inner == 0 else None
    if isinstance(owner, asc.GmPtrOffsetOp):
        base, offset = _pointer_stride(owner.pointer, strides), strides.of(owner.offset)
        return base + offset if base is not None and offset is not None else None
    if isinstance(pointer, BlockArgument):
        return 0
    return None


def element_bytes(tensor: SSAValue) -> int | None:
    return elem_bytes(tensor.type)


def tensor_name(tensor: SSAValue) -> str:
    tensor = base_tensor(tensor)
    if isinstance(tensor.owner, asc.GlobalTensorOp):
        return tensor.owner.var_name.data
    return tensor.name_hint or "the tensor"


def single_core_guard(op: Operation, strides: Strides) -> bool:
    """Inside `if (GetBlockIdx() == k)` (or the else of `!=`): only one core runs the write."""
    child: Operation = op
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, asc.KernelOp):
        if isinstance(parent, scf.IfOp):
            cond = parent.cond.owner
            if isinstance(cond, arith.CmpiOp) and cond.predicate.value.data in (0, 1):  # eq, ne
                a, b = strides.of(cond.lhs), strides.of(cond.rhs)
                if (a or b) and 0 in (a, b):
                    in_then = child.parent_region() is parent.true_region
                    if in_then == (cond.predicate.value.data == 0):
                        return True
        child = parent
        parent = parent.parent_op()
    return False


def base_tensor(tensor: SSAValue) -> SSAValue:
    """The GlobalTensor that `tensor` is, or is a chain of `t[off]` of."""
    while isinstance(tensor.owner, asc.SubTensorOp):
        tensor = tensor.owner.tensor
    return tensor
