"""Tiling and coverage (ASC602-ASC607): what the cores of one launch write, and whether the launch happens.

Each core of a launch runs the same kernel and tells itself apart only by GetBlockIdx(). These rules ask,
of every write to global memory, how its address moves from one core to the next (the per-core stride,
`ascendir/analysis` style but kept small: an affine coefficient of the block index), and combine that with
what is provable about blockDim: a literal SetBlockDim / launch, the host tiling function run on concrete
shapes (`--shape`, a test case file), or a kernel-only benchmark answer, which that benchmark launches on
every vector core. Nothing is reported on a guess: an unknown stride or an unknown blockDim is silence.
"""

from __future__ import annotations

from collections.abc import Callable, Container
from dataclasses import dataclass
from typing import NamedTuple

from xdsl.dialects import arith, memref, scf
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from ascendir.dialects import ascendc as asc
from frontend import ast as A
from frontend.diagnostics import Note, Severity
from passes.verify.alignment_offsets import unguarded_within
from passes.verify.footprint import Access, CoreRun, elem_bytes
from passes.verify.ir import is_kind, kernels_of, ops_of, walk_of
from passes.verify.kernel_only import is_kernel_only, op_description
from passes.verify.project import cached, calls, const_int, functions, nodes, report_once, span, units
from passes.verify.rules import CheckContext, rule

CACHE_LINE = 64  # bytes: the unit in which a core's data cache writes scalar stores back to GM

# ------------------------------------------------------------------ how many cores run the kernel


@dataclass(frozen=True)
class BlockDim:
    """What is provable about blockDim: the possible values (None: unknown) and where they come from."""

    values: frozenset[int] | None
    source: str

    @property
    def exactly_one(self) -> bool:
        return self.values == frozenset({1})

    @property
    def more_than_one(self) -> int | None:
        """The smallest blockDim when every possible value is above 1, else None."""
        if not self.values or min(self.values) <= 1:
            return None
        return min(self.values)


def block_dim(ctx: CheckContext) -> BlockDim:
    return cached(ctx, "coverage.block_dim", lambda: _block_dim(ctx))


def _block_dim(ctx: CheckContext) -> BlockDim:
    if ctx.tiling is not None and ctx.tiling.succeeded and ctx.tiling.block_dim is not None:
        return BlockDim(frozenset({ctx.tiling.block_dim}), "the tiling function sets blockDim "
                        f"{ctx.tiling.block_dim} for the given shapes")
    values: set[int] = set()
    seen_any = False
    walked = nodes(ctx, "host", "kernel", "other")  # the run's shared walk
    counts = [(c.args[0], "SetBlockDim with a value known only at run time")
              for c in calls(walked, "SetBlockDim") if isinstance(c.callee, A.Member) and c.args]
    counts += [(n.config[0], "a launch with a blockDim known only at run time")
               for n in walked if isinstance(n, A.KernelLaunch) and n.config]
    bodies: dict[int, list[A.Node]] = {}
    for expr, unknown in counts:
        seen_any = True
        value = _int_value(expr, lambda e=expr: _enclosing_nodes(ctx, e, bodies), ctx)
        if value is None:
            return BlockDim(None, unknown)
        values.add(value)
    if seen_any:
        return BlockDim(frozenset(values), f"blockDim {'/'.join(map(str, sorted(values)))} (a constant)")
    if ctx.program is not None and ctx.program.bundle.format == "npukernelbench" and not units(ctx, "host"):
        cores = ctx.chip.max_block_dim("aiv")
        return BlockDim(frozenset({int(cores)}), f"a kernel-only answer runs on all {cores} vector cores of "
                        f"{ctx.chip.name}")
    return BlockDim(None, "no launch or SetBlockDim in the sources")


def _enclosing_nodes(ctx: CheckContext, expr: A.Node, bodies: dict[int, list[A.Node]]) -> list[A.Node]:
    """Every node of the function definition `expr` is in (walked once per function), or []."""
    where = span(expr)
    for fn in functions(ctx):
        s = span(fn)
        if s.file == where.file and (s.line, s.col) <= (where.line, where.col) \
                and (where.end_line, where.end_col) <= (s.end_line, s.end_col):
            if id(fn) not in bodies:
                bodies[id(fn)] = list(fn.walk())
            return bodies[id(fn)]
    return []


def _int_value(node: A.Node, fn_nodes: Callable[[], list[A.Node]], ctx: CheckContext) -> int | None:
    """An integer the expression certainly has: a literal, a ternary of equal literals, or a name bound to
    one (a file-level constant, or a local of the enclosing function, `fn_nodes()`, initialised once and
    never assigned again)."""
    value = const_int(node)
    if value is not None:
        return value
    if isinstance(node, A.Cast) and node.expr is not None:
        return _int_value(node.expr, fn_nodes, ctx)
    if isinstance(node, A.Name) and len(node.qname.parts) == 1:
        name = node.qname.parts[-1].name
        local = _local_constant(name, fn_nodes())
        if local is not None:
            return local
        return _file_constants(ctx).get(name)
    return None


def _local_constant(name: str, fn_nodes: list[A.Node]) -> int | None:
    inits = [d.init for n in fn_nodes if isinstance(n, A.VarDecl) for d in n.declarators if d.name == name]
    if len(inits) != 1 or inits[0] is None:
        return None
    for n in fn_nodes:  # any later assignment, increment or address taken: not a constant
        if isinstance(n, A.Assign) and _names(n.target, name):
            return None
        if isinstance(n, A.Unary) and n.op == "&" and _names(n.operand, name):
            return None
        if isinstance(n, A.IncDec) and _names(n.operand, name):
            return None
    return const_int(inits[0])


def _names(node: A.Node, name: str) -> bool:
    return isinstance(node, A.Name) and node.qname.parts[-1].name == name


def _file_constants(ctx: CheckContext) -> dict[str, int]:
    def collect() -> dict[str, int]:
        found: dict[str, int | None] = {}
        for unit in units(ctx):
            for node in unit.walk():
                if isinstance(node, A.VarDecl) and ("constexpr" in node.specifiers or "const" in node.specifiers
                                                    or any("const" in d.type.qualifiers for d in node.declarators)):
                    for d in node.declarators:
                        value = const_int(d.init) if d.init is not None else None
                        found[d.name] = value if found.get(d.name, value) == value else None
        return {k: v for k, v in found.items() if v is not None}
    return cached(ctx, "coverage.file_constants", collect)


# ------------------------------------------------------------------ per-core stride of an address


# system APIs that only compute on their scalar arguments
_SCALAR_ARITHMETIC_APIS = frozenset({"DivCeil", "CeilDivision", "AlignUp", "GetDataBlockSizeInBytes"})
_UNIFORM_WHEN_OPERANDS_ARE = (asc.StructGetOp, asc.StructSetOp, asc.StructInitOp, asc.TilingKeyIsOp, asc.CoreIsOp)


class _Strides:
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
                k = _constant(op.operands[1])
                return a * k if k is not None else None
            if a == 0:
                k = _constant(op.operands[0])
                return b * k if k is not None else None
            return None
        if isinstance(op, arith.ShLIOp):
            a, k = self.of(op.operands[0]), _constant(op.operands[1])
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
            return 0 if isinstance(op.tensor.type, asc.GlobalTensorType) and _tensor_base_stride(op.tensor, self) == 0 \
                else None
        # arithmetic on values that are the same on every core is the same on every core; any other op (an
        # expression the lowering left undefined, an API reading hardware state) is not followed
        if isinstance(op, _UNIFORM_WHEN_OPERANDS_ARE) or op.name.startswith("arith."):
            return 0 if all(self.of(o) == 0 for o in op.operands) else None
        return None

    def _load(self, load: memref.LoadOp) -> int | None:
        result = self.cell(load.memref)
        if result is not None and any(not loop.is_ancestor(load) and _trip_count_varies(loop, self)
                                      for loop in self.cell_loops.get(load.memref, ())):
            return None  # read after a loop that ran a different number of times on each core
        return result

    def cell(self, cell: SSAValue) -> int | None:
        if cell in self.cells:
            return self.cells[cell]
        self.cells[cell] = None
        stores = _stores_of(cell)
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
            for parent in _parents(store):
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


def _stores_of(cell: SSAValue) -> list[memref.StoreOp] | None:
    """The stores to a local's cell; None when the cell is also passed somewhere (a call we inlined by
    reference), whose writes are not followed."""
    if any(not isinstance(use.operation, memref.StoreOp | memref.LoadOp) for use in cell.uses):
        return None
    return [use.operation for use in cell.uses if isinstance(use.operation, memref.StoreOp)]


def _parents(op: Operation) -> list[Operation]:
    """The ops enclosing `op`, innermost first, up to its kernel."""
    out = []
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, asc.KernelOp):
        out.append(parent)
        parent = parent.parent_op()
    return out


def _trip_count_varies(op: Operation, strides: _Strides) -> bool:
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


def _constant(value: SSAValue) -> int | None:
    from passes.verify.ir import constant_of

    found = constant_of(value)
    return found if isinstance(found, int) else None


class _FirstIterationStrides(_Strides):
    """The per-core stride of values as they are in the first iteration of every loop around them.

    A core with work runs the first iteration of its loops, so two cores whose first-iteration addresses
    agree write the same bytes. This follows what `_Strides` gives up on: a loop counter starts at its lower
    bound whatever its step, and a cell read before the loop body stores it holds what it held on entry
    (`offset = 0; while (offset < coreLength) { copy at offset; offset += len; }` with a per-core `len`).
    Values flowing through cells are still taken from `_Strides`: a cell read after a loop holds what its
    last iteration stored.
    """

    def __init__(self, every_iteration: _Strides) -> None:
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
        stores = _stores_of(cell)
        if not stores:
            return None
        # the outermost loop around the load that stores the cell: each of those stores must come after the
        # load in the loop body, so that the first iteration reads the value the cell had on entry
        loops = [p for p in _parents(load) if isinstance(p, scf.ForOp | scf.WhileOp)
                 and any(p.is_ancestor(s) for s in stores)]
        if not loops:
            return None
        loop = loops[-1]
        order = {op: i for i, op in enumerate(loop.walk())}
        if any(order[s] < order[load] for s in stores if s in order):
            return None
        entry, around = every.agreed_coefficient(cell, [s for s in stores if s not in order], set(_parents(load)))
        if entry is not None and any(not p.is_ancestor(loop) and _trip_count_varies(p, every) for p in around):
            return None  # stored by a loop that ran a different number of times on each core
        return entry


def _strides(ctx: CheckContext) -> _Strides:
    return cached(ctx, "coverage.strides", _Strides)


def _first_iteration_strides(ctx: CheckContext) -> _FirstIterationStrides:
    return cached(ctx, "coverage.first_iteration_strides", lambda: _FirstIterationStrides(_strides(ctx)))


def _tensor_base_stride(tensor: SSAValue, strides: _Strides) -> int | None:
    """The per-core stride of element 0 of a GlobalTensor value: from SetGlobalBuffer's pointer, plus any
    `t[offset]` taken from it."""
    owner = tensor.owner
    if isinstance(owner, asc.SubTensorOp):
        base, offset = _tensor_base_stride(owner.tensor, strides), strides.of(owner.offset)
        return base + offset if base is not None and offset is not None else None
    if not isinstance(owner, asc.GlobalTensorOp):
        return None
    bases = {_pointer_stride(use.operation.pointer, strides)
             for use in tensor.uses if isinstance(use.operation, asc.SetGlobalBufferOp)}
    return bases.pop() if len(bases) == 1 else None


def _pointer_stride(pointer: SSAValue, strides: _Strides) -> int | None:
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


def _element_bytes(tensor: SSAValue) -> int | None:
    return elem_bytes(tensor.type)


def _tensor_name(tensor: SSAValue) -> str:
    tensor = _base_tensor(tensor)
    if isinstance(tensor.owner, asc.GlobalTensorOp):
        return tensor.owner.var_name.data
    return tensor.name_hint or "the tensor"


def _single_core_guard(op: Operation, strides: _Strides) -> bool:
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


# ------------------------------------------------------------------ the rules


@rule(
    "ASC602", "tiling-function-fails", "tiling",
    summary="The host tiling function fails for the given input shapes.",
    why="The host runs TilingFunc before every launch; when it returns GRAPH_FAILED or faults (a division "
        "by zero, an index past a shape's rank), aclnn reports `EZ9999: Inner Error` and the kernel never "
        "runs. The Matmul API's `GetTiling` counts too: it returns -1 (`do tiling failed, ret is -1`) for a "
        "fixed split whose base blocks do not fit L0A, L0B or L0C, a baseN over 256 with a bias on the 910B, "
        "a fixed base larger than M or N, or a zero M, N or K. Only checked when concrete shapes are given "
        "(`--shape`, `--test-case`).",
    example="if (shape.GetDimNum() != 2) { return ge::GRAPH_FAILED; }   // called with a 3-D input",
    instead="handle every rank and size the operator accepts, or reject them in InferShape with a message",
)
def tiling_function_fails(ctx: CheckContext) -> None:
    result = ctx.tiling
    if result is None or result.succeeded:
        return
    notes = [Note(m) for m in result.diagnostics[1:4]]
    if result.status is None and result.failure_op is None:
        ctx.report(None, "the host tiling function could not be run for the given shapes: "
                   + (result.diagnostics[0] if result.diagnostics else "nothing to run"), *notes,
                   severity=Severity.WARNING)
        return
    failures = [m for m in result.diagnostics if "not modelled" not in m] or result.diagnostics
    message = failures[0] if failures else "the tiling function failed"
    where = result.failure_op if result.failure_op is not None and result.failure_op.location else None
    if result.missing_inputs:  # the caller gave too few shapes or attributes: not the program's fault
        ctx.report(where, f"the shapes given are not enough to run the tiling function: {message}",
                   Note("give a --shape for every input of the op, in op order (and --attr for its attributes)",
                        kind="help"), severity=Severity.WARNING)
        return
    if not result.complete:  # the lowering left parts out: the failure may be ours, not the program's
        ctx.report(where, f"for the given shapes, {message}", Note(
            "the host lowering does not model all of this function, so this may not happen on the device"),
            severity=Severity.WARNING)
        return
    ctx.report(where, f"for the given shapes, {message}", *notes)


@rule(
    "ASC603", "output-written-by-every-core", "tiling",
    summary="The kernel runs on several cores but never reads GetBlockIdx(): every core writes the same output.",
    why="All blocks of a launch run the same code; without GetBlockIdx() they compute the same elements and "
        "write them to the same global addresses at once. When every write stores the same values the result "
        "survives, but the work is done blockDim times over; atomic accumulations, in-place updates and "
        "anything that reads the output back come out wrong. A warning: the stores alone are not provably "
        "a wrong result.",
    severity=Severity.WARNING,
    example="context->SetBlockDim(8);\n...\nDataCopy(yGm[i * tileLength], yLocal, tileLength);   // no GetBlockIdx()",
    instead="xGm.SetGlobalBuffer((__gm__ float*)x + blockLength * AscendC::GetBlockIdx(), blockLength);",
)
def output_written_by_every_core(ctx: CheckContext) -> None:
    dim = block_dim(ctx)
    cores = dim.more_than_one
    if cores is None:
        return
    for kernel in kernels_of(ctx):
        first_write: Operation | None = None
        for op in walk_of(kernel):
            if _tells_cores_apart(op):
                first_write = None
                break
            if first_write is None and _writes_gm(op):
                first_write = op
        if first_write is not None:
            ctx.report(first_write, f"every one of the {cores} cores writes this: the kernel never reads "
                       "GetBlockIdx(), so all blocks compute and store the same elements",
                       Note(f"{dim.source}"),
                       Note("give each core its own slice: offset the GlobalTensors by "
                            "GetBlockIdx() * blockLength", kind="help"))


_OPAQUE_CODE = (asc.OpaqueCallOp, asc.MatmulObjectOp)  # calls not modelled; a Matmul object's library code
_GM_SCALAR_STORES = (asc.SetValueOp, asc.GmStoreOp)


def _unseen(op: Operation) -> bool:
    """Code the checker does not see into: an unmodelled call, a Matmul object (whose library code splits the
    work by block itself and writes GM)."""
    if is_kind(op, asc.ObjectOp):  # a UB allocator only hands out local memory
        return not op.result.type.type_name.data.startswith("LocalMemAllocator")
    return is_kind(op, _OPAQUE_CODE) or (
        is_kind(op, asc.ApiCallOp) and op.FAMILY == "matmul_call")


def _tells_cores_apart(op: Operation) -> bool:
    """Reads the block index, or is code we do not see into and so might."""
    return _unseen(op) or (is_kind(op, asc.ApiCallOp)
                           and op.api.data in ("GetBlockIdx", "GetSubBlockIdx", "GetProcId"))


def _writes_gm(op: Operation) -> bool:
    if is_kind(op, _GM_SCALAR_STORES):
        return isinstance(op.operands[0].type, asc.GlobalTensorType | asc.GmPtrType)
    return _copies_to_gm(op)


@rule(
    "ASC606", "output-written-by-two-cores", "tiling",
    summary="A DataCopy to global memory writes the same addresses on every core (or, for the given shapes, "
            "two cores' output slices overlap).",
    why="Every block of a launch runs the kernel with its own GetBlockIdx(); a core's output slice must be "
        "offset by it. A GlobalTensor set up without the core offset (the `+ blockIdx * blockLength` left out "
        "of SetGlobalBuffer, or an index that does not move with the block) makes all cores store to the first "
        "core's slice at once: the rest of the output is never written, and what is written is whichever "
        "core's DMA landed last. The per-core offset of each write is worked out from the IR; with concrete "
        "shapes the first two and the last two cores' written bytes are compared. Writes with atomic "
        "accumulation on, writes under a condition on the block index, and kernels the checker cannot see "
        "all of are left alone. Without a known blockDim this is a warning: on one core nothing overlaps.",
    example="xGm.SetGlobalBuffer((__gm__ half*)x + blockLength * GetBlockIdx(), blockLength);\n"
            "zGm.SetGlobalBuffer((__gm__ half*)z, blockLength);      // no core offset\n"
            "DataCopy(zGm[i * tileLength], zLocal, tileLength);",
    instead="zGm.SetGlobalBuffer((__gm__ half*)z + blockLength * GetBlockIdx(), blockLength);",
)
def output_written_by_two_cores(ctx: CheckContext) -> None:
    dim = block_dim(ctx)
    if dim.exactly_one:
        return
    reported = _overlapping_core_writes(ctx)
    strides = _strides(ctx)
    first = _first_iteration_strides(ctx)
    cores = dim.more_than_one
    for kernel in kernels_of(ctx):
        ops = walk_of(kernel)
        if not any(isinstance(op, asc.ApiCallOp) and op.api.data == "GetBlockIdx" for op in ops):
            continue  # never told apart: ASC603's case
        if _any_unseen_or_atomic(ctx, kernel):
            continue
        for op in ops:
            if op in reported or not _copies_to_gm(op) or _tensor_base_stride(op.args[0], first) != 0:
                continue
            if not _runs_on_every_core(op, first):  # (a single-core guard is a condition on the block index)
                continue
            name = _tensor_name(op.args[0])
            every_iteration = _tensor_base_stride(op.args[0], strides) == 0 and _runs_on_every_core(op, strides)
            in_loop = any(isinstance(p, scf.ForOp | scf.WhileOp) for p in _parents(op))
            where = " in the first iteration of the loop around it" if not every_iteration and in_loop else ""
            with_work = not every_iteration and not in_loop  # passed only a test that the core has work
            reported.add(op)
            setup = [ctx.note_at(s, f"'{name}' is set up here, at the same address on every core")
                     for s in _buffer_setups(op.args[0]) if s.location is not None]
            help_note = Note(f"offset '{name}' by the core's slice: SetGlobalBuffer(... + GetBlockIdx() * "
                             "blockLength, blockLength), or index it with the block", kind="help")
            if cores is not None:
                who = f"the cores with work (of {cores})" if with_work else f"all {cores} cores"
                ctx.report(op, f"{who} write the same elements of '{name}'{where}: the address of "
                           "this copy does not depend on GetBlockIdx()", *setup, Note(dim.source), help_note)
            else:
                who = "every core with work" if with_work else "every core"
                ctx.report(op, f"{who} writes the same elements of '{name}'{where}: the address of this copy "
                           "does not depend on GetBlockIdx(), though the kernel reads it", *setup, Note(
                               "on more than one core the cores overwrite each other's results and the rest of "
                               "the output is never written"), help_note, severity=Severity.WARNING)


def _buffer_setups(tensor: SSAValue) -> list[Operation]:
    """The SetGlobalBuffer calls of the GlobalTensor that `tensor` is (a sub-tensor of)."""
    return [use.operation for use in _base_tensor(tensor).uses if isinstance(use.operation, asc.SetGlobalBufferOp)]


def _copies_to_gm(op: Operation) -> bool:
    return is_kind(op, asc.DataCopyOp) and bool(op.args) and isinstance(op.args[0].type, asc.GlobalTensorType)


def _any_unseen_or_atomic(ctx: CheckContext, kernel: asc.KernelOp) -> bool:
    """Whether any op of `kernel` is `_unseen_or_atomic`: then no rule judges its cores' GM writes against
    each other (asked by ASC606 twice and by ASC607, once per run)."""
    return cached(ctx, ("coverage.unseen_or_atomic", id(kernel)),
                  lambda: any(_unseen_or_atomic(op) for op in walk_of(kernel)))


def _unseen_or_atomic(op: Operation) -> bool:
    """Code that may write GM with atomic accumulation (overlapping writes are then the point), or that the
    checker does not see into."""
    return _unseen(op) or (is_kind(op, asc.ApiCallOp)
                           and op.api.data.startswith(("SetAtomic", "SetStoreAtomic")))


def _runs_on_every_core(op: Operation, strides: _Strides) -> bool:
    """No enclosing condition depends on the block index (or on anything not provably the same on every
    core), so no core is kept from `op` by a guard. A for loop whose trip count differs between cores (a
    former / tail split of rows) still runs its first iteration on every core that has work, so only
    conditions and while loops count. A condition `n == 1` (or the else of `n != 1`) is read as a test for
    a single-core launch (`if (blockNum == 1) { write the result; return; }`), which the checker cannot
    tell from other tests of a count."""
    child = op
    first_iteration = isinstance(strides, _FirstIterationStrides)
    for parent in _parents(op):
        if isinstance(parent, scf.IfOp) and first_iteration and (
                _work_test(parent, child, strides) or _written_in_both_arms(parent, child, op, strides)):
            child = parent
            continue
        if isinstance(parent, scf.IfOp):
            if strides.of(parent.cond) != 0:
                return False
            cond = parent.cond.owner
            if (isinstance(cond, arith.CmpiOp) and cond.predicate.value.data in (0, 1)
                    and 1 in (_constant(cond.lhs), _constant(cond.rhs))
                    and (child.parent_region() is parent.true_region) == (cond.predicate.value.data == 0)):
                return False
        if isinstance(parent, scf.WhileOp) and _trip_count_varies(parent, strides) and not (
                first_iteration and _bound_test(parent)):
            return False
        child = parent
    return True


def _bound_test(loop: scf.WhileOp) -> bool:
    """The loop runs while a value is below (or above) a bound, `offset < coreLength`: like a for loop, its
    first iteration runs on every core that has work. (A test for equality could single one core out.) A
    loop with a `break` tests its break flag too, which is clear when the loop starts."""
    conditions = [o.condition for o in loop.before_region.walk() if isinstance(o, scf.ConditionOp)]
    return bool(conditions) and all(_bound_or_unbroken(c, loop) for c in conditions)


def _bound_or_unbroken(condition: SSAValue, loop: scf.WhileOp) -> bool:
    test = condition.owner
    if isinstance(test, arith.AndIOp):
        return all(_bound_or_unbroken(v, loop) for v in test.operands)
    if isinstance(test, arith.CmpiOp):
        return test.predicate.value.data >= 2  # not eq/ne
    # `!broken`: a flag the loop body sets, false on entry
    if isinstance(test, arith.XOrIOp) and _constant(test.rhs) in (1, -1) and isinstance(test.lhs.owner, memref.LoadOp):
        flag = test.lhs.owner.memref
        before = [s for s in _stores_of(flag) or [] if not loop.is_ancestor(s)]
        return len(before) == 1 and before[0].parent_block() is loop.parent_block() \
            and _constant(before[0].value) == 0
    return False


def _work_test(branch: scf.IfOp, child: Operation, strides: _Strides) -> bool:
    """`child` runs only where a count is not zero: the else of `if (coreLength == 0) return;` or of
    `if (curLen == 0) break;`, the then of `if (rows > 0)`. Every core with work passes it. (Not a test of
    the block index itself: the else of `if (GetBlockIdx() == 0)` leaves one core out.)"""
    test = branch.cond.owner
    if not isinstance(test, arith.CmpiOp) or _constant(test.rhs) != 0 or strides.of(test.lhs) not in (None, 0):
        return False
    in_then = child.parent_region() is branch.true_region
    predicate = test.predicate.value.data  # eq ne slt sle sgt sge ult ule ugt uge
    return (predicate == 0 and not in_then) or (predicate in (1, 4, 8) and in_then)


def _written_in_both_arms(branch: scf.IfOp, child: Operation, op: Operation, strides: _Strides) -> bool:
    """The other arm of `branch` writes the same GM tensor at the same core-independent address as `op`
    (`if (full) DataCopy(y[off], ...) else DataCopyPad(y[off], ...)`): whichever arm a core takes, it
    writes there."""
    if not _copies_to_gm(op):
        return False
    other = branch.false_region if child.parent_region() is branch.true_region else branch.true_region
    base = _base_tensor(op.args[0])
    for candidate in other.walk():
        if _copies_to_gm(candidate) and _base_tensor(candidate.args[0]) is base \
                and _tensor_base_stride(candidate.args[0], strides) == 0 and unguarded_within(candidate, branch):
            return True
    return False


def _base_tensor(tensor: SSAValue) -> SSAValue:
    """The GlobalTensor that `tensor` is, or is a chain of `t[off]` of."""
    while isinstance(tensor.owner, asc.SubTensorOp):
        tensor = tensor.owner.tensor
    return tensor


def _overlapping_core_writes(ctx: CheckContext) -> set[Operation]:
    """ASC606 with concrete shapes: DataCopy writes of two neighbouring cores that land on the same bytes of
    one GM argument. Returns the ops reported."""
    reported: set[Operation] = set()
    for kernel, dim, runs in _footprints(ctx):
        if _any_unseen_or_atomic(ctx, kernel):
            continue
        for a, b in _neighbouring_cores(dim, runs):
            earlier = [w for w in runs[a].accesses if w.write and _copies_to_gm(w.op)]
            for w in runs[b].accesses:
                if not w.write or not _copies_to_gm(w.op) or w.op in reported:
                    continue
                other = next((o for o in earlier if o.arg == w.arg and o.offset < w.offset + w.size
                              and w.offset < o.offset + o.size), None)
                if other is None:
                    continue
                _report_overlap(ctx, dim, a, other, b, w)
                reported.add(w.op)
        runs_all = _every_core(ctx, kernel, dim, runs)
        for b, w, a, other in _overlaps_between_cores(runs_all or []):
            if w.op not in reported:
                _report_overlap(ctx, dim, a, other, b, w)
                reported.add(w.op)
    return reported


def _report_overlap(ctx: CheckContext, dim: int, a: int, other: Access, b: int, w: Access) -> None:
    """Core `b`'s write `w` lands on bytes core `a` writes with `other`."""
    start, end = max(w.offset, other.offset), min(w.offset + w.size, other.offset + other.size)
    report_once(ctx, w.op, f"cores {a} and {b} both write bytes [{start}, {end}) of '{w.tensor}': "
                "their output slices overlap", *([ctx.note_at(other.op, f"core {a} writes them here")]
                                                 if other.op is not w.op else []),
                Note(f"for the given shapes, with blockDim {dim}"),
                Note("derive each core's offset and length from GetBlockIdx() so that the slices "
                     "tile the output", kind="help"))


def _overlaps_between_cores(runs: list[CoreRun]) -> list[tuple[int, Access, int, Access]]:
    """(core, write, other core, its earlier write over some of the same bytes) for the DataCopy writes to GM of all
    cores, in address order. Per argument, the writes of other cores that reach furthest are the farthest
    reach and, if that is the same core's, the farthest reach of any other core."""
    by_arg: dict[int, list[tuple[int, Access]]] = {}
    for run in runs:
        for w in run.accesses:
            if w.write and _copies_to_gm(w.op):
                by_arg.setdefault(w.arg, []).append((run.block_idx, w))
    found = []
    for writes in by_arg.values():
        writes.sort(key=lambda cw: cw[1].offset)
        reach: tuple[int, Access] | None = None  # (core, write) ending furthest
        other: tuple[int, Access] | None = None  # the same of a core other than reach's
        for core, w in writes:
            candidate = reach if reach is not None and reach[0] != core else other
            if candidate is not None and candidate[1].offset + candidate[1].size > w.offset:
                found.append((core, w, *candidate))
            end = w.offset + w.size
            if reach is None or end > reach[1].offset + reach[1].size:
                if reach is not None and reach[0] != core:
                    other = reach
                reach = (core, w)
            elif core != reach[0] and (other is None or end > other[1].offset + other[1].size):
                other = (core, w)
    return found


@rule(
    "ASC604", "gm-scalar-write-shares-cache-line", "tiling",
    summary="Cores write neighbouring GM elements with SetValue: they share a 64-byte cache line and overwrite "
            "each other.",
    why="GlobalTensor::SetValue writes into the core's data cache, which is written back to GM a whole "
        "64-byte cache line at a time. When two cores store into the same line, the line written back last "
        "carries stale copies of the other core's elements: results vanish at random. Addresses written by "
        "different cores must be at least a cache line apart.",
    example="yGm.SetValue(GetBlockIdx(), sum);          // 4 bytes apart: 16 cores share one line\n"
            "for (i = GetBlockIdx(); i < n; i += GetBlockNum()) yGm.SetValue(i, v);",
    instead="collect the results in UB and write them with DataCopy (one core per 32-byte-aligned slice),\n"
            "or give each core a slice of at least 64 bytes: yGm.SetValue(GetBlockIdx() * 16, sum)",
)
def gm_scalar_write_shares_cache_line(ctx: CheckContext) -> None:
    dim = block_dim(ctx)
    if dim.exactly_one:
        return
    concrete = _shared_lines(ctx)
    strides = _strides(ctx)
    for op in ops_of(ctx):
        if not is_kind(op, asc.SetValueOp) or not isinstance(op.tensor.type, asc.GlobalTensorType) \
                or op in concrete:
            continue
        base = _tensor_base_stride(op.tensor, strides)
        index = strides.of(op.index)
        size = _element_bytes(op.tensor)
        if base is None or index is None or size is None:
            continue
        stride = base + index
        if stride == 0 or abs(stride) * size >= CACHE_LINE:
            continue
        if _single_core_guard(op, strides):
            continue
        name = _tensor_name(op.tensor)
        cores_per_line = CACHE_LINE // (abs(stride) * size)
        report_once(ctx, op, f"neighbouring cores write elements of '{name}' {abs(stride) * size} bytes apart: "
                    f"up to {cores_per_line} cores share each 64-byte cache line, and SetValue's cache "
                    "write-back overwrites the other cores' results",
                    Note(dim.source if dim.values else "blockDim is not provably 1"),
                    Note("write per-core results to UB and DataCopy them out, or space the cores' elements "
                         f"at least {CACHE_LINE} bytes apart", kind="help"))



# ------------------------------------------------------------------ GM footprints for concrete shapes


def _footprints(ctx: CheckContext) -> list[tuple[asc.KernelOp, int, dict[int, CoreRun]]]:
    """Per kernel: blockDim and the GM accesses of the sampled cores (0, 1, the last two), for the shapes
    given; empty without shapes. Computed once per check run."""
    from passes.verify.footprint import run_core

    def compute() -> list[tuple[asc.KernelOp, int, dict[int, CoreRun]]]:
        if ctx.tiling is None or not ctx.tiling.succeeded or not ctx.tiling.block_dim:
            return []
        dim = ctx.tiling.block_dim
        out = []
        for kernel in kernels_of(ctx):
            cores = sorted({0, min(1, dim - 1), max(dim - 2, 0), dim - 1})
            out.append((kernel, dim, {core: run_core(kernel, core, dim) for core in cores}))
        return out
    return cached(ctx, "coverage.footprints", compute)


def _neighbouring_cores(dim: int, runs: dict[int, CoreRun]) -> list[tuple[int, int]]:
    """The pairs of neighbouring cores whose slices are compared: the first two and the last two that ran."""
    return [(a, b) for a, b in ((0, 1), (dim - 2, dim - 1)) if a != b and a in runs and b in runs]


def _shared_lines(ctx: CheckContext) -> set[Operation]:
    """ASC604 with concrete shapes: scalar GM writes of two neighbouring cores that land in one cache line.
    Returns the ops reported."""
    reported: set[Operation] = set()
    for _, dim, runs in _footprints(ctx):
        for a, b in _neighbouring_cores(dim, runs):
            lines: dict[tuple[int, int], Access] = {}
            for w in runs[a].accesses:
                if w.write and isinstance(w.op, asc.SetValueOp):
                    lines.setdefault((w.arg, w.offset // CACHE_LINE), w)
            for w in runs[b].accesses:
                if not w.write or not isinstance(w.op, asc.SetValueOp) or w.op in reported:
                    continue
                other = lines.get((w.arg, w.offset // CACHE_LINE)) or lines.get((w.arg, (w.offset + w.size - 1)
                                                                                 // CACHE_LINE))
                if other is None:
                    continue
                line = w.offset // CACHE_LINE * CACHE_LINE
                report_once(ctx, w.op, f"cores {a} and {b} both write '{w.tensor}' within the 64-byte cache line at "
                            f"byte {line}: SetValue's cache write-back overwrites the other core's results",
                            ctx.note_at(other.op, f"core {a} writes byte {other.offset} of the same line here")
                            if other.op is not w.op else Note(f"core {a} writes byte {other.offset} of the same line"),
                            Note(f"core {b} writes byte {w.offset}; with the given shapes the cores' slices are not "
                                 "cache-line aligned"),
                            Note("write per-core results to UB and DataCopy them out, or align each core's slice to "
                                 f"{CACHE_LINE} bytes", kind="help"))
                reported.add(w.op)
                break
    return reported

def _dtype_bytes(name: str) -> int | None:
    """Bytes per element of a numpy-style dtype name ("float16"), or None for one we do not know."""
    from ascendir.dialects.host import GE_DATA_TYPE_SIZES
    from ascendir.host_eval import HostEvalError, ge_dtype

    try:
        return GE_DATA_TYPE_SIZES.get(ge_dtype(name))
    except HostEvalError:
        return None


class _Extent(NamedTuple):
    """An op input or output whose shape is known, as the rules name it."""

    kind: str  # "input" or "output"
    name: str
    nbytes: int
    shape: str  # "10x100 float32"
    elem: int  # bytes per element


def _tensor_extents(ctx: CheckContext, kernel: asc.KernelOp, output: bool) -> dict[int, _Extent]:
    """Kernel argument index -> extent of the op inputs (or outputs) whose shapes are known: given, or for an
    output the binding's allocation or the host InferShape gives (run_tiling).

    The build passes a kernel its GM_ADDR arguments in op order: inputs, outputs, then workspace and tiling;
    the mapping is only used when the kernel's parameter count says it follows that convention."""
    given = ctx.tiling.inputs if ctx.tiling is not None else None
    desc = op_description(ctx.program) if given is not None and ctx.program is not None else None
    if given is None or desc is None:
        return {}
    inputs = [str(d.get("name")) for d in desc.get("input_desc") or []]
    outputs = [str(d.get("name")) for d in desc.get("output_desc") or []]
    params = [a for a in kernel.body.blocks[0].args if isinstance(a.type, asc.GmPtrType)]
    if len(params) not in (len(inputs) + len(outputs), len(inputs) + len(outputs) + 1,
                           len(inputs) + len(outputs) + 2):
        return {}
    if desc.get("kernel_only"):
        # a kernel-only answer: each shape is its GM parameter's; the ones the kernel writes are its outputs
        # (output_not_fully_written keeps those)
        names, specs, first = inputs, given.inputs, 0
    else:
        names, specs, first = (outputs, given.outputs, len(inputs)) if output else (inputs, given.inputs, 0)
    out: dict[int, _Extent] = {}
    for i, spec in enumerate(specs[:len(names)]):
        size = _dtype_bytes(spec.dtype) if spec is not None else None
        if spec is None or size is None:
            continue
        count = 1
        for d in spec.shape:
            count *= d
        out[params[first + i].index] = _Extent("output" if output else "input", names[i], count * size,
                                               f"{'x'.join(map(str, spec.shape))} {spec.dtype}", size)
    return out


@rule(
    "ASC605", "gm-access-out-of-bounds", "tiling",
    summary="For the given shapes, a core's DataCopy / GetValue / SetValue reaches past the end (or before the "
            "start) of an input or output tensor.",
    why="Each core computes its slice from the tiling values and its block index; when the slices or the "
        "loop trip counts do not match the tensor (a tail the split did not handle, a blockLength rounded up, "
        "one loop iteration too many), the last cores read beyond the input: garbage flows into the result, "
        "or the MTE raises an out-of-range AI Core exception. Writes past the end of an output land in "
        "whatever the framework placed after it. Checked only with concrete shapes (`--shape`, "
        "`--test-case`; an output's shape given, allocated by the binding or computed by InferShape), by "
        "running the kernel's address arithmetic for cores 0, 1 and the last one.",
    example="blockLength = (total + blockDim - 1) / blockDim;     // 1000 floats on 8 cores: 125 each\n"
            "DataCopy(xLocal, xGm[blockIdx * blockLength], 128);  // core 7 reads 3 floats past the end",
    instead="uint32_t len = min(blockLength, total - blockIdx * blockLength);\n"
            "DataCopyPad(xLocal, xGm[blockIdx * blockLength], {1, len * sizeof(float), 0, 0, 0}, {false, 0, 0, 0});",
)
def gm_access_out_of_bounds(ctx: CheckContext) -> None:
    for kernel, dim, runs in _footprints(ctx):
        extents = _tensor_extents(ctx, kernel, output=False) | _tensor_extents(ctx, kernel, output=True)
        if not extents:
            continue
        reported: set[object] = set()
        for core, run in runs.items():
            if core not in (0, 1, dim - 1):
                continue
            for a in run.accesses:
                known = extents.get(a.arg)
                if known is None or a.op in reported:
                    continue
                kind, name, nbytes, shape, _ = known
                end = a.offset + a.size
                if a.offset >= 0 and end <= nbytes:
                    continue
                reported.add(a.op)
                past = f"{end - nbytes} bytes past its end" if end > nbytes else f"{-a.offset} bytes before its start"
                verb = "writes" if a.write else "reads"
                ctx.report(a.op, f"core {core} of {dim} {verb} bytes [{a.offset}, {end}) of {kind} '{name}' through "
                           f"'{a.tensor}', {past}", Note(f"'{name}' is {shape}: {nbytes} bytes"),
                           Note("clip the last core's slice and the last tile to the tensor's length", kind="help"))


# ------------------------------------------------------------------ every core's writes, for concrete shapes

ALL_CORES_BUDGET = 2_000_000  # ops over all cores of one kernel; a launch that needs more is not followed


def _all_cores(ctx: CheckContext, kernel: asc.KernelOp, dim: int, sampled: dict[int, CoreRun]
               ) -> tuple[list[CoreRun], bool]:
    """The runs of the launch's cores in order, as far as ALL_CORES_BUDGET goes (a run may have stopped early),
    and whether that budget was spent. Computed once per kernel."""
    from passes.verify.footprint import STEP_BUDGET, run_core

    def compute() -> tuple[list[CoreRun], bool]:
        left = ALL_CORES_BUDGET
        out = []
        for core in range(dim):
            if left <= 0:
                return out, True
            run = sampled.get(core) or run_core(kernel, core, dim, min(STEP_BUDGET, left))
            left -= run.steps
            out.append(run)
        return out, left <= 0
    return cached(ctx, ("coverage.all_cores", id(kernel)), compute)


def _every_core(ctx: CheckContext, kernel: asc.KernelOp, dim: int, sampled: dict[int, CoreRun]
                ) -> list[CoreRun] | None:
    """The GM accesses of every core of the launch, or None when a core's run stopped early, a write's bytes
    were not known, or the runs together would take more than the budget."""
    runs, spent = _all_cores(ctx, kernel, dim, sampled)
    if spent or len(runs) < dim or any(run.stopped is not None or run.unknown_writes for run in runs):
        return None
    return runs


def observed_values(ctx: CheckContext, op: Operation, name: str) -> list[tuple[int, int]]:
    """For the given shapes: (core, value) of `name` (a parameter of `op`, or `padParams.rightPadding`) as the
    launch's cores compute it, each distinct value with the first core that computes it, from the runs of
    every core the budget allows (CoreRun.observed; a run that stopped early still counts for what it ran).
    Empty without shapes."""
    def compute() -> dict[tuple[Operation, str], list[tuple[int, int]]]:
        found: dict[tuple[Operation, str], list[tuple[int, int]]] = {}
        for kernel, dim, sampled in _footprints(ctx):
            for run in _all_cores(ctx, kernel, dim, sampled)[0]:
                for key, values in run.observed.items():
                    seen = found.setdefault(key, [])
                    seen.extend((run.block_idx, v) for v in values if all(v != w for _, w in seen))
        return found
    return cached(ctx, "coverage.observed", compute).get((op, name), [])


def _unwritten(writes: list[Access], nbytes: int) -> list[tuple[int, int]]:
    """The byte ranges of [0, nbytes) that none of `writes` covers, in order."""
    gaps, covered = [], 0
    for w in sorted(writes, key=lambda w: w.offset):
        if w.offset > covered:
            gaps.append((covered, min(w.offset, nbytes)))
        covered = max(covered, w.offset + w.size)
        if covered >= nbytes:
            break
    if covered < nbytes:
        gaps.append((covered, nbytes))
    return [(a, b) for a, b in gaps if a < b]


@rule(
    "ASC607", "output-not-fully-written", "tiling",
    summary="For the given shapes, some elements of an output are written by no core: a tail the split "
            "drops, a last tile not copied out, cores that skip their slice.",
    why="The output tensor comes to the kernel uninitialised (or holding an earlier result); elements that no "
        "core writes keep whatever was there, and the comparison with the reference fails on them, often only "
        "for shapes that do not divide evenly by blockDim x tileLength. Checked only with concrete shapes "
        "(`--shape`, `--test-case`) and an output shape that is given, that the Python binding allocates "
        "(`at::empty_like(x)`) or that the host InferShape computes, "
        "by running the address arithmetic of every core; a kernel whose writes are not all followed "
        "(data-dependent branches, Matmul objects, atomics, lengths not computed) is not judged.",
    example="blockLength = totalLength / blockDim;                 // 1000 floats on 8 cores: 125 each\n"
            "tileNum = blockLength / 64;                           // 1 tile of 64; 61 floats per core dropped\n"
            "for (i = 0; i < tileNum; i++) DataCopy(yGm[i * 64], yLocal, 64);",
    instead="handle the remainder: a last, shorter tile per core (DataCopyPad with its byte length), and\n"
            "give the last core totalLength - (blockDim - 1) * blockLength elements",
)
def output_not_fully_written(ctx: CheckContext) -> None:
    for kernel, dim, sampled in _footprints(ctx):
        extents = _tensor_extents(ctx, kernel, output=True)
        if not extents or _any_unseen_or_atomic(ctx, kernel):
            continue
        runs = _every_core(ctx, kernel, dim, sampled)
        if runs is None:
            continue
        kernel_only = ctx.program is not None and is_kernel_only(ctx.program)
        inputs = set() if kernel_only else set(_tensor_extents(ctx, kernel, output=False))
        writes_an_input = any(a.write and a.arg in inputs for run in runs for a in run.accesses)
        for arg, extent in sorted(extents.items()):
            writes = [a for run in runs for a in run.accesses if a.write and a.arg == arg]
            if not writes and (writes_an_input or kernel_only):
                continue  # the kernel updates an input in place, which the output aliases; or (a kernel-only
                # answer, whose parameters are not labelled) a parameter it only reads
            cut = [a for run in runs for a in run.cut_writes if a.arg == arg]
            if not _unwritten(writes + cut, extent.nbytes):
                continue  # what is missing is what a DataCopy length cut to whole blocks dropped (ASC401)
            _report_unwritten(ctx, kernel, dim, runs, extent, writes, _unwritten(writes, extent.nbytes))


def _report_unwritten(ctx: CheckContext, kernel: asc.KernelOp, dim: int, runs: list[CoreRun], extent: _Extent,
                      writes: list[Access], gaps: list[tuple[int, int]]) -> None:
    name, nbytes, size = extent.name, extent.nbytes, extent.elem
    missing = sum(b - a for a, b in gaps)
    amount = f"{missing // size} elements ({missing} bytes)" if size > 1 and missing % size == 0 else f"{missing} bytes"
    given = Note(f"'{name}' is {extent.shape}, {nbytes} bytes; the run is for the given shapes, with blockDim {dim}")
    if not writes:
        ctx.report(kernel, f"no core writes output '{name}': none of the {dim} cores copies anything to it",
                   given, Note("copy each core's results to its slice of the output", kind="help"))
        return
    start, end = gaps[0]
    before = [w for w in writes if w.offset + w.size == start]
    anchor = before[-1] if before else max(writes, key=lambda w: w.offset + w.size)
    core = next(run.block_idx for run in runs if any(a is anchor for a in run.accesses))
    if len(gaps) == 1 and end == nbytes:
        message = f"the last {amount} of output '{name}' are written by no core"
    else:
        ranges = f" in {len(gaps)} ranges" if len(gaps) > 1 else ""
        message = f"{amount} of output '{name}'{ranges} are written by no core, the first at bytes [{start}, {end})"
    ctx.report(anchor.op, message, given, Note(f"core {core}'s write here ends at byte {anchor.offset + anchor.size}"),
               Note("make the cores' slices reach the end of the output: give the last tile and the last core the "
                    "remainder (a shorter DataCopyPad), or reject the shapes the split cannot handle in the tiling "
                    "function", kind="help"))
