"""Lowering of C++ function bodies: statements, expressions, inlining, and AscendC calls.

One `FunctionLowerer` lowers one kernel. It walks the AST with an environment of bindings; helper
functions and class methods are inlined at their call sites with their own frame, so the kernel's IR
is one region with every object the kernel uses declared in it. Scalars that are never assigned after
their declaration stay SSA values (or folded constants); the others live in memref cells.

Control flow lowers to `scf`: `if` to scf.if, counted `for` loops to scf.for, the rest to scf.while.
`return`, `break` and `continue` that leave a block early set a flag cell, and the statements after
them run under `scf.if` of "no flag set"; when the exiting `if` sits at the top of the function or loop
body, the remaining statements simply become its else branch, which is what a reader would write.

The methods are grouped by purpose into mixin classes in modules of their own, which FunctionLowerer
inherits; this module keeps its state, the IR building blocks (emit, cells, SSA values, the insertion
point) and frames:
- lower_types.py (TypeResolution): Type resolution
- lower_templates.py (TemplateArguments): Templates
- lower_inline.py (FunctionInlining): Inlining user functions
- lower_packs.py (PackExpansion): Parameter packs
- lower_stmts.py (StatementLowering): Statements
- lower_loops.py (LoopLowering): Loops and `switch`
- lower_decls.py (DeclarationLowering): Declarations
- lower_objects.py (ObjectLowering): Objects of user classes
- lower_names.py (NameLowering): Names read in expressions
- lower_exprs.py (ExpressionLowering): Expressions
- lower_tiling.py (TilingAccess): Tiling data
- lower_assign.py (AssignmentLowering): Assignments
- lower_convert.py (ConversionLowering): C conversions and arithmetic
Module-level support: errors.py, frame.py, header_names.py, ast_queries.py, fast_ops.py, const_fold.py.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from xdsl.builder import Builder, InsertPoint
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import (
    UNKNOWN_LOC,
    FileLineColLoc,
    IndexType,
    IntegerAttr,
    MemRefType,
    StringAttr,
    UnrealizedConversionCastOp,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ascendir.dialects import ascendc as asc
from ascendir.lower import aggregates, array_pointer, block_local, code_pointer, ctypes as C, ssa_scope, struct_pointer
from ascendir.lower import namespace_lookup, unmodelled
from ascendir.lower.const_cache import ConstantCache, float_key
from ascendir.lower.const_fold import FLOAT_MAX
from ascendir.lower.ctypes import CType, Scalar
from ascendir.lower.diagnostics import Reporter
from ascendir.lower.errors import Unsupported as Unsupported
from ascendir.lower.host_program import HostProgram
from ascendir.lower.fast_ops import (
    NO_SIZES,
    erase_ops,
    file_line_col,
    float_attr,
    int_attr,
    load_op,
    name_hint,
)
from ascendir.lower.frame import Frame as Frame
from ascendir.lower.lower_assign import AssignmentLowering
from ascendir.lower.lower_convert import ConversionLowering
from ascendir.lower.lower_decls import DeclarationLowering
from ascendir.lower.lower_exprs import ExpressionLowering
from ascendir.lower.lower_inline import FunctionInlining
from ascendir.lower.lower_loops import LoopLowering
from ascendir.lower.lower_names import NameLowering
from ascendir.lower.lower_objects import ObjectLowering
from ascendir.lower.lower_packs import PackExpansion
from ascendir.lower.lower_stmts import StatementLowering
from ascendir.lower.lower_templates import TemplateArguments
from ascendir.lower.lower_tiling import TilingAccess
from ascendir.lower.lower_types import TypeResolution
from ascendir.lower.scope import ClassInfo, Scope
from ascendir.lower.values import Binding, Cell, Instance, Val
from frontend import ast as A
from frontend.diagnostics import LazySpan

# Defined in the modules this one was split into; other modules import them from here.
from ascendir.lower.ast_queries import (
    forget_ast_facts as forget_ast_facts,
    node_text,
    non_const_reference as non_const_reference,
)
from ascendir.lower.errors import Undeclared as Undeclared
from ascendir.lower.header_names import (
    DEFAULT_DTYPE as DEFAULT_DTYPE,
    FLAGS_NOT_LOWERED as FLAGS_NOT_LOWERED,
    REGISTER_API_FUNCTIONS as REGISTER_API_FUNCTIONS,
    in_register_api as in_register_api,
)


# Beyond this a kernel is reported as too large to check rather than lowered (about 3 s of lowering).
MAX_KERNEL_OPS = 40_000
_INDEX = IndexType()


class KernelTooLarge(Exception):
    """The kernel inlines to more ops than its lowering's limit (MAX_KERNEL_OPS unless raised: typically hundreds
    of template instances)."""

    def __init__(self, node: A.Node | None, limit: int | None = None) -> None:
        super().__init__(f"more than {MAX_KERNEL_OPS if limit is None else limit} operations after inlining")
        self.node = node


class FunctionLowerer(
    TypeResolution, TemplateArguments, FunctionInlining, PackExpansion, StatementLowering, LoopLowering,
    DeclarationLowering, ObjectLowering, NameLowering, ExpressionLowering, TilingAccess, AssignmentLowering,
    ConversionLowering,
):
    """Lowers one kernel (and the functions it calls, inlined) to one region of IR."""

    def __init__(self, scope: Scope, reporter: Reporter, catalog: object, options: object) -> None:
        self.scope = scope
        self.report = reporter
        self.catalog = catalog
        self.options = options
        self.builder = Builder(InsertPoint.at_end(Block()))  # scratch, until a kernel body is being built
        self.frames: list[Frame] = []
        self._loc_cache: dict[tuple[str, int, int], FileLineColLoc] = {}
        self._span_locs: dict[int, tuple[object, FileLineColLoc]] = {}
        self._tiling_values: dict[SSAValue, SSAValue] = {}
        self.kernel_type = "default"
        self.default_tiling: str | None = None  # REGISTER_TILING_DEFAULT(S) in the kernel's body (calls_macros)
        self.op_count = 0
        self.max_ops = MAX_KERNEL_OPS  # beyond this, KernelTooLarge
        self.constants = ConstantCache()  # constants emitted per block, for const_ssa to reuse
        self.pipes: list[SSAValue] = []  # GetTPipePtr() returns the kernel's (first) pipe
        # the blocks that hold the rest of a statement list after a statement that may exit early (lower_stmts):
        # every later statement of the list is in there, so a store in one ran on each path that reads it after
        self.continuation_blocks: set[Block] = set()
        self.attach_to: dict[int, Block] = {}  # a body being built apart -> the block its op will be added to
        self._last_node: A.Node | None = None
        self._gaps_marked = len(reporter.gaps)  # gaps before this function (another's) are not marked in it
        self.kernel_block: Block | None = None  # the entry block of the kernel being lowered
        self.gm_statics: dict[str, str] = {}  # namespace-scope __gm__ arrays' parameters -> initial bytes (gm_statics)
        # block-local variables' storage, by id of the declarator: (the kernel block it is in, it) (block_local)
        self.block_locals: dict[int, tuple[Block, Binding]] = {}
        # the namespace-scope variables the program writes, by id of the scope (namespace_writes)
        self.namespace_writes: dict[int, set[int]] = {}  # (ids of the declarators written)
        self.object_numbers: list[object] = []  # objects whose pointers became integers, by number (object_address)
        # `if constexpr` conditions that do not fold, by condition and template bindings: one cell each
        self._constexpr_cells: dict[object, Cell] = {}
        # The tiling key this lowering is for, when a kernel too large to lower whole is lowered once per key:
        # TILING_KEY_IS(k) then folds to k == this key, and the other keys' branches are not lowered.
        self.tiling_key: int | None = None
        # per (function name, argument position): whether some function or method of that name takes a
        # non-const reference there (see `assigned_names`)
        self._reference_params: dict[tuple[str, int], bool] = {}
        self._reference_taken: bool | None = None  # see _any_reference_param
        # the classes whose static constants are being read, innermost last: an initialiser may name a sibling
        # constant unqualified (`static constexpr int64_t MN = M * N;` in catlass's GemmShape)
        self._constant_owners: list[ClassInfo] = []
        self._aliases_resolving: set[int] = set()  # member aliases being resolved (by id), see named_type
        # objects with a destructor declared in a block, by id of the block's scope dict (see run_destructors)
        self._owned: dict[int, list[Instance]] = {}
        # the core type ("AIC" / "AIV") whose specialisation of a per-core member template is being inlined:
        # g_coreType is that constant there (`BarrierFlag<MODE, g_coreType>::ID`)
        self.core_type: str | None = None
        # pointers holding the address of an object or a function, chosen at run time (code_pointer.py)
        self.code_pointers = code_pointer.Registry()
        # lowering a host program's main as the entry (host_program.py): its buffers and launch; else None
        self.host_program: HostProgram | None = None

    def loc(self, node: A.Node) -> FileLineColLoc:
        span = node.span
        by_span = self._span_locs.get(id(span))  # several ops per node: the span is mapped back once
        if by_span is not None and by_span[0] is span:
            return by_span[1]
        key = span.start_point() if span.__class__ is LazySpan else (span.file, span.line, span.col)
        hit = self._loc_cache.get(key)
        if hit is None:
            hit = self._loc_cache[key] = file_line_col(*key)
        self._span_locs[id(span)] = (span, hit)
        return hit

    def _next_launch_budget(self) -> bool:
        """Whether a host program's main, past its budget, may go on: main lowers one kernel instance per launch
        it reaches (a launch per branch decided at run time: catlass's FP8Matmul under `if (m > n)`, one per
        swizzle, 22k ops each), and each launch lowered so far has had a kernel's budget, as has the one being
        lowered now. Raises the budget to that and says whether the count is within it."""
        hp = self.host_program
        if hp is None or not hp.launch_blocks:
            return False
        allowed = MAX_KERNEL_OPS * (len(hp.launch_blocks) + 1)
        if self.op_count > allowed:
            return False
        self.max_ops = allowed
        return True

    def emit(self, op: Operation, node: A.Node | None = None) -> Operation:
        """Adds `op` at the insertion point, located at `node` (else at the statement being lowered).

        The ops built most often are created with `location=UNKNOWN_LOC`, the location they would get anyway
        until this replaces it: without one, xDSL looks its default up (an import statement) at every op."""
        self.op_count += 1
        if self.op_count > self.max_ops and not self._next_launch_budget():
            raise KernelTooLarge(node or self._last_node, self.max_ops)
        node = node or self._last_node
        if node is not None:
            op.location = self.loc(node)
        ip = self.builder.insertion_point
        if ip.insert_before is None:
            # What Builder.insert does at the end of a block, without its per-op bookkeeping for implicit
            # builders, name hints and insertion listeners, none of which the lowering uses (~5% of lowering).
            ip.block.add_op(op)
        else:
            self.builder.insert(op)
        return op

    @contextmanager
    def at_end_of(self, block: Block) -> Iterator[None]:
        """Builds into `block`. If lowering inside fails, the block still gets its terminator (an scf
        region must end in one) before the error travels on to the statement that reports it."""
        saved = self.builder
        self.builder = Builder(InsertPoint.at_end(block))
        detached = block.parent_op() is None
        if detached:
            self.attach_to[id(block)] = saved.insertion_point.block
        try:
            yield
        except Exception:
            self._terminate(block)
            raise
        finally:
            self.builder = saved
            if detached:
                self.attach_to.pop(id(block), None)

    def _terminate(self, block: Block) -> None:
        parent = block.parent_op()
        blocks = [b for r in parent.regions for b in r.blocks] if parent is not None else [block]
        for b in blocks:  # the regions not reached yet must end in a terminator as well
            self._terminate_one(b)

    def _terminate_one(self, block: Block) -> None:
        last = block.last_op
        if last is not None and isinstance(last, scf.YieldOp | scf.ConditionOp):
            return
        saved = self.builder
        self.builder = Builder(InsertPoint.at_end(block))
        try:
            self._emit_terminator(block)
        finally:
            self.builder = saved

    def _emit_terminator(self, block: Block) -> None:
        parent = block.parent_op()
        if isinstance(parent, scf.WhileOp) and block is parent.before_region.block:
            self.emit(scf.ConditionOp(self.const_ssa(0, C.BOOL)))
            return
        results = parent.result_types if isinstance(parent, scf.IfOp) else ()
        self.emit(scf.YieldOp(*[self.undef_ir(t) for t in results]))

    def undef_ir(self, t: Attribute) -> SSAValue:
        return self.emit(asc.UndefOp.create(result_types=[t])).results[0]

    @property
    def frame(self) -> Frame:
        return self.frames[-1]

    def const_ssa(self, value: float | bool, t: Scalar, node: A.Node | None = None) -> SSAValue:
        ir_t = C.scalar_ir_type(t)
        if t.is_float:
            number = float(value)
            limit = FLOAT_MAX.get(t.name)
            if limit is not None and abs(number) > limit and number == number:
                number = float("inf") if number > 0 else float("-inf")  # what the conversion to T gives
            key: tuple[object, ...] = (float_key(number), ir_t)
        else:
            v = C.signless_value(int(value), t.bits)
            key = (v, ir_t)
        # one copy per block (const_cache): unrolled code repeats the same few constants thousands of times
        ip = self.builder.insertion_point
        hit = self.constants.lookup(ip.block, ip.insert_before is None, key)
        if hit is not None:
            return hit
        attr = float_attr(number, ir_t) if t.is_float else int_attr(v, ir_t)
        op = arith.ConstantOp.create(properties={"value": attr}, result_types=[ir_t], location=UNKNOWN_LOC)
        self.emit(op, node)
        self.constants.remember(ip.block, key, op)
        return op.results[0]

    def index_const(self, value: int, node: A.Node | None = None) -> SSAValue:
        """An `index` constant, one copy per block as const_ssa's."""
        ip = self.builder.insertion_point
        key = (value, _INDEX)
        hit = self.constants.lookup(ip.block, ip.insert_before is None, key)
        if hit is not None:
            return hit
        op = self.emit(arith.ConstantOp(IntegerAttr(value, _INDEX)), node)
        self.constants.remember(ip.block, key, op)
        return op.results[0]

    def ssa(self, v: Val, node: A.Node | None = None) -> SSAValue:
        """The SSA value of `v`, materialising constants."""
        if v.ssa is not None:
            return v.ssa
        if isinstance(v.obj, Cell) and isinstance(v.ctype, C.ArrayT):
            if v.obj.at:
                raise Unsupported("an array member of an element of an array of objects passed whole", node)
            return v.obj.ref  # a C array passed whole (`uint64_t mask[2]` to a vector call): its memref
        # A constant is materialised where it is used, every time: a binding may outlive the region the
        # first use was in, and an op there would not dominate later uses (const_ssa reuses one in the same
        # block, cse merges the rest).
        if v.const is not None:
            if isinstance(v.ctype, C.EnumT):
                return self.emit(asc.EnumConstantOp.create(
                    properties={"value": StringAttr(str(v.const))}, result_types=[asc.EnumType(v.ctype.name)]), node
                ).results[0]
            if isinstance(v.ctype, Scalar) and not isinstance(v.const, str):
                return self.const_ssa(v.const, v.ctype, node)
        return self.undef(v.ctype, node)

    def undef(self, t: CType, node: A.Node | None = None) -> SSAValue:
        op = self.emit(asc.UndefOp.create(result_types=[C.ir_type(t)]), node)
        unmodelled.mark(op, t, node)
        if node is not None:
            # what the value is, for the run's finding where it is used (a size, an offset: 0 is no one's value)
            name = getattr(node, "name", None)
            text = name if isinstance(name, str) and name else node_text(node)
            what = f"'{' '.join(text.split())[:80]}'" if text != "?" else f"an expression ({type(node).__name__})"
            op.attributes[asc.UNDEF_WHAT_ATTR] = StringAttr(what)
        return op.results[0]

    def new_cell(self, t: CType, name: str, node: A.Node, init: Val | None = None) -> Cell:
        alloca = memref.AllocaOp.create(result_types=[C.cell_type(t)],
                                        properties={"operandSegmentSizes": NO_SIZES}, location=UNKNOWN_LOC)
        ref = self.emit(alloca, node).results[0]
        unmodelled.mark(alloca, t, node)
        if name:
            ref.name_hint = name_hint(name)
        cell = Cell(t, ref, name)
        if init is not None:
            self.store(cell, init, node)
        return cell

    def load(self, cell: Cell, node: A.Node) -> Val:
        if cell.points_to is not None:
            if isinstance(cell.points_to, Val) and array_pointer.is_pointer_operand(cell.points_to):
                return cell.points_to  # a pointer set to a local array (store): that array
            held = code_pointer.load(self, cell, node)
            if held is not None:
                return held  # the number of the object or function the pointer holds
        op = self.emit(load_op(cell.ref, list(cell.at)), node)
        return Val(cell.ctype, op.results[0])

    def store(self, cell: Cell, v: Val, node: A.Node) -> None:
        if isinstance(v.ctype, C.TilingT) and v.ctype.path and v.ssa is not None:
            # a nested tiling struct (`this->tiling = tilingData.cubeTilingData;`, or a `const TCubeTiling &`
            # parameter bound to it): its fields, not the root struct seen under the nested type
            v = self.tiling_argument(v, node)
        if isinstance(cell.ctype, C.TilingT) and isinstance(v.obj, Instance):
            v = aggregates.struct_value(self, v, cell.ctype, node)  # a record object into a struct value
        if code_pointer.store(self, cell, v, node):
            return  # `p = &object;`, `f = &Function<T>;`: which one, as a number (code_pointer.py)
        if struct_pointer.store(self, cell, v, node):
            return  # `ptr = &paramStruct;`: which struct, read back by struct_pointer.read
        if isinstance(cell.ctype, C.Pointer) and isinstance(cell.ctype.pointee, C.Scalar) \
                and array_pointer.is_pointer_operand(v) and not cell.at:
            # a pointer variable or member set to a local array of numbers (catlass 19_mla's host program:
            # `mlaInfo.qSeqLen = static_cast<int32_t *>(qSeq);`, qSeq the array of a given host buffer, read by
            # the tiling as `*(mlaInfo.qSeqLen + i)`): reads of it are that array; set to two, neither
            same = cell.points_to is None or (isinstance(cell.points_to, Val) and cell.points_to.obj == v.obj)
            cell.points_to = v if same else "many"
            return
        if isinstance(cell.ctype, C.Pointer) and isinstance(v.obj, tuple) and v.obj[0] == "tiling_array":
            same = cell.points_to is None or cell.points_to.obj[1:] == v.obj[1:]
            cell.points_to = v if same else "many"
            return  # the pointer is read by indexing it (expr_Index), which reads the field
        if isinstance(cell.ctype, C.Pointer) and isinstance(cell.ctype.pointee, C.TilingT) \
                and isinstance(v.ctype, C.TilingT) and v.ssa is not None:
            # a reference member bound to the tiling data (`const XTilingData& td_;` set by `td_(tilingData)`):
            # a reference is a pointer that cannot be null, so reads of it are reads of that tiling value
            v = Val(C.Pointer(v.ctype), v.ssa, obj=v)
        if isinstance(cell.ctype, C.Pointer) and isinstance(v.ctype, C.Pointer) \
                and isinstance(v.ctype.pointee, C.TilingT) and v.ssa is not None:
            # a member pointing at the tiling data (`tilingInClass = tilingData;`): reads of it are that pointer
            same = cell.points_to is None or cell.points_to is v or (
                isinstance(cell.points_to, Val) and cell.points_to.ssa is v.ssa)
            cell.points_to = v if same else "many"
            return
        cell_t = cell.ref.type
        assert isinstance(cell_t, MemRefType)
        if v.const == 0 and v.ssa is None and isinstance(v.ctype, C.Pointer) and isinstance(
                cell_t.element_type, asc.TPipeType | asc.TQueType | asc.TBufType | asc.ObjectType):
            return  # `TPipe *pipe_ = nullptr;`: a null object pointer holds no object; the cell stays unset
        v = self.convert(v, cell.ctype, node)
        value = self.ssa(v, node)
        if value.type != cell_t.element_type:
            if self._refine_cell(cell, v) :
                cell_t = cell.ref.type  # type: ignore[assignment]
        self.store_element(value, cell.ref, list(cell.at), node)

    def store_element(self, value: SSAValue, ref: SSAValue, indices: Sequence[SSAValue], node: A.Node) -> None:
        element_type = ref.type.element_type  # type: ignore[attr-defined]
        if value.type != element_type:
            # the same object seen with less type information (a tensor of unknown position)
            value = self.emit(UnrealizedConversionCastOp.get([value], [element_type]), node).results[0]
        self.emit(memref.StoreOp.create(operands=[value, ref, *indices], location=UNKNOWN_LOC), node)

    def _refine_cell(self, cell: Cell, v: Val) -> bool:
        """A `LocalTensor<T> t;` declared before its first assignment takes the type of the first tensor
        stored into it (TPosition and element type), as long as nothing has read it yet."""
        old, new = cell.ctype, v.ctype
        if not (isinstance(old, C.LocalTensorT) and isinstance(new, C.LocalTensorT)):
            return False
        if old.elem not in (None, new.elem) or old.position not in (asc.UNKNOWN_POSITION, new.position):
            return False
        old_op = cell.ref.owner
        if cell.ref.uses or cell.at or not isinstance(old_op, memref.AllocaOp):
            return False
        new_op = memref.AllocaOp.get(C.ir_type(new), shape=[])
        new_op.location = old_op.location
        old_op.parent_block().insert_op_before(new_op, old_op)  # type: ignore[union-attr]
        new_op.results[0].name_hint = cell.ref.name_hint
        old_op.detach()
        old_op.erase()
        cell.ctype = new
        cell.ref = new_op.results[0]
        return True

    def const_eval(self, e: A.Node | None) -> int | float | str | None:
        """The compile-time value of `e`, or None. Emits nothing (constants never need ops)."""
        if e is None:
            return None
        if isinstance(e, A.IntLit):
            return e.value
        if isinstance(e, A.FloatLit):
            return e.value
        if isinstance(e, A.BoolLit):
            return int(e.value)
        mark = self._mark()
        try:
            v = self.expr(e)
        except Unsupported:
            return None  # not a constant we can see (its uses report what is wrong with it)
        finally:
            self._rollback(mark)
        return v.const

    def _mark(self) -> tuple[Block | None, Operation | None]:
        ip = self.builder.insertion_point
        return (ip.block, ip.block.last_op if ip.insert_before is None else ip.insert_before.prev_op)

    def _rollback(self, mark: tuple[Block | None, Operation | None]) -> None:
        block, last = mark
        if block is None:
            return
        ip = self.builder.insertion_point
        stop = ip.insert_before
        added: list[Operation] = []
        op = last.next_op if last is not None else block.first_op
        while op is not None and op is not stop:
            added.append(op)
            op = op.next_op
        for op in reversed(added):  # users before the values they use
            if all(not r.uses for r in op.results):
                op.detach()
                op.erase()

    def lookup(self, name: str) -> Binding | None:
        frame = self.frame
        for scope in reversed(frame.scopes):
            hit = scope.get(name)
            if hit is not None:
                return hit
        if frame.this is not None:
            hit = frame.this.member(name)  # (a member a derived class hides: this part's own)
            if hit is not None:
                return hit
        if namespace_lookup.declares(self.scope, name):
            return block_local.binding(self, name)  # `__BLOCK_LOCAL__ Ctx ctx;`: this core's own (else None)
        return None

    def bind(self, name: str, b: Binding) -> None:
        self.frame.scopes[-1][name] = b

    def visible_pipe(self) -> SSAValue | None:
        """The innermost TPipe whose declaration encloses the insertion point (for GetTPipePtr()). In a body built
        before its op (a `?:` branch, the right side of `&&`), the blocks that op will be added to enclose it."""
        enclosing = ssa_scope.enclosing_blocks(self.builder.insertion_point.block, self.attach_to, self.kernel_block)
        if enclosing is None:  # a body whose destination is not known: no pipe can be said to enclose it
            return None
        for pipe in reversed(self.pipes):
            if ssa_scope.visible(pipe, enclosing):
                return pipe
        return None

    @contextmanager
    def detached(self, block: Block) -> Iterator[None]:
        """Builds into a block that is not in the IR yet (a region body built before its op). If lowering
        fails, what was built is erased, so no half-built region keeps uses of live values."""
        saved = self.builder
        self.builder = Builder(InsertPoint.at_end(block))
        self.attach_to[id(block)] = saved.insertion_point.block
        try:
            yield
        except Exception:
            erase_ops(block)
            raise
        finally:
            self.builder = saved
            self.attach_to.pop(id(block), None)
