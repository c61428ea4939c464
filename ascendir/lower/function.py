"""Lowering of C++ function bodies: statements, expressions, inlining, and AscendC calls.

One `FunctionLowerer` lowers one kernel. It walks the AST with an environment of bindings; helper
functions and class methods are inlined at their call sites with their own frame, so the kernel's IR
is one region with every object the kernel uses declared in it. Scalars that are never assigned after
their declaration stay SSA values (or folded constants); the others live in memref cells.

Control flow lowers to `scf`: `if` to scf.if, counted `for` loops to scf.for, the rest to scf.while.
`return`, `break` and `continue` that leave a block early set a flag cell, and the statements after
them run under `scf.if` of "no flag set"; when the exiting `if` sits at the top of the function or loop
body, the remaining statements simply become its else branch, which is what a reader would write.
"""

from __future__ import annotations

import itertools
import math

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from dataclasses import dataclass, field, replace
from dataclasses import fields as dataclass_fields

from xdsl.builder import Builder, InsertPoint
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import (
    UNKNOWN_LOC,
    ArrayAttr,
    DenseArrayBase,
    FileLineColLoc,
    FloatAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    UnrealizedConversionCastOp,
    i32,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from ascendir.dialects import ascendc as asc
from ascendir.lower import ctypes as C
from ascendir.lower.ctypes import const_fits
from ascendir.lower.astwalk import facts, forget_facts, walk
from ascendir.lower.ctypes import CType, Scalar
from ascendir.lower.diagnostics import Reporter
from ascendir.lower.scope import ClassInfo, Scope
from ascendir.lower.template_struct import constant_struct_text
from ascendir.lower import array_init, array_pointer, list_tensor, partial_order, ssa_scope, struct_pointer
from ascendir.lower.values import Binding, Cell, ExitKind, FunctionRef, Instance, Pack, Val
from frontend import ast as A
from frontend import vendor
from frontend.diagnostics import LazySpan

# The SIMT programming model's builtins (Ascend 950: `__simt_vf__` functions launched by asc_vf_call, and
# `__global__ __launch_bounds__(n)` kernels): the thread and block indices and extents, and the warp size.
SIMT_BUILTINS = frozenset({"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"})
SIMT_INDEX = "simt_index"
UNBOUND_REFERENCE = "unbound reference member"  # a class-typed reference member before its constructor binds it

MAX_INLINE_DEPTH = 24
_NO_SIZES = DenseArrayBase.from_list(i32, [0, 0])  # memref.alloca: no dynamic sizes, no symbols
# Beyond this a kernel is reported as too large to check rather than lowered (about 3 s of lowering).
MAX_KERNEL_OPS = 40_000
_FLOAT_MAX = {"half": 65504.0, "bfloat16_t": 3.3895313892515355e38, "float": 3.4028234663852886e38}
DEFAULT_DTYPE = "float"
# Constants of the C and AscendC headers code uses unqualified or with `AscendC::`; None = the value
# depends on the CANN version, so it stays unknown (but declared).
HEADER_CONSTANTS: dict[str, tuple[Scalar, int | float | None]] = {
    "FLT_MAX": (C.F32, 3.4028234663852886e38), "FLT_MIN": (C.F32, 1.1754943508222875e-38),
    "FLT_EPSILON": (C.F32, 1.1920928955078125e-07), "INT32_MAX": (C.I32, 2**31 - 1), "INT32_MIN": (C.I32, -(2**31)),
    "INT_MAX": (C.I32, 2**31 - 1), "INT_MIN": (C.I32, -(2**31)), "UINT32_MAX": (C.U32, 2**32 - 1),
    "INT64_MAX": (C.I64, 2**63 - 1), "UINT64_MAX": (C.U64, 2**64 - 1), "INT16_MAX": (Scalar("int16_t"), 2**15 - 1),
    "UINT8_MAX": (Scalar("uint8_t"), 255), "INFINITY": (C.F32, float("inf")), "NAN": (C.F32, float("nan")),
    "UINT16_MAX": (Scalar("uint16_t"), 2**16 - 1), "INT8_MAX": (Scalar("int8_t"), 2**7 - 1),
    "INT8_MIN": (Scalar("int8_t"), -(2**7)), "INT16_MIN": (Scalar("int16_t"), -(2**15)),
    "INT64_MIN": (C.I64, -(2**63)),
    "ONE_BLK_SIZE": (C.I32, 32), "ONE_REPEAT_BYTE_SIZE": (C.I32, 256), "DEFAULT_REPEAT_STRIDE": (C.I32, 8),
    "DEFAULT_BLK_STRIDE": (C.I32, 1), "BLOCK_CUBE": (C.I32, 16), "MAX_REPEAT_TIMES": (C.I32, 255),
    "ONE_BLOCK_SIZE": (C.I32, 32), "TOTAL_VEC_LOCAL_SIZE": (C.U32, None), "TOTAL_UB_SIZE": (C.U32, None),
    "TOTAL_L1_SIZE": (C.U32, None), "TOTAL_L0A_SIZE": (C.U32, None), "TOTAL_L0B_SIZE": (C.U32, None),
    "TOTAL_L0C_SIZE": (C.U32, None), "MASK_PLACEHOLDER": (C.U64, 0),
    # more of the constants in the AscendC headers (impl/basic_api/utils/kernel_utils_constants.h) that vendor
    # kernels use unqualified; those whose value differs by chip are left out
    "HALF_FACTOR": (C.I32, 2), "DOUBLE_FACTOR": (C.I32, 2), "DEFAULT_BLK_NUM": (C.I32, 8),
    "HALF_DEFAULT_REPEAT_STRIDE": (Scalar("uint8_t"), 4), "ONE_FOURTH_DEFAULT_REPEAT_STRIDE": (Scalar("uint8_t"), 2),
    "FULL_MASK": (C.U64, 2**64 - 1), "MAX_HALF_MASK_LEN": (Scalar("uint16_t"), 64), "DEFAULT_C0_SIZE": (C.I32, 32),
    "DEFAULT_BLOCK_SIZE": (C.I32, 256), "ONE_BYTE_BIT_SIZE": (C.I32, 8), "TMP_UB_SIZE": (C.U32, 8 * 1024),
    "F32_INF": (C.U32, 0x7F800000), "F32_NEG_INF": (C.U32, 0xFF800000), "F32_NAN": (C.U32, 0x7FC00000),
    "CACHE_LINE_SIZE": (C.U32, 64), "VECTOR_REG_WIDTH": (C.U32, 256), "VECTOR_REG_WIDTH_2XVL": (C.U32, 512),
    "MAX_BLOCK_COUNT": (C.I32, 4095), "MIN_BLOCK_COUNT": (C.I32, 1), "MAX_BLOCK_LEN": (C.I32, 65535),
    "MAX_16BITS_STRIDE": (C.I32, 65535), "DEFAULT_DATA_COPY_NBURST": (Scalar("uint8_t"), 1),
    "DEFAULT_DATA_COPY_STRIDE": (Scalar("uint8_t"), 0), "B16_BYTE_SIZE": (Scalar("uint8_t"), 2),
    "B32_BYTE_SIZE": (Scalar("uint8_t"), 4), "B16_DATA_NUM_PER_BLOCK": (Scalar("uint8_t"), 16),
    "B32_DATA_NUM_PER_BLOCK": (Scalar("uint8_t"), 8), "B32_DATA_NUM_PER_REPEAT": (C.I32, 64),
    "ONE_BLK_FLOAT_NUM": (C.U32, 8), "FLOAT_REPEAT_SIZE": (C.U32, 64), "TWO_BLK_SIZE": (Scalar("uint16_t"), 64),
    "PAD_SIZE": (Scalar("uint8_t"), 4), "BRCB_BROADCAST_NUMBER": (C.U32, 8), "BYTE_PER_FRACTAL": (C.I32, 512),
    "NCHW_CONV_ADDR_LIST_SIZE": (C.I32, 16),
    # the Hccl API's handle that names no task (include/adv_api/hccl/internal/hccl_msg.h)
    "INVALID_HANDLE_ID": (Scalar("int8_t"), -1),
    "K_MAX_DIM": (C.I32, 8),  # the most dimensions a SliceInfo array describes (kernel_utils_constants.h)
    # the DT_* data type codes of kernel_type.h (what ORIG_DTYPE_<NAME> is compared with)
    **{name: (C.I32, code) for name, code in vendor.DT_CODES.items()},
}  # fmt: skip
TENSOR_OPERATORS = ("+", "-", "*", "/", "&", "|")
# `mask = a < b` on LocalTensors: Compare with this mode over all of a
_COMPARE_MODES = {"<": "LT", ">": "GT", "==": "EQ", "<=": "LE", ">=": "GE", "!=": "NE"}
_TYPE_TRAITS = {"is_same", "IsSameType", "is_same_v", "IsSame", "is_void"}  # IsSame: AscendC::Std's alias
# AscendC's matmul utilities: IsTypeOneOf<T, ...>::value and the variable templates below
_ONE_OF_TRAITS = {"IsTypeOneOf", "IsTypeOneOfV"}  # T is one of the rest
_TRAIT_VALUES = {"is_same_v", "IsSameTypeV", "IsTypeOneOfV", "is_void_v"}  # variable templates: no `::value`

# Namespaces whose qualification carries no meaning for name lookup here.
_TRANSPARENT_NAMESPACES = {"AscendC", "std", "Std", "ops", "optiling", "ge", "platform_ascendc", "gert", "matmul", "AscendC::Std"}

# The register API of arch35 chips (Ascend 950: `__simd_vf__` functions on RegTensor/MaskReg): a separate
# instruction set the catalog does not describe. Its names are opaque; their first use is reported once.
REGISTER_API_NAMESPACES = frozenset({"Reg", "MicroAPI"})
# Its register types, named bare after `using namespace AscendC::MicroAPI;` (asc-devkit
# include/basic_api/reg_compute: the RegTensor class and the aliases of the compiler's vector_bool, ...)
REGISTER_API_TYPES = frozenset({"RegTensor", "MaskReg", "UnalignReg", "UnalignRegForLoad", "UnalignRegForStore",
                                "AddrReg"})


# Free functions of the same instruction set: launching a vector function, the vector register length.
REGISTER_API_FUNCTIONS = frozenset({"asc_vf_call", "VF_CALL", "GetVecLen"})


def in_register_api(qname: A.QualifiedName) -> bool:
    return any(p.name in REGISTER_API_NAMESPACES for p in qname.parts[:-1])

# The callee of the opaque call standing for a statement not lowered that sets or waits for flags.
FLAGS_NOT_LOWERED = "<not lowered: SetFlag/WaitFlag>"
_FLAG_CALLS = frozenset({"SetFlag", "WaitFlag", "set_flag", "wait_flag"})

# Library object types: their methods are catalogued APIs, not code we inline.
_OBJECT_TYPES = {"Matmul", "TQueSync", "TCubeTiling", "TEventID", "MatmulImpl", "LocalMemAllocator", "TSCM"}


def _substitute_names(node: A.Node, names: dict[str, A.Node]) -> A.Node:
    """A copy of `node` with each plain name in `names` replaced by what it maps to (a pack's element)."""
    if isinstance(node, A.Name) and len(node.qname.parts) == 1 and node.qname.parts[0].name in names:
        return names[node.qname.parts[0].name]
    changes: dict[str, object] = {}
    for f in dataclass_fields(node):
        value = getattr(node, f.name)
        if isinstance(value, A.Node):
            new = _substitute_names(value, names)
            if new is not value:
                changes[f.name] = new
        elif isinstance(value, list) and any(isinstance(v, A.Node) for v in value):
            new_list = [_substitute_names(v, names) if isinstance(v, A.Node) else v for v in value]
            if any(a is not b for a, b in zip(new_list, value)):
                changes[f.name] = new_list
    return replace(node, **changes) if changes else node


def _node_text(node: A.Node) -> str:
    """A short name for what a diagnostic is about: a name as written, else the kind of node."""
    if isinstance(node, A.Name):
        return node.qname.text
    if isinstance(node, A.TypeRef):
        return node.name
    return type(node).__name__


def _calls_user_operator(target: A.Node) -> bool:
    """An assignment target that may be a user operator's reference result: `x[i]`, `x.operator[](i)`."""
    if isinstance(target, A.Index):
        return True
    return (isinstance(target, A.Call) and isinstance(target.callee, A.Member)
            and target.callee.member.startswith("operator"))


class KernelTooLarge(Exception):
    """The kernel inlines to more ops than MAX_KERNEL_OPS (typically hundreds of template instances)."""

    def __init__(self, node: A.Node | None) -> None:
        super().__init__(f"more than {MAX_KERNEL_OPS} operations after inlining")
        self.node = node


class Unsupported(Exception):
    """A construct the lowering does not model; reported once, at the statement that holds it."""

    def __init__(self, message: str, node: A.Node) -> None:
        super().__init__(message)
        self.node = node


class Undeclared(Unsupported):
    """A name nothing declares: the compiler's error, not a gap of the lowering."""

    def __init__(self, name: str, node: A.Node) -> None:
        super().__init__(f"use of undeclared identifier '{name}'", node)
        self.name = name


@dataclass
class Frame:
    """One inlined function (or the kernel): its scopes, `this`, template bindings and exit flags."""

    name: str
    scopes: list[dict[str, Binding]]
    this: Instance | None
    types: dict[str, object]
    assigned: set[str]
    return_type: CType = field(default_factory=C.VoidT)
    return_cell: Cell | None = None
    return_flag: Cell | None = None
    loop_flags: list[dict[str, Cell | None]] = field(default_factory=list)  # innermost last: break/continue cells
    owner: ClassInfo | None = None  # the class whose declarations a class template's frame lowers (its aliases)
    # a function returning a user-class object from several returns: the object each return copies into
    return_object: Instance | None = None


class FunctionLowerer:
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
        self.op_count = 0
        self.max_ops = MAX_KERNEL_OPS  # beyond this, KernelTooLarge
        self.pipes: list[SSAValue] = []  # GetTPipePtr() returns the kernel's (first) pipe
        self.attach_to: dict[int, Block] = {}  # a body being built apart -> the block its op will be added to
        self._last_node: A.Node | None = None
        self.kernel_block: Block | None = None  # the entry block of the kernel being lowered
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

    # ------------------------------------------------------------------------------------------------
    # building blocks
    # ------------------------------------------------------------------------------------------------

    def loc(self, node: A.Node) -> FileLineColLoc:
        span = node.span
        by_span = self._span_locs.get(id(span))  # several ops per node: the span is mapped back once
        if by_span is not None and by_span[0] is span:
            return by_span[1]
        key = span.start_point() if span.__class__ is LazySpan else (span.file, span.line, span.col)
        hit = self._loc_cache.get(key)
        if hit is None:
            hit = self._loc_cache[key] = _file_line_col(*key)
        self._span_locs[id(span)] = (span, hit)
        return hit

    def emit(self, op: Operation, node: A.Node | None = None) -> Operation:
        """Adds `op` at the insertion point, located at `node` (else at the statement being lowered).

        The ops built most often are created with `location=UNKNOWN_LOC`, the location they would get anyway
        until this replaces it: without one, xDSL looks its default up (an import statement) at every op."""
        self.op_count += 1
        if self.op_count > self.max_ops:
            raise KernelTooLarge(node or self._last_node)
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
            limit = _FLOAT_MAX.get(t.name)
            if limit is not None and abs(number) > limit and number == number:
                number = float("inf") if number > 0 else float("-inf")  # what the conversion to T gives
            op = arith.ConstantOp.create(properties={"value": _float_attr(number, ir_t)}, result_types=[ir_t],
                                         location=UNKNOWN_LOC)
        else:
            v = C.signless_value(int(value), t.bits)
            op = arith.ConstantOp.create(properties={"value": _int_attr(v, ir_t)}, result_types=[ir_t],
                                         location=UNKNOWN_LOC)
        return self.emit(op, node).results[0]

    def ssa(self, v: Val, node: A.Node | None = None) -> SSAValue:
        """The SSA value of `v`, materialising constants."""
        if v.ssa is not None:
            return v.ssa
        if isinstance(v.obj, Cell) and isinstance(v.ctype, C.ArrayT):
            return v.obj.ref  # a C array passed whole (`uint64_t mask[2]` to a vector call): its memref
        # A constant is materialised where it is used, every time: a binding may outlive the region the
        # first use was in, and an op there would not dominate later uses (cse merges the copies).
        if v.const is not None:
            if isinstance(v.ctype, C.EnumT):
                return self.emit(asc.EnumConstantOp.create(
                    properties={"value": StringAttr(str(v.const))}, result_types=[asc.EnumType(v.ctype.name)]), node
                ).results[0]
            if isinstance(v.ctype, Scalar) and not isinstance(v.const, str):
                return self.const_ssa(v.const, v.ctype, node)
        return self.undef(v.ctype, node)

    def undef(self, t: CType, node: A.Node | None = None) -> SSAValue:
        return self.emit(asc.UndefOp.create(result_types=[C.ir_type(t)]), node).results[0]

    def new_cell(self, t: CType, name: str, node: A.Node, init: Val | None = None) -> Cell:
        alloca = memref.AllocaOp.create(result_types=[C.cell_type(t)],
                                        properties={"operandSegmentSizes": _NO_SIZES}, location=UNKNOWN_LOC)
        ref = self.emit(alloca, node).results[0]
        if name:
            ref.name_hint = _hint(name)
        cell = Cell(t, ref, name)
        if init is not None:
            self.store(cell, init, node)
        return cell

    def load(self, cell: Cell, node: A.Node) -> Val:
        op = self.emit(_load(cell.ref, []), node)
        return Val(cell.ctype, op.results[0])

    def store(self, cell: Cell, v: Val, node: A.Node) -> None:
        if isinstance(v.ctype, C.TilingT) and v.ctype.path and v.ssa is not None:
            # a nested tiling struct (`this->tiling = tilingData.cubeTilingData;`, or a `const TCubeTiling &`
            # parameter bound to it): its fields, not the root struct seen under the nested type
            v = self.tiling_argument(v, node)
        if struct_pointer.store(self, cell, v, node):
            return  # `ptr = &paramStruct;`: which struct, read back by struct_pointer.read
        if isinstance(cell.ctype, C.Pointer) and isinstance(v.obj, tuple) and v.obj[0] == "tiling_array":
            same = cell.points_to is None or cell.points_to.obj[1:] == v.obj[1:]
            cell.points_to = v if same else "many"
            return  # the pointer is read by indexing it (expr_Index), which reads the field
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
        self.store_element(value, cell.ref, [], node)

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
        if cell.ref.uses or not isinstance(old_op, memref.AllocaOp):
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

    # ------------------------------------------------------------------------------------------------
    # types
    # ------------------------------------------------------------------------------------------------

    def param_type(self, p: A.Param) -> CType:
        """The type of the value a parameter binds: what a reference refers to (`const X&` resolves to a
        pointer to X), else its declared type."""
        t = self.resolve_type(p.type)
        return t.pointee if isinstance(t, C.Pointer) and "&" in p.type.pointers else t

    def resolve_type(self, t: A.TypeRef | None, node: A.Node | None = None) -> CType:
        if t is None:
            return C.UnknownT()
        base = self._resolve_base(t)
        if t.array_dims:
            for k, dim in reversed(list(enumerate(t.array_dims))):
                # `float A[] = {...}`: the outermost bound comes from the initialiser's length
                n = self.const_eval(dim) if dim is not None else \
                    len(node.init.items) if k == 0 and isinstance(node, A.Declarator) \
                    and isinstance(node.init, A.InitList) else None
                if isinstance(n, int):
                    base = C.ArrayT(base, int(n))
                else:
                    base = C.UnknownT(f"{base}[]") if isinstance(base, C.UnknownT) else C.UnsizedArrayT(f"{base}[]")
        for _ in t.pointers:
            base = C.Pointer(base, gm=t.address_space == "__gm__")
        return base

    def _resolve_base(self, t: A.TypeRef) -> CType:
        if t.decltype_expr is not None:
            return self.expr(t.decltype_expr).ctype
        if isinstance(t.base, str):
            if t.base == "void":
                return C.VoidT()
            if t.base == "auto":
                return C.UnknownT("auto")
            s = C.scalar_named(t.base)
            return s if s is not None else C.UnknownT(t.base)
        if in_register_api(t.base):
            return C.RegisterApiT()
        parts = self.scope.without_namespaces([p for p in t.base.parts if p.name not in _TRANSPARENT_NAMESPACES])
        if not parts:
            return C.UnknownT(str(t.base))
        last = parts[-1]
        if len(parts) >= 2 and parts[-2].name == "conditional" and last.name == "type":
            # `typename std::conditional<USE_MDL, A, B>::type` (ops-nn fused_patch_mlp), as conditional_t
            return self.named_type("conditional_t", parts[-2].template_args)
        bound = self.frame.types.get(parts[-2].name) if len(parts) == 2 and self.frames else None
        if bound is None and len(parts) == 2 and not parts[0].template_args:
            bound = self._member_alias_class(parts[0].name)
        if bound is None and len(parts) >= 2 and (parts[-2].name in self.scope.classes or parts[-2].template_args and (
                parts[-2].name in self.scope.partial_specializations or parts[-2].name in self.scope.specializations)):
            # (`typename L1ATypeSelector<AType>::L1AType`: of a template defined only by its specialisations too)
            member = self.class_member_type(parts[-2], last.name)
            if member is not None:
                return member
        if bound is None and len(parts) >= 2 and parts[-2].name in self.scope.alias_templates:
            # `mmQuantType<int8_t, half, int32_t>::MT`: a member of the class an alias template names
            bound = self.named_type(parts[-2].name, parts[-2].template_args)
        if isinstance(bound, C.ClassT) and bound.name in self.scope.classes:
            # `typename X_TYPE::T` for a class template argument: the alias its class declares, for its arguments
            info = self.scope.classes[bound.name]
            nested = info.nested.get(last.name)
            if nested is not None and not nested.template_params:
                return C.ClassT(nested.name, bound.args)  # `typename MatmulKernel::Params`: with the outer's arguments
            member = self._member_alias(info, bound.args, last.name)
            if member is not None:
                return member
        if last.name in self.scope.homonyms:  # (the namespaces written choose among classes of one name)
            return self.named_type(last.name, last.template_args, [p.name for p in t.base.parts[:-1]])
        return self.named_type(last.name, last.template_args, [p.name for p in parts[:-1]])

    def _member_alias_class(self, name: str) -> CType | None:
        """The class an alias of the enclosing class names (`typename Tile::Element` in a class declaring
        `using Tile = typename Policy::template Tile<T>;`), which shadows a namespace-scope class of that name."""
        frame = self.frame if self.frames else None
        info = frame.owner if frame is not None and frame.owner is not None else (
            frame.this.info if frame is not None and frame.this is not None else None)
        alias = None
        while info is not None and alias is None:  # (a nested class sees its outer class's aliases)
            alias = info.aliases.get(name)
            info = info.outer
        if alias is None or id(alias) in self._aliases_resolving:
            return None
        self._aliases_resolving.add(id(alias))
        try:
            t = self.resolve_type(alias)
        finally:
            self._aliases_resolving.discard(id(alias))
        return t if isinstance(t, C.ClassT) and t.name in self.scope.classes else None

    def class_member_type(self, owner: A.NamePart, name: str) -> CType | None:
        """`Traits<T>::type`: an alias declared in a (template) class, resolved with its arguments bound."""
        found = self._owner_class(owner)
        if found is None:
            return None
        info, args = found
        return self._member_alias(info, args, name)

    def _member_alias(self, info: ClassInfo, args: Sequence[object], name: str, depth: int = 0) -> CType | None:
        """The type a member alias `name` of the class (for the arguments `args`) names, looked up in the class
        and then in its bases (`MmadAtlasA2Pingpong<true>::ArchTag`, declared by its base MmadAtlasA2)."""
        alias = info.aliases.get(name)
        if alias is not None:
            with self._class_template_frame(info, args):
                return self.resolve_type(alias)
        if depth > 8:
            return None
        for base_ref in info.decl.bases:
            with self._class_template_frame(info, args):
                base = self.resolve_type(base_ref)
            if isinstance(base, C.ClassT) and base.name in self.scope.classes and base.name != info.name:
                found = self._member_alias(self.scope.classes[base.name], base.args, name, depth + 1)
                if found is not None:
                    return found
        return None

    def _owner_class(self, owner: A.NamePart) -> tuple[ClassInfo, Sequence[object]] | None:
        """The class that `Config<T>` in `Config<T>::member` names, and its template arguments: the explicit
        or partial specialisation chosen for the arguments (`template <> struct Config<int16_t>`), else the
        primary template (cann-ops gcd reads `typename GcdConfig<T>::FpType`, which is half for int16_t)."""
        if owner.template_args:
            chosen = self.named_type(owner.name, owner.template_args)
            if isinstance(chosen, C.ClassT) and chosen.name in self.scope.classes:
                return self.scope.classes[chosen.name], chosen.args
        if owner.name not in self.scope.classes:
            return None  # only specialisations are defined, and none is for these arguments
        return self.scope.classes[owner.name], [self._template_arg_value(a) for a in owner.template_args or []]

    def named_type(self, name: str, targs: list[A.TemplateArg] | None, qualifiers: list[str] = ()) -> CType:  # type: ignore[assignment]
        for frame in reversed(self.frames[-1:]):
            if name in frame.types:
                bound = frame.types[name]
                if isinstance(bound, C.Scalar | C.LocalTensorT | C.GlobalTensorT | C.ClassT | C.TilingT | C.StructT | C.ObjectT | C.Pointer | C.EnumT | C.VoidT):
                    return bound  # (void too: `if constexpr (!std::is_void_v<PrologueB>)` of catlass's OptimizedMatmul)
                if isinstance(bound, C.TemplateNameT) and targs:
                    return self.named_type(bound.name, targs, qualifiers)
                if type(bound) is C.UnknownT:
                    return C.UnresolvedArgT(name)  # a declared parameter whose argument is out of reach
        if not targs and not qualifiers and self.frames and self.frame.this is not None:
            this = self.frame.this
            if this.info.decl.name == name and this.info.template_params:
                return this.ctype  # the injected class name: `Coord c;` in Coord<RANK_, ...> is Coord<2, ...>
            nested = _nested_class(this.info, name)
            if nested is not None:
                return C.ClassT(nested.name, this.ctype.args)  # `Params` in a method of the kernel class
        if name.startswith("DTYPE_") or name.startswith("ORIG_DTYPE_"):
            return self.dtype_macro(name)
        s = C.scalar_named(name)
        if s is not None:
            return s
        args = targs or []
        if name in ("conditional_t", "Conditional_t") and len(args) == 3:
            # std::conditional_t<cond, A, B> (ops-nn's foreach kernels pick a compute type by it)
            cond = self._template_arg_value(args[0])
            if isinstance(cond, bool | int):
                picked = self._template_arg_value(args[1] if cond else args[2])
                if picked is not None and not isinstance(picked, int | float | str):
                    return picked  # type: ignore[return-value]
            return C.UnknownT("conditional_t")
        if name == "PrimT" and len(args) == 1:
            # AscendC's PrimT<T>: the element type of T (T itself for the scalar types modelled here)
            inner = self._template_arg_value(args[0])
            if isinstance(inner, C.LocalTensorT | C.GlobalTensorT) and inner.elem is not None:
                return inner.elem
            if isinstance(inner, Scalar):
                return inner
        if name == "LocalTensor":
            return C.LocalTensorT(self._elem_arg(args, 0))
        if name == "GlobalTensor":
            return C.GlobalTensorT(self._elem_arg(args, 0))
        if name in ("TQue", "TQueBind"):
            pos = self._position_arg(args, 0 if name == "TQue" else 1)
            if name == "TQueBind" and (pos == "GM" or pos == "CO2" and self._position_arg(args, 0) == "CO1"):
                # a binding towards GM (CO1 -> CO2 as well) keeps its buffers in the source's memory
                # [asc-devkit impl/basic_api/kernel_event.h GetBufferPos]: TQueBind<CO1, GM> holds L0C tensors
                pos = self._position_arg(args, 0)
            depth = self._int_arg(args, 1 if name == "TQue" else 2, 1)
            source = self._position_arg(args, 0) if name == "TQueBind" else ""
            # TQueBind<VECIN, VECOUT>: a copy through UB (MTE2 in, MTE3 out), not TQue<VECOUT>'s VECOUT -> GM
            ub_to_ub = source in ("VECIN", "VECOUT", "VECCALC") and pos in ("VECIN", "VECOUT", "VECCALC")
            return C.QueueT(pos, depth, source if ub_to_ub else "")
        if name == "TSCM" and args:  # `using TSCM = TQueBind<pos, TPosition::TSCM, depth>` [kernel_tpipe.h]
            return C.QueueT("TSCM", self._int_arg(args, 1, 1))
        if name == "TBuf":
            return C.BufT(self._position_arg(args, 0) if args else "VECCALC")
        if name == "TPipe":
            return C.PipeT()
        if self.frames and (self.frame.this is not None or self.frame.owner is not None) and not qualifiers:
            # a member alias hides a class of the namespace (`using BlockMmad = BlockMmad_;` in a kernel class);
            # in a class template's frame (its aliases resolved for one instantiation), that class's
            info: ClassInfo | None = self.frame.this.info if self.frame.this is not None else self.frame.owner
            while info is not None:  # this class's aliases, then those of the classes it is nested in
                alias = info.aliases.get(name)
                if alias is not None and id(alias) not in self._aliases_resolving:
                    # (`using ArchTag = typename BlockMmad::ArchTag;` where BlockMmad names no class with that
                    # member would name itself again: an unknown type, not an endless lookup)
                    self._aliases_resolving.add(id(alias))
                    try:
                        return self.resolve_type(alias)
                    finally:
                        self._aliases_resolving.discard(id(alias))
                info = info.outer
        if name in self.scope.tiling_structs and name not in self.scope.classes:
            return C.TilingT(name)
        cls = self.scope.classes.get(name)
        class_key = name
        namespace: str | None = None  # of the homonym meant: only its specialisations apply
        if name in self.scope.homonyms:
            class_key = self._homonym(name, qualifiers)
            namespace = dict((k, ns) for ns, k in self.scope.homonyms[name])[class_key]
            cls = self.scope.classes.get(class_key)
        if cls is not None or name in self.scope.specializations or name in self.scope.partial_specializations:
            if cls is not None and name in self.scope.tiling_structs and cls.is_plain_struct:
                return C.TilingT(name)
            values = tuple(self._template_arg_value(a) for a in args)
            primary = cls or (self.scope.declared_templates.get(name) if namespace is None or self.scope.declared_in.get(
                id(self.scope.declared_templates[name].decl) if name in self.scope.declared_templates else 0) == namespace
                else None)
            if primary is not None and primary.template_params and len(values) < len(primary.template_params):
                # a specialisation is chosen for the whole argument list, defaults of the primary included
                # (`BlockMmad<Policy, L1, L0, A, B, C>` matched against a pattern of nine)
                values = self._with_defaults(primary, values)
            for special_args, key in self._specialisations_in(self.scope.specializations.get(name, ()), namespace):
                if len(special_args) == len(values) and all(
                        self._template_arg_value(a) == v for a, v in zip(special_args, values)):
                    return C.ClassT(key)  # `template <> class Computer<float>` for Computer<float>
            matches = [((params, key, bound), partial_order.pattern_shapes(pattern, params))
                       for pattern, params, key in self._specialisations_in(
                           self.scope.partial_specializations.get(name, ()), namespace)
                       if (bound := self._match_partial_specialization(pattern, params, values, primary)) is not None]
            if matches:  # the most specialised of those that match, as C++ chooses
                params, key, bound = partial_order.most_specialised(matches)
                return C.ClassT(key, tuple(bound.get(p.name or "", C.UnknownT(p.name or "?")) for p in params))
            if cls is None:
                return C.UnknownT(name)  # only specialisations are defined, and none is for these arguments
            return C.ClassT(class_key, values)
        if name in self.scope.aliases:
            params = self.scope.alias_templates.get(name)
            if params and targs:
                # `mmType<half, CubeFormat::ND>`: the aliased type with the alias's parameters bound
                with self._template_frame(name, params, [self._template_arg_value(a) for a in targs]):
                    return self.resolve_type(self.scope.aliases[name])
            return self.resolve_type(self.scope.aliases[name])
        if name in REGISTER_API_TYPES and self.report.api_uncatalogued:
            # (only the uncatalogued architectures have the register API: for a 910B, RegTensor is unknown)
            return C.RegisterApiT()
        if name in self.scope.enums:
            underlying = self.scope.enums[name].underlying
            t = self.resolve_type(underlying) if underlying is not None else C.I32
            return t if isinstance(t, Scalar) else C.I32  # user enums are plain integers to us
        kind = self.catalog_type_kind(name)
        if kind == "struct" and name.endswith("Tiling"):
            return C.TilingT(name)  # TCubeTiling, SoftMaxTiling, ...: filled by the host like any tiling data
        if kind == "struct":
            return C.StructT(self.catalog.struct_name(name))  # type: ignore[attr-defined]
        if kind == "enum":
            return C.EnumT(name)
        if name.endswith(("Tiling", "TilingData")):
            return C.TilingT(name)  # a library tiling struct (LogSoftMaxTiling, ...): filled by the host
        if name == "LocalMemAllocator":
            hw = self._template_arg_value(args[0]) if args else None
            return C.ObjectT(f"LocalMemAllocator<{hw if isinstance(hw, str) else 'UB'}>")
        if name == "TQueSync" and args:  # the pipes are part of its identity (which flags it sets)
            pipes = [self._template_arg_value(a) for a in args]
            return C.ObjectT(f"TQueSync<{','.join(str(p) for p in pipes)}>")
        if name in _OBJECT_TYPES:
            return C.ObjectT(name)
        if self.catalog.vendor_type(name):  # type: ignore[attr-defined]
            # a parameter struct or library class the catalog does not model: a value whose fields and
            # methods are not followed, not an unknown type
            return C.StructT(name)
        return C.UnknownT(name)

    def _defaults_match(self, primary: ClassInfo | None, written: int, values: Sequence[object]) -> bool:
        """Whether the arguments a pattern leaves out (`CopyGmToL1<AtlasA2, GemmType<E, RowMajor>>`, the primary
        taking a third, `class L1Type = void`) are, in `values`, the primary template's defaults."""
        if written == len(values):
            return True
        if primary is None:
            return False
        completed = self._with_defaults(primary, tuple(values[:written]))
        return len(completed) == len(values) and all(
            _same_template_arg(a, b) for a, b in zip(completed[written:], values[written:]))

    def _match_partial_specialization(self, pattern: Sequence[A.TemplateArg], params: Sequence[A.TemplateParam],
                                      values: Sequence[object], primary: ClassInfo | None = None
                                      ) -> dict[str, object] | None:
        """The bindings of a partial specialisation's parameters that make its pattern (`<T, U, 1>`) the
        arguments `values`, or None when it does not match or an argument it depends on is unknown."""
        if len(pattern) > len(values) or not self._defaults_match(primary, len(pattern), values):
            return None
        names = {p.name for p in params if p.name}
        bound: dict[str, object] = {}
        for arg, value in zip(pattern, values):
            if not self._match_pattern_arg(arg.value, value, names, bound):
                return None
        return bound

    def _match_pattern_arg(self, node: A.Node, value: object, names: set[str], bound: dict[str, object]) -> bool:
        """Deduces the parameters `names` in one argument of a partial specialisation's pattern: a bare
        parameter takes the value; `Policy<FLAG>` matches an instance of the class template Policy whose
        arguments match in turn (`MmadAtlasA2Pingpong<ENABLE_UNIT_FLAG_>` for MmadAtlasA2Pingpong<true>);
        anything else must equal the value."""
        param = _parameter_named(node, names)
        if param is not None:
            if param in bound and not _same_template_arg(bound[param], value):
                return False
            bound[param] = value
            return True
        ref = node.type if isinstance(node, A.TypeArgExpr) else node
        qname = ref.base if isinstance(ref, A.TypeRef) and not ref.pointers else (
            ref.qname if isinstance(ref, A.Name) else None)
        if isinstance(qname, A.QualifiedName) and qname.parts[-1].template_args and any(
                _mentions(a.value, names) for a in qname.parts[-1].template_args):
            last = qname.parts[-1]
            if not isinstance(value, C.ClassT) or value.name.partition("<")[0] != last.name:
                return False
            inner = list(value.args)
            base_name = value.name.partition("<")[0]
            if len(inner) < len(last.template_args) or not self._defaults_match(
                    self.scope.classes.get(base_name) or self.scope.declared_templates.get(base_name),
                    len(last.template_args), inner):
                return False
            return all(self._match_pattern_arg(a.value, v, names, bound)
                       for a, v in zip(last.template_args, inner))
        if isinstance(value, C.UnknownT) or value is None:
            return False
        return _same_template_arg(self._template_arg_value(A.TemplateArg(node.span, node)), value)

    def _specialisations_in(self, found: Sequence[tuple], namespace: str | None) -> list[tuple]:  # type: ignore[type-arg]
        """The specialisations (entries whose last item is their class key) declared in `namespace`; all of them
        when no namespace is asked for."""
        if namespace is None:
            return list(found)
        return [f for f in found if f[-1] in self.scope.classes
                and self.scope.declared_in.get(id(self.scope.classes[f[-1]].decl), "") == namespace]

    def _homonym(self, name: str, qualifiers: Sequence[str]) -> str:
        """The key of the class `name` meant where several namespaces declare one: the one whose namespace ends
        with the qualifier written (`Epilogue::Tile::TileCopy`), else the one of the namespace of the class whose
        code names it, else the first declared."""
        found = self.scope.homonyms[name]
        written = "::".join(q for q in qualifiers if q not in _TRANSPARENT_NAMESPACES)
        if written:
            for ns, key in found:
                if ns == written or ns.endswith("::" + written):
                    return key
        this = self.frame.this if self.frames else None
        info = this.info if this is not None else (self.frame.owner if self.frames else None)
        while info is not None and info.outer is not None:
            info = info.outer
        here = self.scope.declared_in.get(id(info.decl), None) if info is not None else None
        for ns, key in found:
            if here is not None and ns == here:
                return key
        return found[0][1]

    def _static_member_of_type(self, parts: Sequence[A.NamePart], e: A.Node) -> Val | None:
        """`DispatchPolicy::L1_STAGES`, `BlockMmad::DispatchPolicy::ASYNC`, `QuantMode<Arch, float, half>::VALUE`:
        a static constant of the class the qualifier names (through aliases, template parameters or a
        specialisation), declared there or in a base class."""
        head = list(parts[:-1])
        try:
            t = self.resolve_type(A.TypeRef(head[0].span, A.QualifiedName(head[0].span, head)))
        except Unsupported:
            return None
        depth = 0
        while isinstance(t, C.ClassT) and t.name in self.scope.classes and depth < 8:
            info = self.scope.classes[t.name]
            decl = info.static_constants.get(parts[-1].name)
            if decl is not None:
                with self._class_template_frame(info, t.args):
                    return self._constant_decl(decl, e, info)
            bases = info.decl.bases
            if not bases:
                return None
            with self._class_template_frame(info, t.args):
                t = self.resolve_type(bases[0])  # (the first base: catlass's policies derive from one)
            depth += 1
        return None

    def _with_defaults(self, info: ClassInfo, values: tuple[object, ...]) -> tuple[object, ...]:
        """`values` completed with the defaults of the class template's remaining parameters, each evaluated
        with the parameters before it bound (`class TileCopy = Tile::TileCopy<typename Policy::ArchTag, A>`)."""
        params = info.template_params or []
        out = list(values)
        types = {p.name: v for p, v in zip(params, values) if p.name}
        self.frames.append(Frame(info.name, [{}], None, types, set()))
        try:
            for p in params[len(values):]:
                if p.variadic or p.default is None:
                    break
                v = self._default_template_value(p)
                out.append(v)
                if p.name:
                    types[p.name] = v
        finally:
            self.frames.pop()
        return tuple(out)

    def dtype_macro(self, name: str) -> CType:
        bound = self.options.dtypes.get(name)  # type: ignore[attr-defined]
        if bound is None:
            # A kernel checked without its op json: the build would instantiate it once per dtype listed
            # there; float is the one every vector API accepts, so it reports no dtype errors of its own.
            bound = DEFAULT_DTYPE
        s = C.scalar_named(bound)
        return s if s is not None else C.UnknownT(bound)

    def _template_arg_value(self, a: A.TemplateArg) -> object:
        if isinstance(a.value, A.TypeRef):
            return self.resolve_type(a.value)
        if isinstance(a.value, A.Name) and len(a.value.qname.parts) == 1 and self.frames:
            bound = self.frame.types.get(a.value.qname.parts[0].name)
            if isinstance(bound, C.UnknownT | FunctionRef):
                return bound  # a template parameter whose value is out of reach stays an unknown value
        if isinstance(a.value, A.Name) and self._names_function(a.value):
            return FunctionRef(".".join(p.name for p in a.value.qname.parts), a.value)
        try:
            v = self.expr(a.value)
        except Unsupported:
            if isinstance(a.value, A.Name):
                return self.named_type(a.value.qname.parts[-1].name, a.value.qname.parts[-1].template_args)
            return C.UnknownT("template argument")
        if v.const is not None:
            return v.const
        if isinstance(v.ctype, C.UnknownT) and isinstance(a.value, A.Name):
            return self.named_type(a.value.qname.parts[-1].name, a.value.qname.parts[-1].template_args)
        return constant_struct_text(v) or v.ctype

    def _names_function(self, name: A.Name) -> bool:
        """Whether a template argument names a function (a user function or function template instance such as
        `AbsAdapter<half>`, or an API such as Adds) rather than a value or a type: nothing local or in the class
        has the name."""
        last = name.qname.parts[-1]
        if len(name.qname.parts) == 1 and self.frames and (
                self.lookup(last.name) is not None or last.name in self.frame.types):
            return False
        if last.name in self.scope.functions:
            return True
        return self.catalog.has_api(last.name) and self.catalog_type_kind(last.name) is None  # type: ignore[attr-defined]

    def _elem_arg(self, args: list[A.TemplateArg], i: int) -> Scalar | None:
        if i >= len(args):
            return None
        v = self._template_arg_value(args[i])
        return v if isinstance(v, Scalar) else None

    def _position_arg(self, args: list[A.TemplateArg], i: int) -> str:
        if i >= len(args):
            return asc.UNKNOWN_POSITION
        v = self._template_arg_value(args[i])
        if isinstance(v, str) and v in asc.POSITIONS:
            return v
        return asc.UNKNOWN_POSITION

    def _int_arg(self, args: list[A.TemplateArg], i: int, default: int) -> int:
        if i >= len(args):
            return default
        v = self._template_arg_value(args[i])
        return int(v) if isinstance(v, int | float) and not isinstance(v, bool) else default

    def catalog_type_kind(self, name: str) -> str | None:
        return self.catalog.type_kind(name)  # type: ignore[attr-defined, no-any-return]

    # ------------------------------------------------------------------------------------------------
    # constants
    # ------------------------------------------------------------------------------------------------

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

    # ------------------------------------------------------------------------------------------------
    # functions and frames
    # ------------------------------------------------------------------------------------------------

    def assigned_names(self, body: A.Node) -> set[str]:
        """Names written after their declaration somewhere in `body` (they need a cell)."""
        if isinstance(body, A.Node):
            return facts(body).assigned  # type: ignore[return-value]
        return _memo(body, "assigned", lambda: self._assigned_names(body))  # type: ignore[no-any-return]

    def written_names(self, body: A.Node) -> set[str]:
        """The local variables `body` may change: those it assigns, and those it passes to a function of the
        program that takes that argument by non-const reference. `SetParams(params, rows)` filling a
        DataCopyParams in a loop: declared as a constant, its fields would keep their initial 0 where the
        copy reads them. (Members passed so stay as they are: an object member is not a cell.)"""
        written = self.assigned_names(body)
        by_reference = self.passed_by_reference(body)
        return written | by_reference if by_reference - written else written

    def passed_by_reference(self, body: object) -> set[str]:
        """The plain variables `body` passes where a function or method of that name takes a non-const
        reference (any overload: a cell too many only costs folding)."""
        if not self._any_reference_param():
            return set()  # no function of the program takes one: the body need not be walked
        return {name for callee, i, name in _bare_name_arguments(body) if self._takes_reference(callee, i)}

    def _any_reference_param(self) -> bool:
        """Whether any function or method of the program takes a non-const reference parameter."""
        if self._reference_taken is None:
            functions = [fn for fns in self.scope.functions.values() for fn in fns]
            functions += [fn for info in self.scope.classes.values() for fns in info.methods.values() for fn in fns]
            self._reference_taken = any(non_const_reference(p) for fn in functions for p in fn.params)
        return self._reference_taken

    def _takes_reference(self, callee: str, position: int) -> bool:
        key = (callee, position)
        hit = self._reference_params.get(key)
        if hit is None:
            candidates = list(self.scope.functions.get(callee, ()))
            for info in self.scope.classes.values():
                candidates.extend(info.methods.get(callee, ()))
            hit = self._reference_params[key] = any(
                position < len(fn.params) and non_const_reference(fn.params[position]) for fn in candidates)
        return hit

    def _assigned_names(self, body: object) -> set[str]:
        # a statement list: what its statements write, from the facts each keeps (astwalk.written_root)
        items = body if isinstance(body, list | tuple) else ()
        return set().union(*(facts(n).assigned for n in items if isinstance(n, A.Node)))

    def lookup(self, name: str) -> Binding | None:
        frame = self.frame
        for scope in reversed(frame.scopes):
            hit = scope.get(name)
            if hit is not None:
                return hit
        if frame.this is not None:
            hit = frame.this.members.get(name)
            if hit is not None:
                return hit
        return None

    def bind(self, name: str, b: Binding) -> None:
        self.frame.scopes[-1][name] = b

    def _out_parameters(self, fn: A.FunctionDecl, args: Sequence[Val], call: A.Call) -> Sequence[Val]:
        """`uint32_t n = 0; GetSize(row, n);` with `void GetSize(uint32_t r, uint32_t& n)`: the caller's `n`
        was never assigned in its own body, so it is a constant, not a cell. The callee writes it through the
        reference: give `n` a cell now (in the scope that declares it, holding its current value), and pass
        the cell, so the write lands and later reads of `n` see it. The same holds for a parameter struct
        that a helper fills in (`DataCopyParams p{1, 0, 0, 0}; SetParams(p, rows, cols);`)."""
        if len(call.args) != len(args):
            return args
        scope = self.frame.scopes[-1]
        changed = list(args)
        for i, (p, a) in enumerate(zip(fn.params, call.args)):
            if not non_const_reference(p) or not isinstance(a, A.Name):
                continue
            name = a.qname.parts[-1].name
            bound = scope.get(name)
            if len(a.qname.parts) != 1 or not isinstance(bound, Val) or not isinstance(bound.ctype, Scalar | C.StructT):
                continue
            cell = self.new_cell(bound.ctype, name, call, bound)
            scope[name] = cell
            changed[i] = self.read_binding(cell, call)
        return changed

    def inline_function(self, fn: A.FunctionDecl, args: Sequence[Val], this: Instance | None, node: A.Node,
                        types: dict[str, object] | None = None) -> Val:
        if fn.body is None:
            raise Unsupported(f"'{fn.name.parts[-1].name}' is declared but never defined", node)
        if len(self.frames) > MAX_INLINE_DEPTH:
            raise Unsupported(f"call chain deeper than {MAX_INLINE_DEPTH} (recursion is not allowed in device code)", node)
        env_types = dict(this.types) if this is not None else {}
        env_types.update(types or {})
        if isinstance(node, A.Call):
            args = self._out_parameters(fn, args, node)
        frame = Frame(fn.name.parts[-1].name, [{}], this, env_types, self.written_names(fn.body))
        self.frames.append(frame)
        try:
            self._bind_params(fn, args, node)  # (first: a trailing `-> decltype(count * sizeof(T))` names them)
            frame.return_type = self.resolve_type(fn.return_type) if fn.return_type is not None else C.VoidT()
            returns = _returns_in(fn.body)
            stmts = fn.body.body
            tail_return = bool(stmts) and isinstance(stmts[-1], A.Return) and len(returns) == 1
            if tail_return:
                self.lower_stmts(stmts[:-1], top="function")
                ret = stmts[-1]
                assert isinstance(ret, A.Return)
                if ret.value is not None and not isinstance(frame.return_type, C.VoidT):
                    value = self.expr(ret.value)
                    value = (self.convert(value, frame.return_type, ret) if isinstance(frame.return_type, Scalar)
                             else value)
                    self.run_destructors(frame.scopes[0], ret)
                    return value
                self.run_destructors(frame.scopes[0], ret)
                return Val(C.VoidT())
            if returns and isinstance(frame.return_type, C.ClassT) and frame.return_type.name in self.scope.classes:
                frame.return_object = self.instantiate(frame.return_type, f"{frame.name}_result", node,
                                                       construct=False)
            elif returns and not isinstance(frame.return_type, C.VoidT):
                frame.return_cell = self.new_cell(frame.return_type, f"{frame.name}_result", node)
            self.begin_function_body(stmts, node)
            self.lower_stmts(stmts, top="function")
            self.run_destructors(frame.scopes[0], node)
            if frame.return_object is not None:
                return Val(frame.return_object.ctype, obj=frame.return_object)
            if frame.return_cell is not None:
                return self.load(frame.return_cell, node)
            return Val(C.VoidT())
        finally:
            self._owned.pop(id(frame.scopes[0]), None)
            self.frames.pop()

    def _bind_params(self, fn: A.FunctionDecl, args: Sequence[Val], node: A.Node) -> None:
        frame = self.frame
        for i, p in enumerate(fn.params):
            if p.name is None:
                continue
            if p.variadic:  # `Ts... values`: the rest of the arguments, as a pack
                self.bind(p.name, Val(C.UnknownT("parameter pack"), obj=Pack(tuple(args[i:]))))
                break
            if i < len(args):
                arg = args[i]
            elif p.default is not None:
                arg = self.expr(p.default)
            else:
                raise Unsupported(f"too few arguments in call to '{frame.name}'", node)
            ptype = self.param_type(p)
            is_ref = "&" in p.type.pointers
            if isinstance(arg.obj, tuple) and arg.obj[0] == "init" and not isinstance(ptype, C.UnknownT):
                # `op.Init({x, y, n})`: a value of the parameter's type, its items read in the caller's scope
                callee = self.frames.pop()
                try:
                    arg = self.init_list(ptype, arg.obj[1].items, node)
                finally:
                    self.frames.append(callee)
            if not self.check_tensor_conversion(arg, ptype, node, f"argument {i + 1} ('{p.name}') of '{frame.name}'"):
                arg = Val(ptype, self.undef(ptype, node))  # the body sees the declared type: no second error there
            if isinstance(ptype, C.TilingT | C.StructT) and isinstance(arg.ctype, Scalar):
                arg = self.tiling_view(arg) or arg
            arg = self._converted_to_class(arg, ptype, p.name, node)
            if isinstance(arg.obj, Instance) or isinstance(arg.obj, Cell) and is_ref:
                self.bind(p.name, arg.obj)  # objects and references alias the caller's variable
                continue
            if isinstance(ptype, Scalar) and p.name in frame.assigned:
                self.bind(p.name, self.new_cell(ptype, p.name, node, arg))
            elif isinstance(ptype, Scalar):
                self.bind(p.name, self.convert(arg, ptype, node))
            elif p.name in frame.assigned and isinstance(arg.ctype, C.LocalTensorT | C.StructT | C.TilingT) and not (
                    isinstance(arg.ctype, C.TilingT) and arg.ctype.path):
                # (a struct inside tiling data, `td.matMulTilingData`, is read through its root value: a cell of the
                # inner struct's type would hold the root and read its fields by the root's paths)
                self.bind(p.name, self.new_cell(arg.ctype, p.name, node, arg))
            else:
                self.bind(p.name, arg)

    def _converted_to_class(self, arg: Val, t: CType, name: str, node: A.Node) -> Val:
        """An argument for a parameter of user class `t` that is no object of that class (or of one derived from
        it): the temporary its converting constructor makes (`MakeLayoutInL0C(MatrixCoord const &)` given a
        Coord<2>). Anything else is passed as it is."""
        if not isinstance(t, C.ClassT) or t.name not in self.scope.classes:
            return arg
        inst = arg.obj if isinstance(arg.obj, Instance) else None
        if inst is not None and (inst.info is self.scope.classes[t.name] or any(
                b.info is self.scope.classes[t.name] for b in _parts(inst))):
            return arg
        if inst is None and not isinstance(arg.ctype, Scalar | C.ArrayT):
            return arg
        if not any(len(c.params) >= 1 for c in self.scope.classes[t.name].constructors):
            return arg
        return Val(t, obj=self.instantiate(t, name, node, [arg]))

    # ------------------------------------------------------------------------------------------------
    # statements
    # ------------------------------------------------------------------------------------------------

    def begin_function_body(self, stmts: Sequence[A.Node], node: A.Node) -> None:
        """A function whose returns are not all structural (see `_structural_returns`) gets a flag that
        is set on return and guards everything that could still run after it."""
        returns = [r for st in stmts for r in _returns_in(st)]
        if {id(r) for r in returns} - _structural_returns(stmts):
            self.frame.return_flag = self.new_cell(C.BOOL, f"{self.frame.name}_returned", node, Val(C.BOOL, const=0))

    def lower_stmts(self, stmts: Sequence[A.Node], top: str | None = None) -> None:
        """Lowers a statement list; after a statement that may leave early, the rest runs guarded.
        `top` says the list is the whole body of a function, loop or switch case (where an exiting `if`
        can take the rest of the list as its else branch)."""
        i = 0
        while i < len(stmts):
            st = stmts[i]
            rest = stmts[i + 1:]
            exits = _exits(st)
            if exits and rest and top and isinstance(st, A.If) and st.otherwise is None and _always_exits(st.then):
                # `if (c) { ...; return; } rest`: rest becomes the else branch
                self._lower_if_with_else_rest(st, rest, top)
                return
            self.lower_stmt(st)
            if exits and rest:
                guard = self._no_exit_condition(exits, st)
                if guard is not None:
                    if_op = self.emit(scf.IfOp(guard, [], Region(Block())), st)
                    with self.at_end_of(if_op.regions[0].block):
                        self.frame.scopes.append({})
                        self.lower_stmts(rest)
                        self.frame.scopes.pop()
                        self.emit(scf.YieldOp(), st)
                    return
            i += 1

    def _lower_if_with_else_rest(self, st: A.If, rest: Sequence[A.Node], top: str) -> None:
        try:
            cond = self.condition(st.cond)
        except Unsupported as exc:
            self.report.failed(exc)
            self._forget_effects(st)
            self.lower_stmts(rest, top=top)  # the guarded branch is lost; the rest of the function is not
            return
        if cond.const is not None:
            if cond.const:
                self.lower_block(st.then)
            else:
                self.lower_stmts(rest, top=top)
            return
        if_op = self.emit(scf.IfOp(self.ssa(cond, st), [], Region(Block()), Region(Block())), st)
        with self.at_end_of(if_op.regions[0].block):
            self.lower_block(st.then)
            self.emit(scf.YieldOp(), st)
        with self.at_end_of(if_op.regions[1].block):
            self.frame.scopes.append({})
            self.lower_stmts(rest, top=top)
            self.frame.scopes.pop()
            self.emit(scf.YieldOp(), st)

    def _no_exit_condition(self, exits: set[str], node: A.Node) -> SSAValue | None:
        """i1 that is true when none of the flags `exits` names is set (None: nothing to guard)."""
        flags: list[Cell] = []
        frame = self.frame
        if ExitKind.RETURN in exits and frame.return_flag is not None:
            flags.append(frame.return_flag)
        if frame.loop_flags:
            for kind in (ExitKind.BREAK, ExitKind.CONTINUE):
                cell = frame.loop_flags[-1].get(kind)
                if kind in exits and cell is not None:
                    flags.append(cell)
        if not flags:
            return None
        any_set: SSAValue | None = None
        for f in flags:
            v = self.load(f, node).ssa
            assert v is not None
            any_set = v if any_set is None else self.emit(arith.OrIOp(any_set, v), node).results[0]
        true = self.const_ssa(1, C.BOOL, node)
        assert any_set is not None
        return self.emit(arith.XOrIOp(any_set, true), node).results[0]

    def lower_block(self, st: A.Node) -> None:
        self.frame.scopes.append({})
        try:
            if isinstance(st, A.Compound):
                self.lower_stmts(st.body)
            else:
                self.lower_stmts([st])
            if not (isinstance(st, A.Compound) and st.body and _always_exits(st.body[-1])):
                self.run_destructors(self.frame.scopes[-1], st)
        finally:
            self._owned.pop(id(self.frame.scopes.pop()), None)

    def run_destructors(self, scope: dict[str, Binding], node: A.Node) -> None:
        """The destructors of the objects declared in `scope`, last declared first, as the block ends."""
        for inst in reversed(self._owned.pop(id(scope), [])):
            dtor = _destructor_of(inst)
            if dtor is not None:
                self.inline_function(dtor, [], inst, node)

    def lower_stmt(self, st: A.Node) -> None:
        self._last_node = st
        try:
            self._lower_stmt(st)
        except Unsupported as exc:
            self.report.failed(exc)
            self._forget_effects(st)

    def _forget_effects(self, st: A.Node) -> None:
        """What a statement that could not be lowered may have done becomes unknown, so that later checks do
        not build on the state from before it. The variables it writes get an unknown value (else a loop
        bound reads as the member's initial 0 when `count_ = tiling->ends[idx] - ...` was not lowered, and
        the loop as never running); if it calls anything, the queues in reach may have been used (a helper
        that enqueues, whose DeQue would then look like one on an empty queue)."""
        for name in sorted(self.written_names(st)):
            self.forget_scalar(name, st)
        if not facts(st).callish:
            return
        if self._may_use_flags(st):
            # the SetFlag/WaitFlag it holds, or its helper does, are lost: flag pairing cannot be judged
            self.emit(asc.OpaqueCallOp.create(properties={"callee": StringAttr(FLAGS_NOT_LOWERED)}), st)
        queues: dict[SSAValue, None] = {}
        bindings = [b for scope in self.frame.scopes for b in scope.values()]
        if self.frame.this is not None:
            bindings += list(self.frame.this.outermost().members.values())
        seen: set[int] = set()
        while bindings:
            b = bindings.pop()
            if isinstance(b, Val) and isinstance(b.ctype, C.QueueT) and b.ssa is not None:
                queues[b.ssa] = None
            elif isinstance(b, Instance) and id(b) not in seen:
                # an object in scope (`op.Init(..., UNDEFINED_MACRO, &pipe)` in the kernel body): the call
                # may have set up or used its queues
                seen.add(id(b))
                bindings += list(b.outermost().members.values())
        if queues:
            op = asc.OpaqueCallOp.create(operands=list(queues), properties={"callee": StringAttr("<not lowered>")})
            self.emit(op, st)

    def forget_scalar(self, name: str, node: A.Node) -> None:
        """The scalar variable `name` now holds a value not known here."""
        binding = self.lookup(name)
        if isinstance(binding, Cell) and isinstance(binding.ctype, Scalar):
            cell_t = binding.ref.type
            assert isinstance(cell_t, MemRefType)
            self.store_element(self.undef_ir(cell_t.element_type), binding.ref, [], node)

    def _may_use_flags(self, st: A.Node, depth: int = 0) -> bool:
        """Whether `st` calls SetFlag/WaitFlag, directly or through the user functions it calls (remembered per
        node and depth for the program: a kernel with hundreds of statements out of reach walked its helpers'
        bodies again for each, 0.5 s apiece in ops-transformer batch_mat_mul_reduce_scatter_allto_all)."""
        key = (id(st), depth)
        known = self.scope.flag_users.get(key)
        if known is None:
            known = self.scope.flag_users[key] = self._walk_for_flags(st, depth)
        return known

    def _walk_for_flags(self, st: A.Node, depth: int) -> bool:
        for node in st.walk():
            if not isinstance(node, A.Call):
                continue
            name = _callee_name(node)
            if name is None:
                continue
            if name in _FLAG_CALLS:
                return True
            if depth < 3:
                helpers = [*self.scope.functions.get(name, ()),
                           *(fn for info in self.scope.classes.values() for fn in info.methods.get(name, ()))]
                if any(fn.body is not None and self._may_use_flags(fn.body, depth + 1) for fn in helpers):
                    return True
        return False

    def _lower_stmt(self, st: A.Node) -> None:
        if isinstance(st, A.Compound):
            self.lower_block(st)
        elif isinstance(st, A.ExprStmt):
            value = self.expr(st.expr)
            if isinstance(st.expr, A.Cast) and st.expr.kind == "functional" and (st.expr.args or st.expr.expr) \
                    and not isinstance(value.ctype, Scalar | C.VoidT):
                # `Name(args);` read as a temporary of a type that is discarded at once: if a call was meant
                # (a function the lowering did not find), nothing of it is in the IR, so say so
                self.report.unsupported(f"'{_node_text(st.expr.type)}(...)' constructs a temporary {value.ctype} "
                                        "and discards it; no function of that name is called", st)
        elif isinstance(st, A.VarDecl):
            self.declare(st)
        elif isinstance(st, A.If):
            self.lower_if(st)
        elif isinstance(st, A.For):
            self.lower_for(st)
        elif isinstance(st, A.While):
            self.lower_while(st.cond, st.body, st)
        elif isinstance(st, A.DoWhile):
            self.lower_do_while(st)
        elif isinstance(st, A.Switch):
            self.lower_switch(st)
        elif isinstance(st, A.Return):
            self.lower_return(st)
        elif isinstance(st, A.Break | A.Continue):
            self.lower_loop_exit(st)
        elif isinstance(st, A.AliasDecl):
            # a block-scope `using Strategy = HighPerfStrategy;`: later declarations and template arguments in
            # this function name the type through it
            aliased = self.resolve_type(st.type)
            if not isinstance(aliased, C.UnknownT):
                self.frame.types[st.name] = aliased
            return
        elif isinstance(st, A.NullStmt | A.EmptyDecl | A.StaticAssert | A.UsingDirective | A.UsingDecl):
            return
        elif isinstance(st, A.MacroDecl):
            self.lower_macro_stmt(st)
        elif isinstance(st, A.ClassDecl | A.EnumDecl):
            # local types: collected with the program's declarations; variables declared with the type
            # (`union { int i; float f; } u;`) are declared like any other, of that type when it has a name
            for d in getattr(st, "declarators", None) or []:
                self._declare_with_local_type(st, d)
            return
        elif isinstance(st, A.Label):
            return
        else:
            raise Unsupported(f"{type(st).__name__.lower()} statements are not supported in device code", st)

    def _declare_with_local_type(self, st: A.ClassDecl | A.EnumDecl, d: A.Declarator) -> None:
        if st.name:
            typed = replace(d, type=replace(d.type, base=A.QualifiedName(st.span, [A.NamePart(st.span, st.name)])))
            if not isinstance(self.resolve_type(typed.type), C.UnknownT):
                self.declare(A.VarDecl(st.span, [], [typed]))
                return
        # an anonymous union or struct, or a class local to the function: what its members hold is not
        # modelled (a union reinterprets bits); the variable exists, and what is read from it is unknown
        self.bind(d.name, Val(C.UnknownT(st.name or "anonymous class"), None))

    def lower_macro_stmt(self, st: A.MacroDecl) -> None:
        call = A.Call(st.span, A.Name(st.span, A.QualifiedName(st.span, [A.NamePart(st.span, st.name)])), st.args)
        self.expr(call)

    def declare(self, st: A.VarDecl) -> None:
        for d in st.declarators:
            self._last_node = d
            t = self.resolve_type(d.type, d)
            is_ref = "&" in d.type.pointers
            if isinstance(t, C.Pointer) and is_ref:
                t = t.pointee
            try:
                init = self._declarator_init(d, t)
            except Unsupported as exc:
                # report it, and declare the name anyway so its uses do not cascade into more errors
                self.report.failed(exc)
                if isinstance(t, C.UnknownT | C.VoidT):
                    self.bind(d.name, Val(t))
                elif d.name in self.frame.assigned and isinstance(t, Scalar | C.LocalTensorT | C.StructT | C.TilingT):
                    self.bind(d.name, self.new_cell(t, d.name, d))
                else:
                    self.bind(d.name, Val(t, self.undef(t, d)))
                continue
            if isinstance(t, C.UnknownT) and t.text == "auto" and init is not None:
                t = init.ctype
            try:
                self.bind_local(d.name, t, init, d, st, is_ref)
            except Unsupported as exc:
                # `Kernel<T> op;` whose constructor or member initialisers fail: one report, and `op.Init()`
                # below is not `use of undeclared identifier 'op'`
                self.report.failed(exc)
                if d.name not in self.frame.scopes[-1]:
                    self.bind(d.name, Val(C.UnknownT(t.text if isinstance(t, C.UnknownT) else str(t))))

    def _declarator_init(self, d: A.Declarator, t: CType) -> Val | None:
        if d.init is not None:
            if isinstance(d.init, A.InitList):
                return self.init_list(t, d.init.items, d)
            return self.expr(d.init, expected=t)
        if d.ctor_args:
            if isinstance(t, C.ClassT):
                return None  # constructor arguments: handled when the instance is made
            if list_tensor.is_list_tensor_desc(t):  # `ListTensorDesc desc(data)`
                return list_tensor.declare(self, d.name, d, [self.expr(a) for a in d.ctor_args
                                                             if not isinstance(a, A.InitList)])
            return self.init_list(t, d.ctor_args, d)
        return None

    def check_tensor_conversion(self, v: Val, t: CType, node: A.Node, what: str) -> bool:
        """`LocalTensor<float> x = q.DeQue<half>();`: a tensor class does not convert to another element type
        or from a GlobalTensor (reported; False). Unknown element types (an unbound template parameter) are not
        judged."""
        tensor_types = (C.LocalTensorT, C.GlobalTensorT)
        s = v.ctype
        if not isinstance(t, tensor_types) or not isinstance(s, tensor_types):
            return True
        if type(s) is not type(t) or (s.elem is not None and t.elem is not None and s.elem != t.elem):
            self.report.tensor_type_mismatch(str(t), str(s), node, what)
            return False
        return True

    def bind_local(self, name: str, t: CType, init: Val | None, d: A.Node, st: A.Node, is_ref: bool = False) -> None:
        if init is not None:
            self.check_tensor_conversion(init, t, d, f"the initialisation of '{name}'")
        if init is not None and isinstance(init.obj, Instance) and not is_ref:
            # `MatrixCoord offset = blockCoord * blockShape;`: a Coord<2> made a MatrixCoord by its constructor
            init = self._converted_to_class(init, t, name, d)
        if init is not None and (isinstance(init.obj, Instance) or (is_ref and isinstance(init.obj, Cell))):
            self.bind(name, init.obj)  # type: ignore[arg-type]
            return
        if isinstance(t, C.ClassT):
            ctor_args = [self.expr(a) for a in d.ctor_args] if isinstance(d, A.Declarator) else []  # type: ignore[arg-type]
            inst = self.instantiate(t, name, d, ctor_args)
            self.bind(name, inst)
            if _destructor_of(inst) is not None:
                self._owned.setdefault(id(self.frame.scopes[-1]), []).append(inst)
            return
        if list_tensor.is_list_tensor_desc(t):
            is_desc = init is not None and isinstance(init.obj, tuple) and init.obj[0] == "list_tensor_desc"
            self.bind(name, init if is_desc else list_tensor.declare(self, name, d, []))  # type: ignore[arg-type]
            return
        if isinstance(t, C.PipeT | C.QueueT | C.BufT | C.GlobalTensorT | C.ObjectT) and init is None:
            obj = self.make_object(t, name, d)
            if isinstance(t, C.ObjectT) and t.name == "Matmul" and isinstance(d, A.Declarator):
                obj.ssa.owner.properties["config"] = StringAttr(self._matmul_config(d.type))  # type: ignore[union-attr]
            self.bind(name, obj)
            return
        if isinstance(t, C.ArrayT):
            self.bind(name, self.new_array(t, name, d, init))
            return
        mutable = name in self.frame.assigned
        if isinstance(t, Scalar):
            if init is not None:
                init = self.convert(init, t, d)
            if not mutable and init is not None:
                if init.ssa is not None:
                    init.ssa.name_hint = init.ssa.name_hint or _hint(name)
                self.bind(name, init)
            else:
                self.bind(name, self.new_cell(t, name, d, init))
            return
        if init is None:
            if isinstance(t, C.StructT):
                init = Val(t, self.emit(asc.StructInitOp.create(
                    properties={"fields": ArrayAttr([])}, operands=[], result_types=[C.ir_type(t)]), d).results[0])
            elif isinstance(t, C.UnknownT):
                if t.reported:
                    self.report.unknown_type(t.text, d)
                self.bind(name, Val(t))
                return
        if mutable:
            self.bind(name, self.new_cell(t, name, d, init))
        else:
            self.bind(name, init if init is not None else Val(t, self.undef(t, d)))

    def new_array(self, t: C.ArrayT, name: str, node: A.Node, init: Val | None) -> Cell:
        """A C array (of any rank) in one memref; brace initialisers are stored element by element."""
        dims, elem = C.array_shape(t)
        ref = self.emit(memref.AllocaOp.get(C.ir_type(elem), shape=dims), node).results[0]
        ref.name_hint = _hint(name)
        cell = Cell(t, ref, name)
        if init is not None and isinstance(init.obj, list):
            if not array_init.covers(init.obj, dims):  # `int a[64] = {};`: the elements not given are 0
                array_init.zero_fill(self, ref, dims, elem, node)  # type: ignore[arg-type]
            for position, item in _flatten_init(init.obj, dims):
                idx = [self.emit(arith.ConstantOp(IntegerAttr(i, IndexType())), node).results[0] for i in position]
                item = self.convert(item, elem, node)
                self.store_element(self.ssa(item, node), ref, idx, node)
        return cell

    def array_element(self, base: Val, index: Val, node: A.Node) -> tuple[Cell, list[SSAValue], CType] | None:
        """(array cell, indices so far, element type) for `base[index]` on an array (or a row of one)."""
        t = base.ctype
        assert isinstance(t, C.ArrayT)
        if isinstance(base.obj, Cell):
            cell, indices = base.obj, []
        elif isinstance(base.obj, tuple) and base.obj[0] == "array_view":
            _, cell, indices = base.obj
        elif isinstance(base.obj, list):  # a constant array indexed at run time: give it memory
            cell, indices = self.new_array(t, "", node, base), []
        elif (at := array_pointer.element_index(self, base, index, node)) is not None:
            return at[0], at[1], t.elem  # `p[i]` with `p = arr + k`
        else:
            return None
        return cell, [*indices, self.index_value(index, node)], t.elem

    def make_object(self, t: CType, name: str, node: A.Node) -> Val:
        props = {"var_name": StringAttr(name)}
        if isinstance(t, C.PipeT):
            op: Operation = asc.TPipeOp.create(properties=props, result_types=[C.ir_type(t)])
        elif isinstance(t, C.QueueT):
            op = asc.TQueOp.create(properties=props, result_types=[C.ir_type(t)])
        elif isinstance(t, C.BufT):
            op = asc.TBufOp.create(properties=props, result_types=[C.ir_type(t)])
        elif isinstance(t, C.GlobalTensorT):
            op = asc.GlobalTensorOp.create(properties=props, result_types=[C.ir_type(t)])
        elif isinstance(t, C.ObjectT) and t.name == "Matmul":
            op = asc.MatmulObjectOp.create(properties={**props, "config": StringAttr("")}, result_types=[C.ir_type(t)])
        else:
            op = asc.ObjectOp.create(properties=props, result_types=[C.ir_type(t)])
        result = self.emit(op, node).results[0]
        result.name_hint = _hint(name)
        if isinstance(t, C.PipeT):
            self.pipes.append(result)
        return Val(t, result)

    def instantiate(self, t: C.ClassT, name: str, node: A.Node, ctor_args: Sequence[Val] = (),
                    construct: bool = True) -> Instance:
        """A new object of class `t`: its base parts, its members, then its constructor (the one that takes
        `ctor_args`). With `construct=False` only the parts and members are made: the derived class's
        constructor runs the base constructor it names (see _run_constructor)."""
        info = self.scope.classes[t.name]
        types: dict[str, object] = {}
        params = info.scope_params or []  # (a nested class's: those of its outer class, whose arguments it has)
        for i, p in enumerate(params):
            if p.name is None:
                continue
            if p.variadic:  # `template <uint32_t... Dims>`: the rest of the arguments
                types[p.name] = Pack(tuple(t.args[i:]))
                break
            if i < len(t.args):
                value = t.args[i]
            elif p.default is not None:
                value = self._default_template_value(p)
            else:
                value = C.UnknownT(p.name)
            types[p.name] = value
        inst = Instance(info, t, types, {}, name)
        reassigned = self.class_assigned(info)
        frame = Frame(info.name, [{}], inst, dict(types), set())
        self.frames.append(frame)
        try:
            for base_ref in info.decl.bases:  # base parts first: the derived class may shadow their members
                base_t = self.resolve_type(base_ref)
                if isinstance(base_t, C.ClassT) and base_t.name in self.scope.classes and base_t.name != info.name:
                    base = self.instantiate(base_t, name, node, construct=False)
                    inst.members.update(base.members)
                    base.members = inst.members  # one object: base methods see the derived object's state
                    base.whole = inst
                    inst.bases.append(base)
            for vd, d in info.fields:
                self._last_node = d
                ft = self.resolve_type(d.type, d)
                if isinstance(ft, C.Pointer) and "&" in d.type.pointers and isinstance(ft.pointee, C.StructT | Scalar):
                    # a reference member to a value (`BinaryRepeatParams &repeatParams;`) is read as that value;
                    # one to an object (`TPipe& pipe_;`, bound to the caller's pipe) or to a type out of reach
                    # (`typename mm2Type::MT &mm2;`) stays the reference it was
                    ft = ft.pointee
                if isinstance(ft, C.Pointer) and "&" in d.type.pointers and isinstance(ft.pointee, C.ClassT):
                    # a reference member to a user class object (`Derived &pred;` bound to `*this` through the
                    # base's constructor, the CRTP idiom): the object the constructor binds it to
                    inst.members[d.name] = Val(ft, obj=UNBOUND_REFERENCE)
                elif isinstance(ft, C.ClassT):
                    inst.members[d.name] = self.instantiate(ft, f"{name}.{d.name}", d, self._member_init_args(ft, d))
                elif list_tensor.is_list_tensor_desc(ft):
                    inst.members[d.name] = list_tensor.declare(self, d.name, d, [])
                elif isinstance(ft, C.GlobalTensorT) and info.is_plain_struct:
                    # a tensor field of a record (catlass's L1TileMmadParams::gmBlockC), which its users assign
                    val = self.make_object(ft, d.name, d)
                    inst.members[d.name] = self.new_cell(ft, d.name, d, val)
                elif isinstance(ft, C.PipeT | C.QueueT | C.BufT | C.GlobalTensorT | C.ObjectT):
                    val = self.make_object(ft, d.name, d)
                    if isinstance(ft, C.ObjectT) and ft.name == "Matmul":
                        config = self._matmul_config(d.type)
                        val.ssa.owner.properties["config"] = StringAttr(config)  # type: ignore[union-attr]
                    # `xGm = xGm[offset]` somewhere in the class: the member is a variable holding the object
                    inst.members[d.name] = self.new_cell(ft, d.name, d, val) if d.name in reassigned else val
                elif isinstance(ft, C.ArrayT) and self._object_array(ft):
                    # `L1TileMmadParams paramsList[PRELOAD_STAGES];`: one object per element
                    inst.members[d.name] = Val(ft, obj=[
                        Val(ft.elem, obj=self.instantiate(ft.elem, f"{name}.{d.name}[{i}]", d))  # type: ignore[arg-type]
                        for i in range(ft.size)])
                elif isinstance(ft, C.ArrayT):  # (`int64_t sizes[3] = {1, 1, 1};`: its initialiser too)
                    inst.members[d.name] = self.new_array(ft, d.name, d, self._declarator_init(d, ft))
                elif "const" in vd.specifiers and d.init is not None and isinstance(ft, Scalar):
                    inst.members[d.name] = self.convert(self.expr(d.init), ft, d)
                else:
                    init = self._declarator_init(d, ft)
                    if isinstance(ft, C.UnknownT) and ft.reported:
                        self.report.unknown_type(ft.text, d)
                    inst.members[d.name] = self.new_cell(ft, d.name, d, init)
        finally:
            self.frames.pop()
        if construct:
            self.construct(inst, ctor_args, node)
        return inst

    def _copy_members(self, dst: Instance, src: Instance, node: A.Node) -> None:
        """What a copy constructor does for the data members modelled as cells (objects are shared)."""
        for fname, member in dst.members.items():
            source = src.members.get(fname)
            if isinstance(member, Cell) and isinstance(source, Cell) and isinstance(member.ctype, C.ArrayT):
                if isinstance(source.ctype, C.ArrayT):
                    self._copy_array(member, source, node)  # a Coord's `Index idx[RANK]`
            elif isinstance(member, Cell) and isinstance(source, Cell):
                self.store(member, self.load(source, node), node)
            elif isinstance(member, Instance) and isinstance(source, Instance) and member.info is source.info:
                self._copy_members(member, source, node)

    def _aggregate_init(self, inst: Instance, items: Sequence[A.Node], node: A.Node) -> None:
        """`Info{a, b}` / `Info{.len = a, .num = b}` for a class without constructors: the data members in
        declaration order, or the ones the designators name, take the values."""
        order = [d.name for _, d in inst.info.fields]
        for i, item in enumerate(items):
            if isinstance(item, A.DesignatedInit):
                fname, value_node = item.field_name, item.value
            elif i < len(order):
                fname, value_node = order[i], item
            else:
                continue
            member = inst.members.get(fname)
            if isinstance(member, Cell):
                value = (self.init_list(member.ctype, value_node.items, value_node)
                         if isinstance(value_node, A.InitList) else self.expr(value_node, expected=member.ctype))
                self.store(member, value, item)
            elif isinstance(member, Instance):
                # a class-typed field (`Params{shape, ptrA, layoutA, ...}`): a copy of the object given, or the
                # object its constructor makes from the braced values
                if isinstance(value_node, A.InitList):
                    self.construct(member, self._constructor_args(member, value_node.items), item)
                else:
                    value = self.expr(value_node)
                    if isinstance(value.obj, Instance):
                        self._copy_members(member, value.obj, item)
                    else:
                        self.construct(member, [value], item)

    def construct(self, inst: Instance, args: Sequence[Val], node: A.Node) -> None:
        """Runs the constructor of `inst` that takes `args`; without a user-written one, the default
        constructors of the base parts."""
        ctor = self._pick_constructor(inst.info, len(args), inst, args)
        if len(args) == 1 and isinstance(args[0].obj, Instance) and (ctor is None or not self._frame_takes(
                inst, ctor, args)):
            source = args[0].obj.outermost() if args[0].obj.info is not inst.info else args[0].obj
            part = source if source.info is inst.info else next(
                (b for b in _parts(source) if b.info is inst.info), None)
            if part is not None:
                # the implicit copy constructor (`Base(coord)` with a Coord<3>, or a GemmCoord's Coord<3> part)
                self._copy_members(inst, part, node)
                return
        if ctor is not None:
            self._run_constructor(ctor, inst, args, node)
        else:
            for base in inst.bases:
                self.construct(base, (), node)

    def _matmul_config(self, t: A.TypeRef, depth: int = 0) -> str:
        """The template arguments of a Matmul declaration as written, aliases spelled out (`using A_TYPE =
        MatmulType<TPosition::GM, CubeFormat::ND, half>;` then `Matmul<A_TYPE, ...>`), so that the simulator sees
        each operand's position and format."""
        alias = self._bare_alias(t)
        if alias is not None and depth < 8:
            return self._matmul_config(alias, depth + 1)
        if not isinstance(t.base, A.QualifiedName):
            return _type_text(t, full=True)
        parts = []
        for p in t.base.parts:
            text = p.name
            if p.template_args is not None:
                args = []
                for a in p.template_args:
                    inner = a.value.type if isinstance(a.value, A.TypeArgExpr) else a.value
                    if isinstance(inner, A.Name) and not any(q.template_args for q in inner.qname.parts):
                        inner = A.TypeRef(span=inner.span, base=inner.qname)
                    resolved = (self._matmul_config(inner, depth + 1)
                                if isinstance(inner, A.TypeRef) and depth < 8 else _node_text(a.value))
                    args.append(resolved)
                text += "<" + ", ".join(args) + ">"
            parts.append(text)
        return "::".join(parts) + "".join(t.pointers)

    def _bare_alias(self, t: A.TypeRef) -> A.TypeRef | None:
        """What a name without template arguments aliases, in the enclosing class or the program."""
        if not isinstance(t.base, A.QualifiedName) or any(p.template_args for p in t.base.parts):
            return None
        name = t.base.parts[-1].name  # `mm_kernel::MatmulObj`: aliases are kept by their own name
        alias = self.frame.this.info.aliases.get(name) if self.frames and self.frame.this else None
        return alias or self.scope.aliases.get(name)

    def class_assigned(self, info: ClassInfo) -> set[str]:
        """Members some method of the class assigns to (they need cells even when they hold objects)."""
        names: set[str] = set()
        for fn in [*(m for ms in info.methods.values() for m in ms), *info.constructors]:
            if fn.body is not None:
                names |= self.assigned_names(fn.body)
        return names

    def _default_template_value(self, p: A.TemplateParam) -> object:
        if p.kind == "type" and isinstance(p.default, A.TypeRef):
            return self.resolve_type(p.default)
        if isinstance(p.default, A.TemplateArg):
            return self._template_arg_value(p.default)
        v = self.const_eval(p.default)
        return v

    def _pick_constructor(self, info: ClassInfo, nargs: int, inst: Instance | None = None,
                          args: Sequence[Val] = ()) -> A.FunctionDecl | None:
        """The constructor taking `nargs` arguments; among several, the first whose parameters take the
        arguments' kinds (`Coord(Index const (&)[RANK])` for an array beside `Coord(Index value = 0)`)."""
        viable = [c for c in info.constructors
                  if sum(1 for p in c.params if p.default is None and p.name is not None) <= nargs <= len(c.params)]
        if len(viable) > 1 and inst is not None and args:
            self.frames.append(Frame(info.name, [{}], inst, dict(inst.types), set()))
            try:
                fitting = [c for c in viable if all(self._parameter_takes(p, a) for p, a in zip(c.params, args))]
            finally:
                self.frames.pop()
            if fitting:
                return fitting[0]
        return viable[0] if viable else None

    def _member_init_args(self, t: C.ClassT, d: A.Declarator) -> list[Val]:
        """The constructor arguments of a class-typed member's default initialiser (`CrossCoreFlag flag{ID};`)."""
        info = self.scope.classes.get(t.name)
        if info is None or not info.constructors:
            return []
        items = d.init.items if isinstance(d.init, A.InitList) else [d.init] if d.init is not None else d.ctor_args
        return [self.expr(i) for i in items or []]

    def _object_array(self, t: C.ArrayT) -> bool:
        """Whether `t` is a small array of user-class objects, modelled as one object per element."""
        return isinstance(t.elem, C.ClassT) and t.elem.name in self.scope.classes and 0 < t.size <= 16

    def _frame_takes(self, inst: Instance, ctor: A.FunctionDecl, args: Sequence[Val]) -> bool:
        """Whether `ctor` of `inst`'s class takes `args` by their kinds (see _parameter_takes)."""
        self.frames.append(Frame(inst.info.name, [{}], inst, dict(inst.types), set()))
        try:
            return all(self._parameter_takes(p, a) for p, a in zip(ctor.params, args))
        finally:
            self.frames.pop()

    def _parameter_takes(self, param: A.Param, arg: Val) -> bool:
        """Whether a constructor parameter can take the argument, by kind: an array for an array reference, a
        scalar for a scalar, an object of the class a class parameter names (conversions are not followed)."""
        if param.variadic:
            return True
        t = self.param_type(param)
        if isinstance(t, C.Pointer) and "&" in param.type.pointers:
            t = t.pointee
        got = arg.ctype
        if isinstance(t, C.ArrayT) or isinstance(got, C.ArrayT):
            return isinstance(t, C.ArrayT) and isinstance(got, C.ArrayT | C.UnknownT)
        if isinstance(t, Scalar) and isinstance(got, C.ClassT | C.LocalTensorT | C.GlobalTensorT):
            return False
        if isinstance(t, C.ClassT) and isinstance(got, Scalar):
            info = self.scope.classes.get(t.name)  # a converting constructor from a scalar may take it
            return info is not None and any(len(c.params) >= 1 for c in info.constructors)
        if isinstance(t, C.ClassT) and isinstance(got, C.ClassT):
            return t.name.partition("<")[0] == got.name.partition("<")[0] or self._derives_from(got, t)
        return True

    def _derives_from(self, derived: C.ClassT, base: C.ClassT) -> bool:
        info = self.scope.classes.get(derived.name)
        if info is None:
            return False
        for ref in info.decl.bases:
            name = ref.base.parts[-1].name if isinstance(ref.base, A.QualifiedName) else None
            if name == base.name.partition("<")[0]:
                return True
        return False

    def _run_constructor(self, ctor: A.FunctionDecl, inst: Instance, args: Sequence[Val], node: A.Node) -> None:
        frame = Frame(inst.info.name, [{}], inst, dict(inst.types), self.written_names(ctor.body) if ctor.body else set())
        self.frames.append(frame)
        try:
            self._bind_params(ctor, args, node)
            # base parts first, each with the constructor its init-list entry names (`: Base<T>(n, pipe)`),
            # else its default one, as C++ does before the members' initialisers
            named_bases = {mi.target: mi for mi in ctor.init_list}
            for mi in ctor.init_list:
                alias = inst.info.aliases.get(mi.target) if mi.target not in inst.members else None
                if alias is not None:  # `using Base = KernelBase<T>;` then `: Base(n)`
                    aliased = self.resolve_type(alias)
                    if isinstance(aliased, C.ClassT):
                        named_bases.setdefault(aliased.name, mi)
            for base in inst.bases:
                mi = named_bases.get(base.info.name) or named_bases.get(base.info.name.rsplit("::", 1)[-1])
                if mi is not None:
                    self.construct(base, [self.expr(a) for a in mi.args], mi)
                else:
                    self.construct(base, (), node)
            for mi in ctor.init_list:
                member = inst.members.get(mi.target)
                if isinstance(member, Val) and member.obj is UNBOUND_REFERENCE and len(mi.args) == 1:
                    source = self.expr(mi.args[0])
                    if isinstance(source.obj, Instance):
                        inst.members[mi.target] = source.obj  # the members are shared with the whole object
                elif isinstance(member, Cell) and mi.args:
                    self.store(member, self.expr(mi.args[0]), mi)
                elif isinstance(member, Instance) and len(mi.args) == 1 and not isinstance(mi.args[0], A.InitList):
                    source = self.expr(mi.args[0])
                    if isinstance(source.obj, Instance) and source.obj.info is member.info:
                        self._copy_members(member, source.obj, mi)  # `ti(ti)`: a copy of a struct argument
                    elif member.info.constructors:
                        self.construct(member, [source], mi)
                elif isinstance(member, Instance) and mi.args:
                    # `helper({tiling.a, tiling.b}, pipe)`: the member's own constructor (an InitBuffer of
                    # its queues, typically) runs with these arguments
                    self.construct(member, self._constructor_args(member, mi.args), mi)
            if ctor.body is not None:
                self.begin_function_body(ctor.body.body, node)
                self.lower_stmts(ctor.body.body, top="function")
        finally:
            self.frames.pop()

    def _constexpr_condition(self, st: A.If, cond: Val) -> Val:
        """An `if constexpr` condition the lowering knows nothing of (a trait from a header that was not read,
        `platform::IsSupportAtomicAdd<T>()`; not one it models, like the core-type test of ASCEND_IS_AIV) is
        one compile-time value wherever the same condition is tested with the same template arguments. It is
        read from one cell per condition, set to an unknown value at the kernel's entry, so that the queue
        analysis knows the second test goes the way the first went (an InitBuffer under one test and the
        AllocTensor under the other are on the same path)."""
        if self.kernel_block is None:
            return cond
        key = (_shape_of(st.cond), tuple(sorted((k, str(v)) for k, v in self.frame.types.items())))
        try:
            cell = self._constexpr_cells.get(key)
        except TypeError:  # (a field value that is not hashable: no sharing)
            return cond
        if cell is None:
            first = self.kernel_block.first_op
            saved = self.builder
            self.builder = Builder(InsertPoint.before(first) if first is not None
                                   else InsertPoint.at_end(self.kernel_block))
            try:
                cell = self.new_cell(C.BOOL, "constexpr_condition", st)
                self.store(cell, Val(C.BOOL, self.undef(C.BOOL, st)), st)
            finally:
                self.builder = saved
            self._constexpr_cells[key] = cell
        return self.load(cell, st)

    def _constructor_args(self, inst: Instance, nodes: Sequence[A.Node]) -> list[Val]:
        """The arguments of a constructor call on `inst`, a braced list taking the type of its parameter."""
        ctor = self._pick_constructor(inst.info, len(nodes))
        args = []
        for i, item in enumerate(nodes):
            if isinstance(item, A.InitList) and ctor is not None and i < len(ctor.params):
                # the parameter's type is spelled in the class's terms (`const tilingStruct &ti`)
                self.frames.append(Frame(inst.info.name, [{}], inst, dict(inst.types), set()))
                try:
                    ptype = self.param_type(ctor.params[i])
                finally:
                    self.frames.pop()
                args.append(self.init_list(ptype, item.items, item))
            else:
                args.append(self.expr(item))
        return args

    def lower_if(self, st: A.If) -> None:
        cond = self.condition(st.cond)
        if cond.const is None and st.is_constexpr and cond.ssa is not None and isinstance(cond.ssa.owner, asc.UndefOp):
            cond = self._constexpr_condition(st, cond)
        if cond.const is not None:
            if cond.const:
                self.lower_block(st.then)
            elif st.otherwise is not None:
                self.lower_block(st.otherwise)
            return
        regions = [Region(Block()), Region(Block())] if st.otherwise is not None else [Region(Block())]
        if_op = self.emit(scf.IfOp(self.ssa(cond, st), [], *regions), st)
        with self.at_end_of(if_op.regions[0].block):
            self.lower_block(st.then)
            self.emit(scf.YieldOp(), st)
        if st.otherwise is not None:
            with self.at_end_of(if_op.regions[1].block):
                self.lower_block(st.otherwise)
                self.emit(scf.YieldOp(), st)

    def condition(self, e: A.Node) -> Val:
        if isinstance(e, A.MacroFlag):  # `if ASCEND_IS_AIC_CONV {` with the macro's header out of reach
            return Val(C.BOOL, self.undef(C.BOOL, e))
        if isinstance(e, A.VarDecl):  # `if (auto x = ...)`
            self.declare(e)
            d = e.declarators[0]
            return self.to_bool(self.expr(A.Name(d.span, A.QualifiedName(d.span, [A.NamePart(d.span, d.name)]))), e)
        return self.to_bool(self.expr(e), e)

    def to_bool(self, v: Val, node: A.Node) -> Val:
        if v.ctype == C.BOOL:
            return v
        if isinstance(v.obj, Instance) and v.obj.find_method("operator bool") is not None:
            return self.to_bool(self._operator_call(v.obj, "operator bool", node, []), node)  # `if (callback)`
        if isinstance(v.ctype, Scalar | C.EnumT):
            if v.const is not None and not isinstance(v.const, str):
                return Val(C.BOOL, const=int(bool(v.const)))
            if isinstance(v.ctype, Scalar):
                zero = Val(v.ctype, const=0)
                return self.compare("!=", v, zero, node)
        if isinstance(v.ctype, C.Pointer):
            return Val(C.BOOL, const=int(v.ssa is not None or v.obj is not None))
        return Val(C.BOOL, self.undef(C.BOOL, node))

    # loops -------------------------------------------------------------------------------------------

    def lower_for(self, st: A.For) -> None:
        self.frame.scopes.append({})
        try:
            counted = self._counted_loop(st)
            if counted is not None:
                self._lower_counted_for(st, *counted)
                return
            if st.init is not None:
                self.lower_stmt(st.init)
            self.lower_while(st.cond, st.body, st, step=st.step)
        finally:
            self.frame.scopes.pop()

    def _counted_loop(self, st: A.For) -> tuple[str, Scalar, A.Node, A.Node, int, bool] | None:
        """`for (T i = a; i < b; i++ / i += c)` whose body neither assigns i nor breaks: an scf.for."""
        if not isinstance(st.init, A.VarDecl) or len(st.init.declarators) != 1:
            return None
        d = st.init.declarators[0]
        if d.init is None or isinstance(d.init, A.InitList):
            return None
        t = self.resolve_type(d.type)
        if not isinstance(t, Scalar) or t.is_float or t.kind == "bool":
            return None
        cond = st.cond
        if not (isinstance(cond, A.Binary) and cond.op in ("<", "<=", "!=") and _is_name(cond.lhs, d.name)):
            return None
        step = st.step
        if isinstance(step, A.IncDec) and step.op == "++" and _is_name(step.operand, d.name):
            by = 1
        elif isinstance(step, A.Assign) and step.op == "+=" and _is_name(step.target, d.name):
            c = self.const_eval(step.value)
            if not isinstance(c, int) or c <= 0:
                return None
            by = c
        else:
            return None
        if d.name in self.written_names(st.body) or _contains_break(st.body) or _contains_return(st.body):
            return None
        if cond.op == "!=" and by != 1:
            return None
        return (d.name, t, d.init, cond.rhs, by, cond.op == "<=")

    def _lower_counted_for(self, st: A.For, name: str, t: Scalar, lb_e: A.Node, ub_e: A.Node, step: int,
                           inclusive: bool) -> None:
        # C++ compares `i < ub` after the integral promotions and the usual arithmetic conversions: a uint16_t i
        # counts to 40000 as an int. So the loop counts in i's promoted type (an scf.for compares signed, which
        # i's own 8- or 16-bit type would get wrong past its signed half), and the body sees the value converted
        # back to i's type, which is what i holds. The bound (`ub + 1` of an inclusive one, computed in the
        # common type) is converted into the counting type: the same trip count whenever it lies within i's
        # range, and past it C++'s own loop never ends, since i wraps before reaching it.
        counter = C.promote(t)
        lb = self.convert(self.convert(self.expr(lb_e), t, st), counter, st)
        ub = self.expr(ub_e)
        if inclusive:
            ub = self.arith("+", ub, Val(t, const=1), st)
        ub = self.convert(ub, counter, st)
        lb_s, ub_s, step_s = self.ssa(lb, st), self.ssa(ub, st), self.const_ssa(step, counter, st)
        body = Block(arg_types=[C.scalar_ir_type(counter)])
        body.args[0].name_hint = _hint(name)
        for_op = self.emit(scf.ForOp(lb_s, ub_s, step_s, [], body), st)
        with self.at_end_of(for_op.body.block):
            i = self.convert(Val(counter, for_op.body.block.args[0]), t, st)
            if i.ssa is not None and i.ssa is not for_op.body.block.args[0]:
                i.ssa.name_hint = _hint(name)
            self.frame.scopes.append({name: i})
            self.frame.loop_flags.append(self._loop_flag_cells(st.body, st, allow_break=False))
            try:
                self.lower_loop_body(st.body)
            finally:
                self.frame.loop_flags.pop()
                self.frame.scopes.pop()
            self.emit(scf.YieldOp(), st)

    def _loop_flag_cells(self, body: A.Node, node: A.Node, allow_break: bool = True) -> dict[str, Cell | None]:
        flags: dict[str, Cell | None] = {ExitKind.BREAK: None, ExitKind.CONTINUE: None}
        if allow_break and _contains_break(body):
            flags[ExitKind.BREAK] = self.new_cell(C.BOOL, "break_flag", node, Val(C.BOOL, const=0))
        return flags

    def lower_loop_body(self, body: A.Node) -> None:
        flags = self.frame.loop_flags[-1]
        if _contains_continue(body):
            flags[ExitKind.CONTINUE] = self.new_cell(C.BOOL, "continue_flag", body, Val(C.BOOL, const=0))
        self.frame.scopes.append({})
        try:
            stmts = body.body if isinstance(body, A.Compound) else [body]
            self.lower_stmts(stmts, top="loop")
        finally:
            self.frame.scopes.pop()

    def lower_while(self, cond_e: A.Node | None, body: A.Node, st: A.Node, step: A.Expr | None = None,
                    first_flag: Cell | None = None) -> None:
        if cond_e is not None:
            c = self.const_eval(cond_e) if not isinstance(cond_e, A.VarDecl) else None
            if c is not None and not c and first_flag is None:
                return  # while (false)
        flags = self._loop_flag_cells(body, st)
        before = Block()
        after = Block()
        self.emit(scf.WhileOp([], [], Region(before), Region(after)), st)
        with self.at_end_of(before):
            cond = self.condition(cond_e) if cond_e is not None else Val(C.BOOL, const=1)
            c_ssa = self.ssa(cond, st)
            if first_flag is not None:
                c_ssa = self.emit(arith.OrIOp(self.load(first_flag, st).ssa, c_ssa), st).results[0]  # type: ignore[arg-type]
            stops = [flags[ExitKind.BREAK]]
            if _contains_return(body):
                stops.append(self.frame.return_flag)
            for stop in stops:
                if stop is not None:
                    not_stopped = self.emit(arith.XOrIOp(self.load(stop, st).ssa, self.const_ssa(1, C.BOOL, st)), st)  # type: ignore[arg-type]
                    c_ssa = self.emit(arith.AndIOp(c_ssa, not_stopped.results[0]), st).results[0]
            self.emit(scf.ConditionOp(c_ssa), st)
        with self.at_end_of(after):
            if first_flag is not None:
                self.store(first_flag, Val(C.BOOL, const=0), st)
            self.frame.loop_flags.append(flags)
            try:
                self.lower_loop_body(body)
                if step is not None:
                    guard = self._no_exit_condition({ExitKind.BREAK}, st)
                    if guard is None:
                        self.expr(step)
                    else:
                        if_op = self.emit(scf.IfOp(guard, [], Region(Block())), st)
                        with self.at_end_of(if_op.regions[0].block):
                            self.expr(step)
                            self.emit(scf.YieldOp(), st)
            finally:
                self.frame.loop_flags.pop()
            self.emit(scf.YieldOp(), st)

    def lower_do_while(self, st: A.DoWhile) -> None:
        c = self.const_eval(st.cond)
        if c is not None and not c and not _contains_break(st.body) and not _contains_continue(st.body):
            self.lower_block(st.body)  # do { ... } while (0): the macro idiom
            return
        first = self.new_cell(C.BOOL, "first_iteration", st, Val(C.BOOL, const=1))
        self.lower_while(st.cond, st.body, st, first_flag=first)

    def lower_switch(self, st: A.Switch) -> None:
        value = self.expr(st.cond) if not isinstance(st.cond, A.VarDecl) else self.condition(st.cond)
        body = st.body.body if isinstance(st.body, A.Compound) else [st.body]
        cases: list[tuple[list[A.Expr | None], list[A.Node]]] = []
        for item in body:
            if isinstance(item, A.Case):
                if cases and not cases[-1][1]:
                    cases[-1][0].append(item.value)
                else:
                    cases.append(([item.value], []))
            elif cases:
                cases[-1][1].append(item)
        # fallthrough: a case without a final break runs into the next one
        bodies: list[list[A.Node]] = []
        for i, (_, stmts) in enumerate(cases):
            run = list(stmts)
            j = i
            while not (run and isinstance(run[-1], A.Break | A.Return | A.Continue)) and j + 1 < len(cases):
                j += 1
                run += cases[j][1]
            if run and isinstance(run[-1], A.Break):
                run = run[:-1]
            bodies.append(run)
        default = next((i for i, (vals, _) in enumerate(cases) if None in vals), None)
        self.frame.loop_flags.append({ExitKind.BREAK: None, ExitKind.CONTINUE: None,
                                      **({"outer": self.frame.loop_flags[-1]} if self.frame.loop_flags else {})})  # type: ignore[dict-item]
        if any(_contains_break(A.Compound(st.span, b)) for b in bodies):
            self.frame.loop_flags[-1][ExitKind.BREAK] = self.new_cell(C.BOOL, "switch_break", st, Val(C.BOOL, const=0))
        try:
            self._lower_cases(value, cases, bodies, default, 0, st)
        finally:
            self.frame.loop_flags.pop()

    def _lower_cases(self, value: Val, cases: list[tuple[list[A.Expr | None], list[A.Node]]],
                     bodies: list[list[A.Node]], default: int | None, i: int, st: A.Node) -> None:
        while i < len(cases) and None in cases[i][0] and [v for v in cases[i][0] if v is not None] == []:
            i += 1  # the default case runs last, when nothing matched
        if i >= len(cases):
            if default is not None:
                self.frame.scopes.append({})
                self.lower_stmts(bodies[default], top="case")
                self.frame.scopes.pop()
            return
        match: Val | None = None
        for v in cases[i][0]:
            if v is None:
                continue
            eq = self.compare("==", value, self.expr(v), st)
            match = eq if match is None else self.logical("||", match, eq, st)
        assert match is not None
        if match.const is not None:
            if match.const:
                self.frame.scopes.append({})
                self.lower_stmts(bodies[i], top="case")
                self.frame.scopes.pop()
            else:
                self._lower_cases(value, cases, bodies, default, i + 1, st)
            return
        if_op = self.emit(scf.IfOp(self.ssa(match, st), [], Region(Block()), Region(Block())), st)
        with self.at_end_of(if_op.regions[0].block):
            self.frame.scopes.append({})
            self.lower_stmts(bodies[i], top="case")
            self.frame.scopes.pop()
            self.emit(scf.YieldOp(), st)
        with self.at_end_of(if_op.regions[1].block):
            self._lower_cases(value, cases, bodies, default, i + 1, st)
            self.emit(scf.YieldOp(), st)

    def lower_return(self, st: A.Return) -> None:
        frame = self.frame
        if st.value is not None and frame.return_object is not None:
            value = self.expr(st.value)
            if isinstance(value.obj, Instance):
                self._copy_members(frame.return_object, value.obj, st)  # `return GemmCoord{m, n, 0};`
            else:
                self.construct(frame.return_object, [value], st)
        elif st.value is not None and frame.return_cell is not None:
            self.store(frame.return_cell, self.expr(st.value), st)
        elif st.value is not None:
            self.expr(st.value)
        if frame.return_flag is not None:
            self.store(frame.return_flag, Val(C.BOOL, const=1), st)

    def lower_loop_exit(self, st: A.Node) -> None:
        kind = ExitKind.BREAK if isinstance(st, A.Break) else ExitKind.CONTINUE
        flags = self.frame.loop_flags
        if not flags:
            raise Unsupported(f"'{kind}' outside a loop or switch", st)
        target = flags[-1]
        if kind == ExitKind.CONTINUE and "outer" in target:
            target = target["outer"]  # type: ignore[assignment]
        cell = target.get(kind)
        if cell is None and kind == ExitKind.CONTINUE:
            cell = target[kind] = self.new_cell(C.BOOL, "continue_flag", st, Val(C.BOOL, const=0))
        if cell is not None:
            self.store(cell, Val(C.BOOL, const=1), st)

    # ------------------------------------------------------------------------------------------------
    # expressions
    # ------------------------------------------------------------------------------------------------

    def expr(self, e: A.Node, expected: CType | None = None) -> Val:
        method = getattr(self, "expr_" + type(e).__name__, None)
        if method is None:
            raise Unsupported(f"{type(e).__name__} expressions are not supported in device code", e)
        return method(e, expected) if expected is not None and type(e) in (A.Call, A.InitList) else method(e)  # type: ignore[no-any-return]

    def expr_IntLit(self, e: A.IntLit) -> Val:
        text = e.text.lower()
        unsigned = "u" in text
        long = "l" in text or e.value > 0x7FFFFFFF
        t = C.U64 if unsigned and long else C.U32 if unsigned else C.I64 if long else C.I32
        return Val(t, const=e.value)

    def expr_FloatLit(self, e: A.FloatLit) -> Val:
        return Val(C.F32 if e.text.lower().endswith("f") else C.F64, const=e.value)

    def expr_BoolLit(self, e: A.BoolLit) -> Val:
        return Val(C.BOOL, const=int(e.value))

    def expr_CharLit(self, e: A.CharLit) -> Val:
        text = e.text.strip("'")
        return Val(Scalar("int8_t"), const=ord(text[-1]) if text else 0)

    def expr_NullLit(self, e: A.NullLit) -> Val:
        return Val(C.Pointer(C.VoidT()), const=0)

    def expr_StringLit(self, e: A.StringLit) -> Val:
        return Val(C.UnknownT("string"), const=e.value)

    def expr_This(self, e: A.This) -> Val:
        if self.frame.this is None:
            raise Unsupported("'this' outside a member function", e)
        return Val(self.frame.this.ctype, obj=self.frame.this)

    def expr_Name(self, e: A.Name) -> Val:
        if in_register_api(e.qname):  # `Reg::MaskPattern::ALL`, `MicroAPI::LoadDist::DIST_NORM`
            return Val(C.RegisterApiT())
        parts = self.scope.without_namespaces([p for p in e.qname.parts if p.name not in _TRANSPARENT_NAMESPACES])
        name = parts[-1].name if parts else e.qname.parts[-1].name
        if len(parts) <= 1:
            b = self.lookup(name)
            if b is not None:
                return self.read_binding(b, e)
            if name in self.frame.types:
                bound = self.frame.types[name]
                if isinstance(bound, str):
                    # an enumerator argument (`template <HardEvent evt>`, `template <TPosition pos>`): its enum
                    enum_name = self.catalog.enum_of_value(bound) or "TPosition"  # type: ignore[attr-defined]
                    return Val(C.EnumT(enum_name), const=bound)
                if isinstance(bound, int | float):
                    return Val(C.I32 if isinstance(bound, int) else C.F32, const=bound)
                if isinstance(bound, C.MemberFunctionT):
                    return Val(bound)
                if isinstance(bound, C.UnknownT):
                    # a non-type template parameter whose argument is out of reach (`k<SRC_LEN><<<...>>>` with
                    # SRC_LEN from the build's -D flags): a value, unknown here
                    return Val(C.I64, self.undef(C.I64, e))
        elif len(parts) >= 2 and (part := self.aliased_part(*(p.name for p in parts[:-1]))) is not None:
            # `Base::pipe` with `using Base = KernelBase<T>;`: a member of this object's part of that class
            # (`Base::Base::pipe`: of that part's own base)
            return self._member_of_instance(part, name, e)
        elif parts[0].name in self.frame.types and not parts[0].template_args:
            # `A_TYPE::isTrans`, `T::value`: a member of a template's type argument
            member = self._member_of_type_argument(self.frame.types[parts[0].name], parts[1:], e)
            if member is not None:
                return member
        qualified = "::".join(p.name for p in parts)
        trait = self._type_trait(parts)
        if trait is not None:
            return trait
        # class-scoped constants: `Kernel::TILE`, or a static member used inside the class
        if self.frame.this is not None and len(parts) == 1:
            decl = self.frame.this.static_constant(name)
            if decl is not None:
                return self._constant_decl(decl, e)
        if len(parts) == 1 and self._constant_owners:
            owner = self._constant_owners[-1]
            decl = owner.static_constants.get(name)
            if decl is not None:
                return self._constant_decl(decl, e, owner)
        if len(parts) == 2 and parts[0].name in self.scope.classes:
            info, args = self._owner_class(parts[0])  # type: ignore[misc]
            decl = info.static_constants.get(name)
            if decl is not None:
                if not info.template_params:  # read where it is named, as a constant of a plain class always was
                    return self._constant_decl(decl, e, info)
                with self._class_template_frame(info, args):
                    return self._constant_decl(decl, e, info)
        if len(parts) >= 2:
            member = self._static_member_of_type(parts, e)
            if member is not None:
                return member
        hit = self.scope.enumerators.get(qualified) or (self.scope.enumerators.get(name) if len(parts) <= 2 else None)
        if hit is not None:
            enum_name, enumerator, index = hit
            value = self._enumerator_value(enum_name, enumerator, index)
            return Val(C.EnumT(enum_name) if enum_name else C.I32, const=value) if enum_name is None else Val(C.I32, const=value)
        # `RoundMode::CAST_NONE` is the enumerator even where the project has a `CAST_NONE` constant of its own
        enum_qualified = len(parts) >= 2 and (parts[-2].name in self.scope.enums
                                              or self.catalog_type_kind(parts[-2].name) == "enum")
        const = None if enum_qualified else self.scope.constants.get(name)
        if const is not None:
            vd, decl = const
            return self._global_constant(vd, decl, e)
        lib = self.catalog_constant(name, parts)
        if lib is not None:
            return lib
        header = HEADER_CONSTANTS.get(name)
        if header is not None:
            t, value = header
            return Val(t, const=value) if value is not None else Val(t, self.undef(t, e))
        if name == "block_idx":  # the CANN 9 global of `.asc` kernels
            op = asc.SystemOp("GetBlockIdx", [], overload=self.catalog.first_overload("GetBlockIdx"),
                              result_type=C.scalar_ir_type(C.I64))
            return Val(C.I64, self.emit(op, e).results[0])
        if len(parts) >= 2 and parts[0].name == "Pattern":  # reduce pattern tags: Pattern::Reduce::RA
            return Val(C.EnumT("Pattern"), const="::".join(p.name for p in parts[1:]))
        if len(parts) == 2 and parts[0].name == "Hardware":
            return Val(C.EnumT("Hardware"), const=name)
        if name == "g_coreType":
            if self.core_type is not None:  # inside one core type's specialisation: that core's
                return Val(C.EnumT("CoreType"), const=self.core_type)
            return Val(C.EnumT("CoreType"), obj="g_coreType")
        if name in ("AIV", "AIC") and len(e.qname.parts) >= 1:
            return Val(C.EnumT("CoreType"), const=name)
        if name in ("nullptr", "NULL"):
            return Val(C.Pointer(C.VoidT()), const=0)
        if len(parts) == 1 and name in SIMT_BUILTINS:
            # the SIMT model's per-thread builtins (Ascend 950 `__simt_vf__` code): values the checker does
            # not model, not undeclared names
            if name == "warpSize":
                return Val(C.I32, self.undef(C.I32, e))
            return Val(C.UnknownT("dim3"), obj=SIMT_INDEX)
        if len(parts) >= 2 and name in getattr(self.scope.classes.get(parts[-2].name), "methods", {}):
            return Val(C.MemberFunctionT(parts[-2].name, name))  # `&Kernel::Compute`
        # a function used as a value; `Apply(dst, a, b, n, Mul)` passes an AscendC one to a template
        if name in self.scope.functions or name in self.scope.classes or (len(parts) <= 1 and self.catalog.has_api(name)):
            return Val(C.UnknownT(name), obj=("function", name))
        t = self.named_type(name, parts[-1].template_args if parts else None)
        if not isinstance(t, C.UnknownT):
            return Val(t, obj=("type", t))
        if parts and parts[-1].template_args is not None and name.startswith("is_") and name.endswith("_v"):
            member = self._member_function_pointer_trait(parts[-1]) if name == "is_member_function_pointer_v" else None
            if member is not None:
                return Val(C.BOOL, const=int(member))
            # a standard type trait the lowering does not fold
            return Val(C.BOOL, self.undef(C.BOOL, e))
        if len(parts) == 2 and self._declared_alias(parts[0].name):
            # `Btype::format` with `using Btype = typename mm1Type::BT;` (ops-transformer ffn): a member of the
            # type the alias names, as for a template's type argument
            member = self._member_of_type_argument(self.named_type(parts[0].name, None), parts[1:], e)
            if member is not None:
                return member
        owner = parts[-2].name if len(parts) >= 2 else ""
        if owner and owner not in self.scope.classes and self.catalog_type_kind(owner) is None \
                and self.catalog.vendor_type(owner):
            # a static member of a vendor struct the catalog does not model (`AscendC::NdDmaConfig::unsetPad`);
            # the members of catalogued enums and structs are checked
            return Val(C.UnknownT(qualified))
        raise Undeclared(e.qname.parts[-1].name if not parts else qualified, e)

    def _declared_alias(self, name: str) -> bool:
        """Whether `name` is a type alias the program declares, at namespace scope or in this object's class."""
        if name in self.scope.aliases:
            return True
        this = self.frame.this if self.frames else None
        return this is not None and name in this.info.aliases

    def aliased_part(self, *aliases: str) -> Instance | None:
        """This object's part of the class a type alias names (`using Base = KernelBase<T>;` in a derived
        class template, whose methods write `Base::Init(...)` and `Base::pipe`); with several, each alias is
        looked up in the part the one before named (`Base::Base::pipe`)."""
        part = self.frame.this if self.frames else None
        for alias in aliases:
            if part is None or alias in self.scope.classes:
                return None
            ref = part._nearest(lambda p, alias=alias: p.info.aliases.get(alias))
            bound = self.resolve_type(ref) if ref is not None else None
            part = part.part_named(bound.name) if isinstance(bound, C.ClassT) else None
        return part

    def _member_of_type_argument(self, bound: object, rest: Sequence[A.NamePart], e: A.Node) -> Val | None:
        """`T::NAME` for a class template argument: its static constant if T is a project class, else (a
        library type such as MatmulType, whose static members are not catalogued) an unknown value."""
        if isinstance(bound, C.ClassT) and len(rest) == 1 and bound.name in self.scope.classes:
            info = self.scope.classes[bound.name]
            decl = info.static_constants.get(rest[0].name)
            if decl is None:
                return None
            # read with the class's own template parameters bound to the argument's (`extent = EXTENT` in
            # `template <typename T, int32_t EXTENT> struct ReduceType`)
            with self._class_template_frame(info, bound.args):
                return self._constant_decl(decl, e, info)
        if isinstance(bound, C.ObjectT | C.UnknownT | C.ClassT):
            return Val(C.UnknownT("::".join(p.name for p in rest)))
        return None

    @contextmanager
    def _class_template_frame(self, info: ClassInfo, args: Sequence[object]) -> Iterator[None]:
        """Lowers what a class template declares (a static constant's initialiser, a member alias) with its
        template parameters bound to `args`, the arguments of one instantiation."""
        with self._template_frame(info.name, info.scope_params or [], args):
            self.frame.owner = info
            yield

    @contextmanager
    def _template_frame(self, name: str, params: Sequence[A.TemplateParam], args: Sequence[object]) -> Iterator[None]:
        """Lowers what a template declares with its parameters bound to `args` (defaults for the rest)."""
        types = {p.name: Pack(tuple(args[i:])) if p.variadic else args[i] if i < len(args)
                 else self._default_template_value(p) for i, p in enumerate(params) if p.name}
        self.frames.append(Frame(name, [{}], None, types, set()))
        try:
            yield
        finally:
            self.frames.pop()

    def _member_function_pointer_trait(self, trait: A.NamePart) -> bool | None:
        """`std::is_member_function_pointer_v<decltype(&Predicate::CopyInPlus)>` with Predicate a user class: whether
        the class (or a base) has that method (NPUKernelBench's foreach kernels call the hooks their derived class
        defines under this test); None when the argument is not of that form."""
        args = trait.template_args or []
        ref = args[0].value if len(args) == 1 else None
        expr = getattr(ref, "decltype_expr", None)
        if not (isinstance(expr, A.Unary) and expr.op == "&" and isinstance(expr.operand, A.Name)
                and len(expr.operand.qname.parts) >= 2):
            return None
        *owner, method = expr.operand.qname.parts
        t = self.named_type(owner[-1].name, owner[-1].template_args)
        if not isinstance(t, C.ClassT) or t.name not in self.scope.classes:
            return None
        return self._class_has_method(t, method.name)

    def _class_has_method(self, t: C.ClassT, name: str, depth: int = 0) -> bool:
        info = self.scope.classes[t.name]
        if info.methods.get(name):
            return True
        if depth > 8:
            return False
        for base_ref in info.decl.bases:
            with self._class_template_frame(info, t.args):
                base = self.resolve_type(base_ref)
            if isinstance(base, C.ClassT) and base.name in self.scope.classes and base.name != info.name \
                    and self._class_has_method(base, name, depth + 1):
                return True
        return False

    def _type_trait(self, parts: Sequence[A.NamePart]) -> Val | None:
        """`std::is_same<A, B>::value`, `is_same_v<A, B>`, `IsSameType<A, B>::value` fold to constants."""
        if len(parts) >= 2 and parts[-1].name == "value" and (
                parts[-2].name in _TYPE_TRAITS or parts[-2].name in _ONE_OF_TRAITS
                or parts[-2].name in self.scope.same_type_traits):
            trait = parts[-2]
        elif parts and parts[-1].name in _TRAIT_VALUES:
            trait = parts[-1]
        else:
            return None
        args = trait.template_args or []
        if trait.name in ("is_void", "is_void_v") and len(args) == 1:  # `std::is_void_v<PrologueA>`
            return Val(C.BOOL, const=int(isinstance(self._template_arg_value(args[0]), C.VoidT)))
        if len(args) != 2 and not (trait.name in _ONE_OF_TRAITS and args):
            return None
        first, *others = (self._template_arg_value(x) for x in args)
        return Val(C.BOOL, const=int(any(_same_type(first, other) for other in others)))

    def _enumerator_value(self, enum_name: str | None, enumerator: A.Enumerator, index: int) -> int:
        if enumerator.value is not None:
            v = self.const_eval(enumerator.value)
            if isinstance(v, int):
                return v
        decl = self.scope.enums.get(enum_name) if enum_name else None
        if decl is None:
            return index
        prev = -1
        for en in decl.enumerators:
            v = self.const_eval(en.value) if en.value is not None else prev + 1
            prev = v if isinstance(v, int) else prev + 1
            if en is enumerator:
                return prev
        return index

    def catalog_constant(self, name: str, parts: Sequence[A.NamePart]) -> Val | None:
        """Enumerators of the AscendC headers: `TPosition::VECIN`, `HardEvent::MTE2_V`, `EVENT_ID0`, `PIPE_V`."""
        found = self.catalog.enumerator(name, parts[-2].name if len(parts) >= 2 else None)  # type: ignore[attr-defined]
        if found is None and len(parts) >= 2:
            # `TransposeType::TRANSPOSE_ND2ND_021`: a value of an enum the catalog lists only in part; the
            # headers may declare it (a misspelt member of a completely listed enum stays undeclared)
            enum_name = self.catalog.enum_with_more_values(parts[-2].name)  # type: ignore[attr-defined]
            return Val(C.EnumT(enum_name), const=name) if enum_name is not None else None
        if found is None:
            return None
        enum_name, value, canonical = found
        if enum_name in ("TEventID", "event_t"):
            return Val(C.I32, const=value)
        return Val(C.EnumT(enum_name), const=canonical)

    def _constant_decl(self, decl: A.Declarator, e: A.Node, owner: ClassInfo | None = None) -> Val:
        """The value of a static constant's declarator; `owner`, its class, whose other constants the initialiser
        may name unqualified."""
        t = self.resolve_type(decl.type, decl)
        if decl.init is None:
            raise Unsupported(f"static member '{decl.name}' has no initialiser here", e)
        if owner is not None:
            self._constant_owners.append(owner)
        try:
            v = self.expr(decl.init) if not isinstance(decl.init, A.InitList) else self.init_list(t, decl.init.items, e)
        finally:
            if owner is not None:
                self._constant_owners.pop()
        return self.convert(v, t, e) if isinstance(t, Scalar) else v

    def _global_constant(self, vd: A.VarDecl, decl: A.Declarator, e: A.Node) -> Val:
        if decl.init is None:
            raise Unsupported(f"global variable '{decl.name}' is not a constant", e)
        t = self.resolve_type(decl.type, decl)
        v = self.expr(decl.init) if not isinstance(decl.init, A.InitList) else self.init_list(t, decl.init.items, e)
        if "constexpr" not in vd.specifiers and "const" not in vd.specifiers and "const" not in decl.type.qualifiers:
            if v.const is None:
                raise Unsupported(f"global variable '{decl.name}' is not a constant", e)
        return self.convert(v, t, e) if isinstance(t, Scalar) else v

    def read_binding(self, b: Binding, node: A.Node) -> Val:
        if isinstance(b, Cell) and isinstance(b.points_to, struct_pointer.StructTargets):
            return struct_pointer.read(self, b, node) or self.load(b, node)
        if isinstance(b, Cell) and isinstance(b.points_to, Val) and isinstance(b.points_to.ctype, C.Pointer) \
                and isinstance(b.points_to.ctype.pointee, C.TilingT):
            # a pointer variable set to the tiling data (see store); set inside a region the read is not in,
            # its value is rebuilt here
            held = b.points_to
            here = ssa_scope.usable_at(held.ssa, self.builder.insertion_point.block, lambda op: self.emit(op, node),
                                       self.attach_to, self.kernel_block)
            if here is held.ssa:
                return held
            if here is None:
                raise Unsupported("a pointer to the tiling data set inside a block and read after it", node)
            inner = held.obj
            if isinstance(inner, Val) and inner.ssa is held.ssa:
                inner = replace(inner, ssa=here)
            return replace(held, ssa=here, obj=inner)
        if isinstance(b, Cell):
            if isinstance(b.ctype, C.ArrayT):
                return Val(b.ctype, obj=b)
            v = self.load(b, node)
            v.obj = b
            return v
        if isinstance(b, Instance):
            return Val(b.ctype, obj=b)
        return b

    def expr_Member(self, e: A.Member) -> Val:
        if isinstance(e.obj, A.This):
            this = self.frame.this
            if this is None:
                raise Unsupported("'this' outside a member function", e)
            return self._member_of_instance(this, e.member, e)
        obj = self.expr(e.obj)
        if isinstance(obj.obj, Instance):
            return self._member_of_instance(obj.obj, e.member, e)
        if obj.obj == SIMT_INDEX and e.member in ("x", "y", "z"):
            return Val(C.U32, self.undef(C.U32, e))  # threadIdx.x: one thread's index, unknown here
        t = obj.ctype
        if isinstance(t, C.Pointer) and isinstance(t.pointee, C.TilingT):
            tiling = self.tiling_from_pointer(obj, t.pointee, e)
            return self.tiling_field(tiling, e.member, e)
        if isinstance(t, C.TilingT):
            return self.tiling_field(obj, e.member, e)
        view = self.tiling_view(obj)
        if view is not None:
            return self.tiling_field(view, e.member, e)
        if isinstance(t, C.StructT | C.ObjectT):
            op = self.emit(asc.StructGetOp.create(
                operands=[self.ssa(obj, e)], properties={"field": StringAttr(e.member)},
                result_types=[C.scalar_ir_type(self._struct_field_type(t.name, e.member))]), e)
            return Val(self._struct_field_type(t.name, e.member), op.results[0])
        raise Unsupported(f"member '{e.member}' of a value of type {t}", e)

    def _member_of_instance(self, inst: Instance, name: str, e: A.Node) -> Val:
        b = inst.members.get(name)
        if b is None:
            # a static constant of the class or of a base class (`this->scalarOne` with `constexpr static float
            # scalarOne` in a class template's base), evaluated with that class's template arguments
            parts = [inst]
            while parts:
                part = parts.pop(0)
                decl = part.info.static_constants.get(name)
                if decl is not None:
                    self.frames.append(Frame(part.info.name, [{}], part, dict(part.types), set()))
                    try:
                        return self._constant_decl(decl, e)
                    finally:
                        self.frames.pop()
                parts += part.bases
            raise Unsupported(f"'{inst.info.name}' has no member '{name}'", e)
        return self.read_binding(b, e)

    def _struct_field_type(self, struct: str, field_name: str) -> Scalar:
        t = self.catalog.struct_field_type(struct, field_name)  # type: ignore[attr-defined]
        return C.scalar_named(t) or C.U32 if t else C.U32

    def tiling_from_pointer(self, ptr: Val, t: C.TilingT, node: A.Node) -> Val:
        if isinstance(ptr.obj, Val) and isinstance(ptr.obj.ctype, C.TilingT):
            return ptr.obj  # `&tilingData`
        if isinstance(ptr.obj, Cell) and isinstance(ptr.obj.ctype, C.TilingT):
            return self.load(ptr.obj, node)
        p = self.ssa(ptr, node)
        if isinstance(p.type, asc.TilingType):
            return Val(C.TilingT(t.name), p)
        hit = self._tiling_values.get(p)
        if hit is None:
            if not isinstance(p.type, asc.GmPtrType):
                raise Unsupported("tiling data read through a non-GM pointer", node)
            hit = self.emit(asc.GetTilingDataOp.create(operands=[p], result_types=[asc.TilingType(t.name)]), node).results[0]
            self._tiling_values[p] = hit
        return Val(C.TilingT(t.name), hit)

    def tiling_field(self, tiling: Val, field_name: str, node: A.Node, index: Val | None = None) -> Val:
        t = tiling.ctype
        assert isinstance(t, C.TilingT)
        info = self.scope.classes.get(t.name) if not t.path and index is None else None
        if info is not None and field_name in info.static_constants and not info.template_params:
            # `constInfo.INVALID_IDX` with `static constexpr int INVALID_IDX = -1;` in the struct (ops-transformer
            # quant_lightning_indexer): the constant, which no instance stores
            return self._constant_decl(info.static_constants[field_name], node, info)
        path = f"{t.path}.{field_name}" if t.path else field_name
        ftype = self.tiling_field_type(t.name, path)
        if index is None and not t.path and tiling.ssa is not None and isinstance(tiling.ssa.owner, asc.StructInitOp):
            given = self._initialised_field(tiling.ssa.owner, field_name, ftype)
            if given is not None:
                return given
        if isinstance(ftype, C.TilingT) and index is None:
            # named by the root struct, as the path is: tiling_field_type walks the path from the root (named by
            # the nested struct, `td->inputParams.scaleValue` looked for inputParams inside InputParams and read
            # the float as the uint32_t of an unknown field)
            return Val(C.TilingT(t.name, path), tiling.ssa, obj=tiling.obj)
        if isinstance(ftype, C.ArrayT) and index is None:
            return Val(ftype, tiling.ssa, obj=("tiling_array", tiling, path))
        scalar = ftype.elem if isinstance(ftype, C.ArrayT) else ftype
        if not isinstance(scalar, Scalar):
            scalar = C.U32
        operands = [self.ssa(tiling, node)]
        if index is not None:
            operands.append(self.ssa(self.convert(index, C.I64, node), node))
        op = asc.TilingFieldOp.create(operands=operands, properties={"field": StringAttr(path)},
                                      result_types=[C.scalar_ir_type(scalar)], location=UNKNOWN_LOC)
        value = Val(scalar, self.emit(op, node).results[0])
        if index is None and not self._knows_tiling(t.name):
            # a field of a struct we have no definition of: it may itself be a struct (`td.cubeTiling.M`)
            value.obj = ("tiling_path", tiling, path)
        return value

    @staticmethod
    def _initialised_field(init: asc.StructInitOp, field_name: str, ftype: CType) -> Val | None:
        """A field of a struct built in the kernel (`InitConfig config = {x, &tilingData};`): the value it was
        built from, where that value has the field's type (pointers to GM and to tiling data, scalars)."""
        names = [a.data for a in init.fields.data]
        if field_name not in names:
            return None
        value = init.values[names.index(field_name)]
        if isinstance(ftype, C.Pointer):
            if isinstance(ftype.pointee, C.TilingT) and isinstance(value.type, asc.TilingType):
                return Val(ftype, value)
            if ftype.gm and isinstance(value.type, asc.GmPtrType):
                return Val(ftype, value)
            return None
        if isinstance(ftype, Scalar) and value.type == C.scalar_ir_type(ftype):
            return Val(ftype, value)
        return None

    def tiling_argument(self, v: Val, node: A.Node) -> Val:
        """A nested tiling struct passed to an API (`&td.cubeTiling` to REGIST_MATMUL_OBJ) as a value:
        `tiling_field %td "cubeTiling" -> !ascendc.tiling<"TCubeTiling">`."""
        inner = v
        if isinstance(v.ctype, C.Pointer) and isinstance(v.obj, Val):
            inner = v.obj
        elif isinstance(v.ctype, C.Pointer) and isinstance(v.obj, tuple) and v.obj[0] == "tiling_path":
            inner = Val(v.ctype.pointee, v.ssa, obj=v.obj)  # `&td.field` of a struct we have no layout for
        view = self.tiling_view(inner) if isinstance(inner.ctype, Scalar) else inner
        if view is None or not isinstance(view.ctype, C.TilingT) or not view.ctype.path or view.ssa is None:
            return v
        t = view.ctype
        struct = self.tiling_field_type(t.name, t.path)
        name = struct.name if isinstance(struct, C.TilingT) else "TCubeTiling" if "ube" in t.path else "?"
        op = asc.TilingFieldOp.create(operands=[view.ssa], properties={"field": StringAttr(t.path)},
                                      result_types=[asc.TilingType(name)])
        value = Val(C.TilingT(name), self.emit(op, node).results[0])
        return Val(C.Pointer(value.ctype), value.ssa, obj=value) if inner is not v else value

    def visible_pipe(self) -> SSAValue | None:
        """The innermost TPipe whose declaration encloses the insertion point (for GetTPipePtr())."""
        ancestors: set[int] = set()
        block: Block | None = self.builder.insertion_point.block
        while block is not None:
            ancestors.add(id(block))
            parent = block.parent_op()
            block = parent.parent_block() if parent is not None else None
        for pipe in reversed(self.pipes):
            owner = pipe.owner
            if isinstance(owner, Operation) and id(owner.parent_block()) in ancestors:
                return pipe
        return None

    def _knows_tiling(self, name: str) -> bool:
        return name in self.scope.tiling_structs or self.catalog_type_kind(name) == "struct"

    def tiling_view(self, v: Val, struct: str = "?") -> Val | None:
        """A field read of an unknown tiling struct, taken back and seen as a nested struct instead."""
        if not (isinstance(v.obj, tuple) and v.obj and v.obj[0] == "tiling_path"):
            return None
        _, root, path = v.obj
        if v.ssa is not None and not v.ssa.uses:
            owner = v.ssa.owner
            if isinstance(owner, Operation) and owner.parent_block() is not None:
                owner.detach()
                owner.erase()
            v.ssa = None
        return Val(C.TilingT(root.ctype.name, path), root.ssa, obj=root.obj)

    def tiling_field_type(self, struct: str, path: str) -> CType:
        """The type of `path` (dotted) in tiling struct `struct`; unknown structs read as uint32."""
        name = struct
        t: CType = C.U32
        for part in path.split("."):
            ts = self.scope.tiling_structs.get(name)
            if ts is None:
                kind = self.catalog_type_kind(name)
                if kind == "struct":
                    ft = self.catalog.struct_field_type(name, part)  # type: ignore[attr-defined]
                    return C.scalar_named(ft) or C.I32 if ft else C.I32
                return C.U32
            match = next((f for f in ts.fields if f[0] == part), None)
            if match is None:
                return C.U32
            _, tref, count, kind = match
            t = self.resolve_type(tref)
            if isinstance(t, C.ClassT):
                t = C.TilingT(t.name)
            if isinstance(t, C.StructT):
                t = C.TilingT(t.name)
            if kind == "array" and count is not None:
                n = self.const_eval(count)
                t = C.ArrayT(t, int(n) if isinstance(n, int) else 0)
            elif kind == "struct":
                t = C.TilingT(_type_text(tref))
            if isinstance(t, C.TilingT):
                name = t.name
        return t

    def expr_Index(self, e: A.Index) -> Val:
        base = self.expr(e.base)
        if isinstance(base.obj, Instance) and base.obj.find_method("operator[]") is not None:
            return self._operator_call(base.obj, "operator[]", e, [e.index])  # a user class's `coord[1]`
        index = self.expr(e.index)
        t = base.ctype
        if isinstance(t, C.LocalTensorT | C.GlobalTensorT):
            op = asc.SubTensorOp.create(operands=[self.ssa(base, e), self.ssa(index, e)], result_types=[C.ir_type(t)])
            return Val(t, self.emit(op, e).results[0])
        if isinstance(t, C.Pointer) and t.gm:
            elem = t.pointee if isinstance(t.pointee, Scalar) else C.U8
            op = asc.GmLoadOp.create(operands=[self.ssa(base, e), self.ssa(index, e)], result_types=[C.scalar_ir_type(elem)])
            return Val(elem, self.emit(op, e).results[0], obj=("gm_elem", base, index))
        if isinstance(t, C.ArrayT) and isinstance(base.obj, list) and isinstance(index.const, int):
            if 0 <= index.const < len(base.obj):
                return base.obj[index.const]  # type: ignore[no-any-return]
        if isinstance(t, C.ArrayT) and isinstance(base.obj, list) and len(base.obj) == 1 and self._object_array(t):
            return base.obj[0]  # type: ignore[no-any-return]  # an array of one object: any valid index is 0
        if isinstance(t, C.ArrayT) and not (isinstance(base.obj, tuple) and base.obj[0] == "tiling_array"):
            found = self.array_element(base, index, e)
            if found is not None:
                cell, indices, elem = found
                if isinstance(elem, C.ArrayT):
                    return Val(elem, obj=("array_view", cell, indices))
                op = _load(cell.ref, indices)
                return Val(elem, self.emit(op, e).results[0], obj=("array_elem", cell, indices))
        # an array field of tiling data, read element-wise: one of a known layout, or `td->inputShapes[D_DIM]`
        # of a struct whose definition is out of reach (TILING_DATA_FIELD_DEF_ARR in op_host), of the type
        # fields default to
        if isinstance(base.obj, Cell) and isinstance(base.obj.points_to, Val) and isinstance(index.ctype, Scalar):
            base = base.obj.points_to  # `counts[i]` with `counts = tiling->countList`: the field's element
            t = base.ctype
        if isinstance(base.obj, tuple) and (base.obj[0] == "tiling_array" and isinstance(t, C.ArrayT)
                                            or base.obj[0] == "tiling_path" and isinstance(index.ctype, Scalar)):
            _, tiling, path = base.obj
            root = Val(C.TilingT(tiling.ctype.name), tiling.ssa)
            return self.tiling_field(root, path, e, index)
        raise Unsupported(f"indexing a value of type {t}", e)

    def set_tensor_element(self, tensor: Val, index: Val, value: Val, node: A.Node) -> None:
        """`t.SetValue(i, v)`, and `t(i) = v` written through the tensor's operator()."""
        assert isinstance(tensor.ctype, C.LocalTensorT | C.GlobalTensorT)
        v = self.convert(value, tensor.ctype.elem, node)
        operands = [self.ssa(tensor, node), self.ssa(index, node), self.ssa(v, node)]
        self.emit(asc.SetValueOp.create(operands=operands), node)

    def index_value(self, v: Val, node: A.Node) -> SSAValue:
        if v.const is not None and not isinstance(v.const, str):
            return self.emit(arith.ConstantOp(IntegerAttr(int(v.const), IndexType())), node).results[0]
        v = self.convert(v, C.I64, node)
        return self.emit(arith.IndexCastOp(self.ssa(v, node), IndexType()), node).results[0]

    def expr_Unary(self, e: A.Unary) -> Val:
        if e.op == "&":
            v = self.expr(e.operand)
            if isinstance(v.ctype, C.MemberFunctionT):
                return v
            if isinstance(v.obj, tuple) and v.obj[0] == "gm_elem":
                # `&gm[i]`: the element's address, not its value (the load made for the value goes again)
                _, base, index = v.obj
                if v.ssa is not None and not v.ssa.uses and v.ssa.owner is not None:
                    v.ssa.owner.detach()  # type: ignore[union-attr]
                    v.ssa.owner.erase()  # type: ignore[union-attr]
                return self.pointer_offset(base, index, e)
            # The address of an object (a tensor, a tiling struct) is the object to us, with its SSA value; the
            # address of a scalar keeps the scalar in `obj` for `*p`, but not as its SSA value, which would pass
            # for a pointer (used as an operand, it is an address the lowering does not follow)
            ssa = None if isinstance(v.ctype, Scalar) else v.ssa
            return Val(C.Pointer(v.ctype), ssa, obj=v.obj if v.obj is not None else v)
        if e.op == "*":
            v = self.expr(e.operand)
            t = v.ctype
            if isinstance(t, C.Pointer) and isinstance(t.pointee, C.TilingT):
                return self.tiling_from_pointer(v, t.pointee, e)
            if isinstance(t, C.Pointer) and isinstance(t.pointee, Scalar) and isinstance(v.obj, Val | Cell):
                source = v.obj if isinstance(v.obj, Val) else self.load(v.obj, e)
                if isinstance(source.ctype, Scalar) and source.ctype != t.pointee:
                    value = self.ssa(source, e)
                    if source.ctype.bits > t.pointee.bits and not source.ctype.is_float:
                        # `*reinterpret_cast<float *>(&accVal)` on a uint64_t: the first bytes, its low bits
                        narrow = C.Scalar(f"uint{t.pointee.bits}_t")
                        value = self.emit(arith.TruncIOp(value, C.scalar_ir_type(narrow)), e).results[0]
                    elif source.ctype.bits != t.pointee.bits:
                        raise Unsupported(f"reading a {source.ctype} as {t.pointee} through a pointer", e)
                    op = arith.BitcastOp(value, C.scalar_ir_type(t.pointee))
                    return Val(t.pointee, self.emit(op, e).results[0])
                return source
            if isinstance(t, C.Pointer) and isinstance(v.obj, Val | Instance):
                return v.obj if isinstance(v.obj, Val) else Val(v.obj.ctype, obj=v.obj)
            if isinstance(e.operand, A.This) and isinstance(v.obj, Instance):
                return v  # `*this`: the object (`this` is read as the object already)
            if array_pointer.is_pointer_operand(v):  # `*(start + i)`: the element the array pointer points at
                return self.expr_Index(A.Index(e.span, e.operand, A.IntLit(e.span, "0", 0)))
            if isinstance(t, C.Pointer) and t.gm:
                return self.expr_Index(A.Index(e.span, e.operand, A.IntLit(e.span, "0", 0)))
            raise Unsupported(f"dereferencing a value of type {t}", e)
        v = self.expr(e.operand)
        if e.op == "!":
            b = self.to_bool(v, e)
            if b.const is not None:
                return Val(C.BOOL, const=int(not b.const))
            return Val(C.BOOL, self.emit(arith.XOrIOp(self.ssa(b, e), self.const_ssa(1, C.BOOL, e)), e).results[0])
        if not isinstance(v.ctype, Scalar):
            raise Unsupported(f"unary '{e.op}' on a value of type {v.ctype}", e)
        t = C.promote(v.ctype)
        v = self.convert(v, t, e)
        if e.op == "+":
            return v
        if e.op == "-":
            if v.const is not None:
                return Val(t, const=_wrap(-v.const, t))  # type: ignore[operator]
            if t.is_float:
                return Val(t, self.emit(arith.NegfOp(self.ssa(v, e)), e).results[0])
            return self.arith("-", Val(t, const=0), v, e)
        if e.op == "~":
            return self.arith("^", v, Val(t, const=-1), e)
        raise Unsupported(f"unary operator '{e.op}'", e)

    def expr_Binary(self, e: A.Binary) -> Val:
        if e.op in ("&&", "||"):
            lhs = self.to_bool(self.expr(e.lhs), e)
            if lhs.const is not None:
                if (e.op == "&&") != bool(lhs.const):
                    return Val(C.BOOL, const=lhs.const)
                return self.to_bool(self.expr(e.rhs), e)
            if _has_call(e.rhs):
                return self._short_circuit(e, lhs)
            rhs = self.to_bool(self.expr(e.rhs), e)
            return self.logical(e.op, lhs, rhs, e)
        lhs = self.expr(e.lhs)
        if isinstance(lhs.obj, Instance) and lhs.obj.find_method(f"operator{e.op}") is not None:
            return self._operator_call(lhs.obj, f"operator{e.op}", e, [e.rhs])  # `coordA + coordB`
        rhs = self.expr(e.rhs)
        # (each operand's implicit conversion is placed at the operand: `(float)1.0 / n` converts n, not a cast)
        if e.op in ("==", "!=", "<", ">", "<=", ">="):
            return self.compare(e.op, lhs, rhs, e, (e.lhs, e.rhs))
        return self.arith(e.op, lhs, rhs, e, (e.lhs, e.rhs))

    def _short_circuit(self, e: A.Binary, lhs: Val) -> Val:
        evaluate, skip = Block(), Block()
        with self.detached(evaluate):
            rhs = self.to_bool(self.expr(e.rhs), e)
            self.emit(scf.YieldOp(self.ssa(rhs, e)), e)
        with self.detached(skip):
            self.emit(scf.YieldOp(self.const_ssa(int(e.op == "||"), C.BOOL, e)), e)
        then, otherwise = (evaluate, skip) if e.op == "&&" else (skip, evaluate)
        if_op = scf.IfOp(self.ssa(lhs, e), [C.scalar_ir_type(C.BOOL)], Region(then), Region(otherwise))
        return Val(C.BOOL, self.emit(if_op, e).results[0])

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
            _erase_ops(block)
            raise
        finally:
            self.builder = saved
            self.attach_to.pop(id(block), None)

    def logical(self, op: str, a: Val, b: Val, node: A.Node) -> Val:
        if a.const is not None and b.const is not None:
            return Val(C.BOOL, const=int(bool(a.const) and bool(b.const)) if op == "&&" else int(bool(a.const) or bool(b.const)))
        # one constant operand that decides the result: `useInitCH && std::is_same<T, half>::value` is false for
        # a float T whatever the flag holds (both operands are evaluated by now; only the value is folded)
        deciding = op == "||"
        if any(v.const is not None and bool(v.const) == deciding for v in (a, b)):
            return Val(C.BOOL, const=int(deciding))
        cls = arith.AndIOp if op == "&&" else arith.OrIOp
        return Val(C.BOOL, self.emit(cls(self.ssa(a, node), self.ssa(b, node)), node).results[0])

    def _poisoned(self, a: Val, b: Val, node: A.Node) -> Val:
        """An operand whose lowering already failed (and was reported): the result is unknown, quietly."""
        known = b.ctype if isinstance(a.ctype, C.UnknownT) else a.ctype
        t = known if isinstance(known, Scalar) else C.F32
        return Val(t, self.undef(t, node))

    def compare(self, op: str, a: Val, b: Val, node: A.Node, operands: tuple[A.Node, A.Node] | None = None) -> Val:
        if isinstance(a.ctype, C.UnknownT) or isinstance(b.ctype, C.UnknownT):
            return Val(C.BOOL, self.undef(C.BOOL, node))
        if isinstance(a.ctype, C.EnumT) or isinstance(b.ctype, C.EnumT):
            if a.obj == "g_coreType" or b.obj == "g_coreType":
                other = b if a.obj == "g_coreType" else a
                core = str(other.const)
                res = self.emit(asc.CoreIsOp.create(properties={"core": StringAttr(core)},
                                                    result_types=[C.scalar_ir_type(C.BOOL)]), node).results[0]
                if op == "!=":
                    res = self.emit(arith.XOrIOp(res, self.const_ssa(1, C.BOOL, node)), node).results[0]
                return Val(C.BOOL, res)
            if a.const is not None and b.const is not None:
                same = a.const == b.const
                return Val(C.BOOL, const=int(same if op == "==" else not same))
            a = self._enum_as_int(a, node)
            b = self._enum_as_int(b, node)
        if not isinstance(a.ctype, Scalar) or not isinstance(b.ctype, Scalar):
            if isinstance(a.ctype, C.Pointer) or isinstance(b.ctype, C.Pointer):
                return Val(C.BOOL, const=int(op == "!="))
            raise Unsupported(f"comparison of {a.ctype} and {b.ctype}", node)
        t = C.common_type(a.ctype, b.ctype)
        left, right = operands or (node, node)
        a, b = self.convert(a, t, left), self.convert(b, t, right)
        if a.const is not None and b.const is not None:
            x, y = a.const, b.const
            result = {"==": x == y, "!=": x != y, "<": x < y, ">": x > y, "<=": x <= y, ">=": x >= y}[op]  # type: ignore[operator]
            return Val(C.BOOL, const=int(result))
        if t.is_float:
            pred = {"==": "oeq", "!=": "une", "<": "olt", ">": "ogt", "<=": "ole", ">=": "oge"}[op]
            x, y = self.ssa(a, node), self.ssa(b, node)
            res = _fast(arith.CmpfOp, [x, y], _I1, lambda: arith.CmpfOp(x, y, pred), predicate=_CMPF[pred])
        else:
            s = "s" if t.is_signed or t.kind == "bool" else "u"
            pred = {"==": "eq", "!=": "ne", "<": f"{s}lt", ">": f"{s}gt", "<=": f"{s}le", ">=": f"{s}ge"}[op]
            x, y = self.ssa(a, node), self.ssa(b, node)
            res = _fast(arith.CmpiOp, [x, y], _I1, lambda: arith.CmpiOp(x, y, pred), predicate=_CMPI[pred])
        return Val(C.BOOL, self.emit(res, node).results[0])

    def _enum_as_int(self, v: Val, node: A.Node) -> Val:
        if isinstance(v.ctype, C.EnumT):
            if isinstance(v.const, int):
                return Val(C.I32, const=v.const)
            raise Unsupported(f"enum {v.ctype.name} used as a number", node)
        return v

    def arith(self, op: str, a: Val, b: Val, node: A.Node, operands: tuple[A.Node, A.Node] | None = None) -> Val:
        if isinstance(a.ctype, C.UnknownT) or isinstance(b.ctype, C.UnknownT):
            return self._poisoned(a, b, node)
        a, b = self._enum_as_int(a, node), self._enum_as_int(b, node)
        if isinstance(a.ctype, C.Pointer) and isinstance(b.ctype, Scalar) and op in ("+", "-"):
            return self.pointer_offset(a, b if op == "+" else self.expr_neg(b, node), node)
        if isinstance(b.ctype, C.Pointer) and isinstance(a.ctype, Scalar) and op == "+":
            return self.pointer_offset(b, a, node)
        if op in ("+", "-") and array_pointer.is_pointer_operand(a) and isinstance(b.ctype, Scalar):
            return array_pointer.offset_view(self, a, b, op == "-", node)  # `allMem + 2 * N`
        if op == "+" and array_pointer.is_pointer_operand(b) and isinstance(a.ctype, Scalar):
            return array_pointer.offset_view(self, b, a, False, node)
        if not isinstance(a.ctype, Scalar) or not isinstance(b.ctype, Scalar):
            raise Unsupported(f"operator '{op}' on {a.ctype} and {b.ctype}", node)
        left, right = operands or (node, node)
        if op in ("<<", ">>"):
            t = C.promote(a.ctype)
            b = self.convert(b, t, right)
        else:
            t = C.common_type(a.ctype, b.ctype)
            b = self.convert(b, t, right)
        a = self.convert(a, t, left)
        if a.const is not None and b.const is not None and not isinstance(a.const, str) and not isinstance(b.const, str):
            folded = _fold(op, a.const, b.const, t)
            if folded is not None:
                return Val(t, const=folded)
        x, y = self.ssa(a, node), self.ssa(b, node)
        if t.is_float:
            cls = {"+": arith.AddfOp, "-": arith.SubfOp, "*": arith.MulfOp, "/": arith.DivfOp}.get(op)
            if cls is None:
                raise Unsupported(f"operator '{op}' on floating-point values", node)
            return Val(t, self.emit(_fast(cls, [x, y], x.type, lambda: cls(x, y)), node).results[0])
        signed = t.is_signed
        cls = {
            "+": arith.AddiOp, "-": arith.SubiOp, "*": arith.MuliOp,
            "/": arith.DivSIOp if signed else arith.DivUIOp, "%": arith.RemSIOp if signed else arith.RemUIOp,
            "<<": arith.ShLIOp, ">>": arith.ShRSIOp if signed else arith.ShRUIOp,
            "&": arith.AndIOp, "|": arith.OrIOp, "^": arith.XOrIOp,
        }.get(op)  # fmt: skip
        if cls is None:
            raise Unsupported(f"operator '{op}'", node)
        return Val(t, self.emit(_fast(cls, [x, y], x.type, lambda: cls(x, y)), node).results[0])

    def expr_neg(self, v: Val, node: A.Node) -> Val:
        t = C.promote(v.ctype) if isinstance(v.ctype, Scalar) else C.I64
        return self.arith("-", Val(t, const=0), v, node)

    def pointer_offset(self, p: Val, n: Val, node: A.Node) -> Val:
        t = p.ctype
        assert isinstance(t, C.Pointer)
        if not t.gm:
            raise Unsupported("arithmetic on a non-GM pointer", node)
        op = asc.GmPtrOffsetOp.create(operands=[self.ssa(p, node), self.ssa(self.convert(n, C.I64, node), node)],
                                      result_types=[C.ir_type(t)])
        return Val(t, self.emit(op, node).results[0])

    def convert(self, v: Val, t: CType, node: A.Node) -> Val:
        """C conversion of `v` to `t` (only arithmetic conversions make ops)."""
        if not isinstance(t, Scalar):
            self.check_tensor_conversion(v, t, node, "assignment")
            if isinstance(t, C.Pointer) and isinstance(v.ctype, C.Pointer):
                return self.pointer_cast(v, t, node)
            if isinstance(t, C.Pointer) and isinstance(v.ctype, Scalar):
                return self.pointer_from_int(v, t, node)
            return v
        if isinstance(v.ctype, C.EnumT) and isinstance(v.const, int):
            v = Val(C.I32, const=v.const)
        s = v.ctype
        if isinstance(s, C.Pointer) and isinstance(v.ssa, SSAValue) and isinstance(v.ssa.type, asc.GmPtrType) \
                and t.kind != "bool" and not t.is_float:
            # `(uint64_t)ptr`: the address the device sees
            word = self.emit(asc.GmPtrToIntOp.create(operands=[v.ssa], result_types=[C.scalar_ir_type(C.U64)]), node)
            return self.convert(Val(C.U64, word.results[0]), t, node)
        if not isinstance(s, Scalar):
            if isinstance(s, C.EnumT):
                return v  # enum values passed where an integer is declared: keep the enumerator
            if isinstance(s, C.UnknownT):
                return Val(t, self.undef(t, node)) if v.const is None else Val(t, const=v.const)
            raise Unsupported(f"cannot convert {s} to {t}", node)
        if s == t:
            return v
        if v.const is not None and not isinstance(v.const, str):
            if isinstance(v.const, float) and not math.isfinite(v.const) and not t.is_float and t.kind != "bool":
                # NaN or infinity to an integer type: undefined in C++, so no value to fold (`(T)INFINITY` in a
                # template instantiated with int32_t)
                return Val(t, self.undef(t, node))
            return Val(t, const=_convert_const(v.const, s, t))
        x = self.ssa(v, node)
        dst = C.scalar_ir_type(t)
        if t.kind == "bool":
            return self.compare("!=", v, Val(s, const=0), node)
        if s.is_float and t.is_float:
            if s.bits == t.bits:  # half <-> bfloat16: through float
                wide = self.emit(arith.ExtFOp(x, C.scalar_ir_type(C.F32)), node).results[0]
                return Val(t, self.emit(arith.TruncFOp(wide, dst), node).results[0])
            cast: type[Operation] = arith.ExtFOp if s.bits < t.bits else arith.TruncFOp
        elif s.is_float:
            cast = arith.FPToSIOp if t.is_signed else arith.FPToUIOp
        elif t.is_float:
            cast = arith.SIToFPOp if s.kind == "int" else arith.UIToFPOp
        elif s.bits == t.bits:
            return Val(t, x)
        elif s.bits < t.bits:
            cast = arith.ExtSIOp if s.kind == "int" else arith.ExtUIOp
        else:
            cast = arith.TruncIOp
        op = _fast(cast, [x], dst, lambda: cast(x, dst))  # type: ignore[call-arg]
        return Val(t, self.emit(op, node).results[0])

    def pointer_from_int(self, v: Val, t: C.Pointer, node: A.Node) -> Val:
        """An integer used as a pointer: a GM address (a tensor list's pointer table holds its tensors' addresses
        as uint64 words); a null pointer constant stays a constant; another pointer is one the lowering cannot
        follow."""
        if v.ssa is None and v.const == 0:
            return Val(t, const=0)
        target = C.ir_type(C.Pointer(t.pointee, gm=True))
        if not t.gm or not isinstance(target, asc.GmPtrType):
            return Val(t, self.undef(t, node))
        word = self.ssa(self.convert(v, C.U64, node), node)
        op = asc.GmPtrFromIntOp.create(operands=[word], result_types=[target])
        return Val(C.Pointer(t.pointee, gm=True), self.emit(op, node).results[0])

    def pointer_cast(self, v: Val, t: C.Pointer, node: A.Node) -> Val:
        if v.const == 0 and v.ssa is None:
            return Val(t, const=0)
        src = v.ctype
        if isinstance(t.pointee, C.TilingT):
            ssa = self.ssa(v, node)
            return Val(t, ssa)
        if isinstance(src, C.Pointer) and isinstance(v.ssa, SSAValue) and isinstance(v.ssa.type, asc.GmPtrType):
            target = C.ir_type(C.Pointer(t.pointee, gm=True))
            if v.ssa.type == target:
                return Val(t, v.ssa)
            if not isinstance(target, asc.GmPtrType):
                # a pointer to a class or object type (a broken struct read as a class): no GM pointer value
                return Val(t, self.undef(t, node))
            op = asc.GmPtrCastOp.create(operands=[v.ssa], result_types=[target])
            return Val(C.Pointer(t.pointee, gm=True), self.emit(op, node).results[0])
        if isinstance(src, C.Pointer) and v.obj is not None:
            return Val(t, v.ssa, obj=v.obj)
        return Val(t, v.ssa, const=v.const, obj=v.obj)

    def expr_Cast(self, e: A.Cast) -> Val:
        method = self._member_named_like_type(e)
        if method is not None:
            # `Tensor(x, y)` in a method of a class with a member function Tensor: C++ looks names up in the
            # class before the namespaces, so this calls the member, whatever vendor type has the same name
            return self.expr(A.Call(e.span, A.Name(e.span, A.QualifiedName(e.span, [A.NamePart(e.span, method)])),
                                    list(e.args or ([e.expr] if e.expr is not None else []))))
        if self._static_method_named_like_type(e):
            # `LayoutA::template MakeLayout<T>(rows, cols)`: a static method of the class the alias names
            return self.expr(A.Call(e.span, A.Name(e.span, e.type.base), list(e.args or [e.expr])))
        if self._function_named_like_class(e):
            # `BasicMatmul<RowMajor, ...>(args)` at namespace scope, where `BasicMatmul` is also a class of a
            # namespace the call does not see (`Gemm::Kernel::BasicMatmul`): the call of the function template
            return self.expr(A.Call(e.span, A.Name(e.span, e.type.base), list(e.args or [e.expr])))
        t = self.resolve_type(e.type)
        if list_tensor.is_list_tensor_desc(t):  # `ListTensorDesc(data)`
            items = list(e.args or ([e.expr] if e.expr is not None else []))
            return list_tensor.declare(self, "", e, [self.expr(a) for a in items if not isinstance(a, A.InitList)])
        if e.expr is None and not e.args:
            if isinstance(t, Scalar):
                return Val(t, const=0)
            if isinstance(t, C.StructT):
                return self.init_list(t, [], e)
            return Val(t, self.undef(t, e))
        if isinstance(e.expr, A.InitList):
            return self.init_list(t, e.expr.items, e)
        if e.args and len(e.args) > 1 or isinstance(t, C.StructT):
            return self.init_list(t, e.args or ([e.expr] if e.expr is not None else []), e)
        v = self.expr(e.expr)  # type: ignore[arg-type]
        if isinstance(t, C.ClassT) and t.name in self.scope.classes:
            # `Coord<2, T>(values)`: an object made by the constructor that takes the value
            converted = self._converted_to_class(v, t, "", e)
            if converted is not v:
                return converted
        if isinstance(t, C.Pointer) and t.gm and isinstance(v.ctype, C.Pointer) and not v.ctype.gm and v.ssa is not None:
            t = C.Pointer(t.pointee, gm=True)
        if isinstance(t, C.Pointer) and isinstance(v.ctype, C.Pointer):
            return self.pointer_cast(v, t, e)
        target = t.pointee if isinstance(t, C.Pointer) and "&" in getattr(e.type, "pointers", "") else t
        if isinstance(target, C.LocalTensorT | C.GlobalTensorT) and isinstance(v.ctype, C.LocalTensorT | C.GlobalTensorT):
            return self.tensor_cast(v, target, e)  # `(GlobalTensor<int8_t> &)gm`: a reference to the same object
        if isinstance(t, C.UnknownT):
            if t.reported:
                self.report.unknown_type(t.text, e)
            return Val(t)
        return self.convert(v, t, e)

    def _static_method_named_like_type(self, e: A.Cast) -> bool:
        from ascendir.lower.calls import _static_method_of_type

        base = e.type.base if e.kind == "functional" and isinstance(e.type, A.TypeRef) else None
        if not isinstance(base, A.QualifiedName) or len(base.parts) < 2 or e.type.pointers \
                or isinstance(e.expr, A.InitList) or (e.expr is None and not e.args):
            return False
        if base.parts[-1].name in self.scope.classes:
            return False
        return _static_method_of_type(self, base.parts) is not None

    def _function_named_like_class(self, e: A.Cast) -> bool:
        """Whether `N<...>(args)` read as a functional cast names a function of an enclosing namespace rather than
        the class N, which is declared in a namespace nested deeper (C++ finds the function: the class's namespace is
        not searched). The namespaces are compared by the qualifier written and where each is declared."""
        base = e.type.base if e.kind == "functional" and isinstance(e.type, A.TypeRef) else None
        if not isinstance(base, A.QualifiedName) or e.type.pointers or isinstance(e.expr, A.InitList) \
                or (e.expr is None and not e.args):
            return False
        name = base.parts[-1].name
        functions = [f for f in self.scope.functions.get(name, ()) if f.body is not None]
        info = self.scope.classes.get(name) or self.scope.declared_templates.get(name)
        if not functions or info is None:
            return False
        written = "::".join(p.name for p in base.parts[:-1])
        class_ns = self.scope.declared_in.get(id(info.decl), "")
        for fn in functions:
            fn_ns = self.scope.declared_in.get(id(fn), "")
            if written and not (fn_ns == written or fn_ns.endswith("::" + written)):
                continue
            if class_ns != fn_ns and (not fn_ns or class_ns.startswith(fn_ns + "::")):
                return True
        return False

    def _member_named_like_type(self, e: A.Cast) -> str | None:
        """The name of `N(args)` read as a functional cast when the enclosing object has a member function N
        (not a constructor), which the call means; None otherwise."""
        this = self.frame.this if self.frames else None
        base = e.type.base if e.kind == "functional" and isinstance(e.type, A.TypeRef) else None
        if this is None or not isinstance(base, A.QualifiedName) or len(base.parts) != 1 or e.type.pointers \
                or base.parts[0].template_args or isinstance(e.expr, A.InitList):
            return None
        name = base.parts[0].name
        found = this.find_method(name)
        if found is None or any(getattr(fn, "kind", "function") != "function" for fn in found[1]):
            return None
        return name

    def tensor_cast(self, v: Val, t: C.LocalTensorT | C.GlobalTensorT, node: A.Node) -> Val:
        """`(GlobalTensor<int8_t>&)kCacheGm`: an explicit cast views the tensor as another type, as
        ReinterpretCast does, and is no conversion error (ASC106). A LocalTensor keeps its buffer; another cast
        gives a value the rules do not follow back to its origin."""
        src = v.ctype
        if type(src) is type(t) and (t.elem is None or src.elem == t.elem):
            return v
        if isinstance(src, C.LocalTensorT) and isinstance(t, C.LocalTensorT) and t.elem is not None:
            out = C.LocalTensorT(t.elem, src.position)
            op = asc.ReinterpretCastOp.create(operands=[self.ssa(v, node)], result_types=[C.ir_type(out)])
            return Val(out, self.emit(op, node).results[0])
        return Val(t, self.undef(t, node))

    def expr_SizeOf(self, e: A.SizeOf) -> Val:
        if e.kind == "sizeof...":
            pack = self._pack_named(e.operand.name if isinstance(e.operand, A.Name) else "")
            if pack is None:
                raise Unsupported(f"sizeof...({_node_text(e.operand)}) of a pack the lowering has not bound", e)
            return Val(C.U64, const=len(pack.items))
        if isinstance(e.operand, A.TypeRef):
            t = self.resolve_type(e.operand)
        else:
            mark = self._mark()
            t = self.expr(e.operand).ctype
            self._rollback(mark)
        size = C.size_of(t) if not isinstance(t, C.TilingT) else self.tiling_size(t.name)
        if size is None:
            raise Unsupported(f"sizeof({t}) is not known", e)
        return Val(C.U64, const=size)

    def tiling_size(self, name: str) -> int | None:
        ts = self.scope.tiling_structs.get(name)
        if ts is None:
            return None
        offset = 0
        largest = 1
        for fname, tref, count, kind in ts.fields:
            t = self.resolve_type(tref)
            if kind == "array" and count is not None:
                n = self.const_eval(count)
                t = C.ArrayT(t, int(n) if isinstance(n, int) else 0)
            size = C.size_of(t)
            if size is None and isinstance(t, C.TilingT | C.ClassT):
                size = self.tiling_size(t.name)
            if size is None:
                return None
            align = min(C.size_of(t.elem) or 1, 8) if isinstance(t, C.ArrayT) else min(size, 8)
            offset = (offset + align - 1) // align * align + size
            largest = max(largest, align)
        return (offset + largest - 1) // largest * largest

    def expr_Conditional(self, e: A.Conditional) -> Val:
        cond = self.to_bool(self.expr(e.cond), e)
        if cond.const is not None:
            return self.expr(e.then if cond.const else e.otherwise)
        if not _has_call(e.then) and not _has_call(e.otherwise):
            a, b = self.expr(e.then), self.expr(e.otherwise)
            if isinstance(a.ctype, Scalar) and isinstance(b.ctype, Scalar):
                t = C.common_type(a.ctype, b.ctype)
                a, b = self.convert(a, t, e), self.convert(b, t, e)
                op = arith.SelectOp(self.ssa(cond, e), self.ssa(a, e), self.ssa(b, e))
                return Val(t, self.emit(op, e).results[0])
            if a.ctype == b.ctype and a.ssa is not None and b.ssa is not None:
                return Val(a.ctype, self.emit(arith.SelectOp(self.ssa(cond, e), a.ssa, b.ssa), e).results[0])
        # branches with calls: evaluate only the chosen one, in an scf.if with the common type
        blocks, values = [Block(), Block()], []
        try:
            for block, branch in zip(blocks, (e.then, e.otherwise)):
                with self.detached(block):
                    values.append(self.expr(branch))
        except Exception:
            _erase_ops(blocks[0])  # the branch that did lower holds uses of live values
            raise
        a, b = values
        t = C.common_type(a.ctype, b.ctype) if isinstance(a.ctype, Scalar) and isinstance(b.ctype, Scalar) else a.ctype
        for block, v in zip(blocks, values):
            with self.detached(block):
                self.emit(scf.YieldOp(self.ssa(self.convert(v, t, e), e)), e)
        if_op = scf.IfOp(self.ssa(cond, e), [C.ir_type(t)], Region(blocks[0]), Region(blocks[1]))
        return Val(t, self.emit(if_op, e).results[0])

    def expr_Noexcept(self, e: A.Noexcept) -> Val:
        raise Unsupported("noexcept(...) of an expression is not modelled", e)

    def expr_PackExpansion(self, e: A.PackExpansion) -> Val:
        # (in call arguments and braced lists a pack expansion is expanded before it gets here: expand_packs)
        raise Unsupported(f"a pack expansion of '{_node_text(e.expr)}' outside call arguments and braced lists is "
                          "not modelled", e)

    def expr_Comma(self, e: A.Comma) -> Val:
        self.expr(e.lhs)
        return self.expr(e.rhs)

    # parameter packs -----------------------------------------------------------------------------------

    def _pack_named(self, name: str) -> Pack | None:
        """The pack bound to `name`: a function parameter pack, or a template parameter pack of this frame."""
        b = self.lookup(name) if name else None
        if isinstance(b, Val) and isinstance(b.obj, Pack):
            return b.obj
        bound = self.frame.types.get(name) if name else None
        return bound if isinstance(bound, Pack) else None

    def expand_pack(self, pattern: A.Node, node: A.Node) -> list[A.Node]:
        """`pattern` once per element of the packs it names (`f(values)...`, `Dims...`), each copy naming that
        element: a function parameter pack's element is bound in a scope of its own under a name no source can
        write, a template value pack's is written in as its constant."""
        packs: dict[str, Pack] = {}
        for n in walk(pattern):
            if isinstance(n, A.Name) and len(n.qname.parts) == 1:
                found = self._pack_named(n.qname.parts[0].name)
                if found is not None:
                    packs[n.qname.parts[0].name] = found
        if not packs:
            raise Unsupported(f"a pack expansion of '{_node_text(pattern)}', which names no pack the lowering has bound",
                              node)
        sizes = {len(p.items) for p in packs.values()}
        if len(sizes) != 1:
            raise Unsupported("a pack expansion over packs of different lengths", node)
        scope: dict[str, Binding] = {}
        copies: list[A.Node] = []
        for k in range(sizes.pop()):
            names: dict[str, A.Node] = {}
            for name, pack in packs.items():
                item = pack.items[k]
                if isinstance(item, Val):
                    scope[f"{name}\x00{k}"] = item
                    names[name] = A.Name(node.span, A.QualifiedName(node.span, [A.NamePart(node.span, f"{name}\x00{k}")]))
                elif isinstance(item, bool | int):
                    names[name] = A.IntLit(node.span, str(int(item)), int(item))
                else:
                    raise Unsupported(f"a pack expansion over the types of '{name}'", node)
            copies.append(_substitute_names(pattern, names))
        self.frame.scopes[-1].update(scope)
        return copies

    def expand_packs(self, items: Sequence[A.Node], node: A.Node) -> list[A.Node]:
        """`items` (call arguments, a braced list) with each pack expansion among them expanded."""
        if not any(isinstance(i, A.PackExpansion) for i in items):
            return list(items)
        out: list[A.Node] = []
        for item in items:
            out += self.expand_pack(item.expr, item) if isinstance(item, A.PackExpansion) else [item]
        return out

    def expr_Fold(self, e: A.Fold) -> Val:
        """`(... + v)`, `(v + ...)`, `(0 + ... + v)`: the operator applied across the pack's elements, as C++
        spells it out (a left fold groups from the left), with the short-circuits of `&&` and `||`."""
        pattern = e.rhs if e.lhs is None or (e.rhs is not None and self._names_pack(e.rhs)) else e.lhs
        assert pattern is not None
        init = e.lhs if pattern is e.rhs else e.rhs
        elements = self.expand_pack(pattern, e)
        left = pattern is e.rhs  # `(... op pack)` and `(init op ... op pack)` fold from the left
        if e.op in ("=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="):
            raise Unsupported(f"a fold over the assignment '{e.op}'", e)
        operands = ([init] if init is not None and left else []) + elements + ([init] if init is not None and not left else [])
        if not operands:
            empty = {"&&": Val(C.BOOL, const=1), "||": Val(C.BOOL, const=0), ",": Val(C.VoidT())}.get(e.op)
            if empty is None:
                raise Unsupported(f"a fold over '{e.op}' of an empty pack", e)
            return empty
        tree = operands[0] if left else operands[-1]
        rest = operands[1:] if left else operands[-2::-1]
        for operand in rest:
            if e.op == ",":
                tree = A.Comma(e.span, tree, operand) if left else A.Comma(e.span, operand, tree)
            else:
                tree = A.Binary(e.span, e.op, tree, operand) if left else A.Binary(e.span, e.op, operand, tree)
        return self.expr(tree)

    def _names_pack(self, pattern: A.Node) -> bool:
        return any(isinstance(n, A.Name) and len(n.qname.parts) == 1 and self._pack_named(n.qname.parts[0].name)
                   for n in walk(pattern))

    def expr_Assign(self, e: A.Assign) -> Val:
        if e.op == "=" and isinstance(e.value, A.Binary | A.Unary) and not isinstance(e.value, A.Unary) or (
                e.op != "=" and e.op[:-1] in TENSOR_OPERATORS):
            lowered = self.tensor_operator(e)
            if lowered is not None:
                return lowered
        if isinstance(e.value, A.InitList):
            current = self.expr(e.target)
            value = self.init_list(current.ctype, e.value.items, e)
        else:
            value = self.expr(e.value)
        if e.op != "=":
            current = self.expr(e.target)
            value = self.arith(e.op[:-1], current, value, e)
        self.assign(e.target, value, e)
        return value

    def tensor_operator(self, e: A.Assign) -> Val | None:
        """`dst = a + b` (and `dst += b`) on LocalTensors: the API the operator stands for, over all of dst;
        `mask = a < b`: Compare over all of a (kernel_operator_symbol_override_impl.h)."""
        if e.op == "=" and isinstance(e.value, A.Binary) and e.value.op in _COMPARE_MODES:
            return self._tensor_comparison(e, e.value)
        if e.op == "=":
            if not isinstance(e.value, A.Binary) or e.value.op not in TENSOR_OPERATORS:
                return None
            op, lhs_node, rhs_node = e.value.op, e.value.lhs, e.value.rhs
        else:
            op, lhs_node, rhs_node = e.op[:-1], e.target, e.value
        mark = self._mark()
        dst = self.expr(e.target)
        if not isinstance(dst.ctype, C.LocalTensorT):
            self._rollback(mark)
            return None
        a, b = self.expr(lhs_node), self.expr(rhs_node)
        if not isinstance(a.ctype, C.LocalTensorT) or not isinstance(b.ctype, C.LocalTensorT):
            raise Unsupported(f"operator '{op}' between a tensor and a scalar", e)
        api = self.catalog.operator_api(op)
        size_api = "GetSize"
        size = self.emit(asc.LocalTensorCallOp(size_api, [self.ssa(dst, e)], overload=self.catalog.first_overload(
            size_api, "LocalTensor"), result_type=C.scalar_ir_type(C.U32)), e).results[0]
        count = self.convert(Val(C.U32, size), C.I32, e)
        call = asc.VecBinaryOp(api, [self.ssa(dst, e), self.ssa(a, e), self.ssa(b, e), self.ssa(count, e)],
                               overload="count")
        self.emit(call, e)
        return dst

    def _tensor_comparison(self, e: A.Assign, cmp: A.Binary) -> Val | None:
        mark = self._mark()
        operands = [self.expr(n) for n in (e.target, cmp.lhs, cmp.rhs)]
        self._rollback(mark)
        if not all(isinstance(v.ctype, C.LocalTensorT) for v in operands):
            return None
        from ascendir.lower.calls import lower_call

        def name(*parts: str) -> A.Name:
            return A.Name(e.span, A.QualifiedName(e.span, [A.NamePart(e.span, p) for p in parts]))

        size = A.Call(e.span, A.Member(e.span, cmp.lhs, "GetSize", False), [])
        call = A.Call(e.span, name("AscendC", "Compare"),
                      [e.target, cmp.lhs, cmp.rhs, name("AscendC", "CMPMODE", _COMPARE_MODES[cmp.op]), size])
        lower_call(self, call, None)
        return self.expr(e.target)

    def assign(self, target: A.Node, value: Val, node: A.Node) -> None:
        if list_tensor.assign(self, target, value, node):
            return
        if isinstance(target, A.Name) and len(target.qname.parts) == 1:
            b = self.lookup(target.qname.parts[0].name)
            if isinstance(b, Cell):
                self.store(b, value, node)
                return
            if isinstance(b, Instance) and isinstance(value.obj, Instance):
                self._copy_instance(b, value.obj, node)
                return
            if b is not None:
                raise Unsupported(f"assignment to '{target.qname.parts[0].name}', which is not a variable", node)
        if isinstance(target, A.Name) and len(target.qname.parts) > 1 and self.frames and self.frame.this is not None:
            # `Base::Base::blockIdx = v` (Base an alias of a base class): the member of this object's base part,
            # whose members are the whole object's
            member = self.frame.this.members.get(target.qname.parts[-1].name)
            if isinstance(member, Cell):
                self.store(member, value, node)
                return
        if isinstance(target, A.Member):
            owner: Instance | None = None
            if isinstance(target.obj, A.This):
                owner = self.frame.this
            else:
                obj = self.expr(target.obj)
                if isinstance(obj.obj, Instance):
                    owner = obj.obj
                elif isinstance(obj.obj, Cell) and isinstance(obj.ctype, C.StructT | C.TilingT | C.ObjectT):
                    struct = self.ssa(obj, node)  # the root struct: a nested one's field is named by its path
                    path = f"{obj.ctype.path}.{target.member}" if isinstance(obj.ctype, C.TilingT) and obj.ctype.path \
                        else target.member  # (`p.inParam.blockLen = n` on a struct cell: "inParam.blockLen")
                    ftype = self.tiling_field_type(obj.ctype.name, path) if isinstance(obj.ctype, C.TilingT) else None
                    scalar = ftype if isinstance(ftype, Scalar) else self._struct_field_type(str(obj.ctype), target.member)
                    v = self.ssa(self.convert(value, scalar, node), node)
                    op = asc.StructSetOp.create(operands=[struct, v], properties={"field": StringAttr(path)},
                                                result_types=[struct.type])
                    self.emit(memref.StoreOp.create(operands=[self.emit(op, node).results[0], obj.obj.ref],
                                                    location=UNKNOWN_LOC), node)  # as store_element builds it
                    return
            if owner is not None:
                member = owner.members.get(target.member)
                if isinstance(member, Cell):
                    self.store(member, value, node)
                    return
                if isinstance(member, Instance) and isinstance(value.obj, Instance):
                    self._copy_instance(member, value.obj, node)
                    return
                raise Unsupported(f"assignment to member '{target.member}'", node)
        if isinstance(target, A.Call) and len(target.args) == 1 and isinstance(target.callee, A.Name | A.Member) \
                and not _calls_user_operator(target):
            # `xLocal(i) = v` / `this->reduceRes(0) = v`: a tensor's operator() as SetValue writes it
            tensor = self.expr(target.callee)
            if isinstance(tensor.ctype, C.LocalTensorT | C.GlobalTensorT):
                self.set_tensor_element(tensor, self.expr(target.args[0]), value, node)
                return
        if isinstance(target, A.Unary) and target.op == "*" and array_pointer.is_pointer_operand(
                self.expr(target.operand)):
            target = A.Index(target.span, target.operand, A.IntLit(target.span, "0", 0))  # `*(calNum + i) = n`
        if isinstance(target, A.Index):
            base = self.expr(target.base)
            if isinstance(base.ctype, C.ArrayT):
                found = self.array_element(base, self.expr(target.index), node)
                if found is not None and not isinstance(found[2], C.ArrayT):
                    cell, indices, elem = found
                    v = self.convert(value, elem, node)
                    self.store_element(self.ssa(v, node), cell.ref, indices, node)
                    return
            if isinstance(base.ctype, C.Pointer) and base.ctype.gm:
                elem = base.ctype.pointee if isinstance(base.ctype.pointee, Scalar) else C.U8
                v = self.convert(value, elem, node)
                idx = self.expr(target.index)
                self.emit(asc.GmStoreOp.create(operands=[self.ssa(base, node), self.ssa(idx, node), self.ssa(v, node)]), node)
                return
        if isinstance(target, A.Unary) and target.op == "*":
            ptr = self.expr(target.operand)
            if isinstance(ptr.obj, Cell):
                self.store(ptr.obj, value, node)
                return
            if isinstance(ptr.ctype, C.Pointer) and ptr.ctype.gm:
                self.assign(A.Index(target.span, target.operand, A.IntLit(target.span, "0", 0)), value, node)
                return
        if _calls_user_operator(target):
            # `shape[1] = v`, `shape.operator[](0) = v`: a user class's operator returning a reference to what it
            # holds; its inlined result says which cell or array element that is
            place = self.expr(target)
            if isinstance(place.obj, Cell):
                self.store(place.obj, value, node)
                return
            if isinstance(place.obj, tuple) and place.obj[0] == "array_elem" and isinstance(place.ctype, Scalar):
                _, cell, indices = place.obj
                self.store_element(self.ssa(self.convert(value, place.ctype, node), node), cell.ref, indices, node)
                return
            raise Unsupported("assignment through the reference a user operator returns", node)
        raise Unsupported("assignment to this kind of expression", node)

    def _operator_call(self, inst: Instance, name: str, node: A.Node, args: list[A.Node]) -> Val:
        """`obj[i]`, `obj(args)` on a user-class object: its `operator[]` / `operator()`, inlined."""
        from ascendir.lower.calls import lower_call

        callee = A.Member(node.span, A.Name(node.span, A.QualifiedName(node.span, [A.NamePart(node.span, "<object>")])),
                          name, False)
        self.frame.scopes.append({"<object>": inst})
        try:
            return lower_call(self, A.Call(node.span, callee, args), None)
        finally:
            self.frame.scopes.pop()

    def _copy_instance(self, dst: Instance, src: Instance, node: A.Node) -> None:
        for name, b in src.members.items():
            target = dst.members.get(name)
            if isinstance(target, Cell) and isinstance(b, Cell):
                if isinstance(b.ctype, C.ArrayT):
                    self._copy_array(target, b, node)
                else:
                    self.store(target, self.load(b, node), node)
            elif isinstance(target, Instance) and isinstance(b, Instance) and target is not b:
                self._copy_instance(target, b, node)

    def _copy_array(self, dst: Cell, src: Cell, node: A.Node) -> None:
        """An array member copied with its object, element by element (`next = scheduler.GetBlockCoord(i)` copies
        a catlass Coord's `idx[3]`)."""
        shape = list(src.ref.type.get_shape())  # type: ignore[attr-defined]
        if shape != list(dst.ref.type.get_shape()) or math.prod(shape) > 64:  # type: ignore[attr-defined]
            raise Unsupported(f"copying an array member of {math.prod(shape)} elements", node)
        for position in itertools.product(*(range(n) for n in shape)):
            idx = [self.emit(arith.ConstantOp(IntegerAttr(i, IndexType())), node).results[0] for i in position]
            value = self.emit(_load(src.ref, idx), node).results[0]
            self.store_element(value, dst.ref, idx, node)

    def expr_IncDec(self, e: A.IncDec) -> Val:
        old = self.expr(e.operand)
        one = Val(C.I32, const=1)
        new = self.arith("+" if e.op == "++" else "-", old, one, e)
        if isinstance(old.ctype, Scalar):
            new = self.convert(new, old.ctype, e)
        self.assign(e.operand, new, e)
        return new if e.prefix else old

    def expr_InitList(self, e: A.InitList, expected: CType | None = None) -> Val:
        if expected is not None:
            return self.init_list(expected, e.items, e)
        return Val(C.UnknownT("init-list"), obj=[self.expr(i) for i in e.items])

    def init_list(self, t: CType, items: Sequence[A.Node], node: A.Node) -> Val:
        items = self.expand_packs(items, node)
        if isinstance(t, Scalar):
            if not items:
                return Val(t, const=0)
            return self.convert(self.expr(items[0]), t, node)
        if isinstance(t, C.StructT | C.TilingT | C.ObjectT):
            names = list(self.catalog.struct_fields(t.name) or []) if isinstance(t, C.StructT) else [  # type: ignore[attr-defined]
                f[0] for f in (self.scope.tiling_structs[t.name].fields if t.name in self.scope.tiling_structs else [])]
            fields: list[str] = []
            values: list[SSAValue] = []
            for i, item in enumerate(items):
                if isinstance(item, A.DesignatedInit):
                    fname, value_node = item.field_name, item.value
                else:
                    fname, value_node = (names[i] if i < len(names) else f"_{i}"), item
                v = self.expr(value_node)
                if isinstance(t, C.StructT):
                    ft = self.catalog.struct_field_type(t.name, fname)  # type: ignore[attr-defined]
                    fs = C.scalar_named(ft) if ft else None
                    if fs is not None and const_fits(v.const, fs):  # out-of-range constants stay as written
                        v = self.convert(v, fs, node)
                fields.append(fname)
                values.append(self.ssa(v, node))
            op = asc.StructInitOp.create(operands=values, properties={"fields": ArrayAttr([StringAttr(f) for f in fields])},
                                         result_types=[C.ir_type(t)])
            return Val(t, self.emit(op, node).results[0])
        if isinstance(t, C.ArrayT):
            return Val(t, obj=[self.expr(i) for i in items])
        if isinstance(t, C.LocalTensorT | C.GlobalTensorT) and not items:
            return Val(t, self.undef(t, node))
        if isinstance(t, C.LocalTensorT) and len(items) == 3:  # LocalTensor<T>(TPosition::X, addr, count)
            pos = self.expr(items[0])
            position = str(pos.const) if isinstance(pos.ctype, C.EnumT) and pos.const in asc.POSITIONS else "?"
            placed = C.LocalTensorT(t.elem, position)
            addr = self.convert(self.expr(items[1]), C.U32, node)
            count = self.convert(self.expr(items[2]), C.U32, node)
            op = asc.LocalTensorAtOp.create(operands=[self.ssa(addr, node), self.ssa(count, node)],
                                            result_types=[C.ir_type(placed)])
            return Val(placed, self.emit(op, node).results[0])
        if isinstance(t, C.ClassT):
            info = self.scope.classes.get(t.name)
            if info is not None and items and not info.constructors and not info.decl.bases:
                inst = self.instantiate(t, "", node)
                self._aggregate_init(inst, items, node)
                return Val(t, obj=inst)
            inst = self.instantiate(t, "", node, [self.expr(i) for i in items])
            return Val(t, obj=inst)
        if isinstance(t, C.UnknownT) and t.text != "auto":
            # `Helper op(pipe);` of a class from a header that was not read: op is not its argument
            for item in items:
                try:
                    self.expr(item)
                except Unsupported:
                    pass
            return Val(t)
        if len(items) == 1:
            return self.expr(items[0])
        raise Unsupported(f"brace initialisation of {t}", node)

    def expr_KernelLaunch(self, e: A.KernelLaunch) -> Val:
        raise Unsupported("kernel launches belong to host code", e)

    def expr_TypeArgExpr(self, e: A.TypeArgExpr) -> Val:
        t = self.resolve_type(e.type)
        return Val(t, obj=("type", t))

    def expr_Lambda(self, e: A.Lambda) -> Val:
        return Val(C.UnknownT("lambda"), obj=("lambda", e))

    # ------------------------------------------------------------------------------------------------
    # calls
    # ------------------------------------------------------------------------------------------------

    def expr_Call(self, e: A.Call, expected: CType | None = None) -> Val:
        from ascendir.lower.calls import lower_call

        return lower_call(self, e, expected)


# ----------------------------------------------------------------------------------------------------
# AST helpers
# ----------------------------------------------------------------------------------------------------


def _walk(node: object) -> Iterator[A.Node]:
    return walk(node)


def non_const_reference(param: A.Param) -> bool:
    """Whether a parameter is a non-const reference, through which the callee may write the caller's variable."""
    return "&" in param.type.pointers and "const" not in param.type.qualifiers


def _callee_name(call: A.Call) -> str | None:
    """The called function's own name: `f` of `ns::f(x)` and of `obj.f(x)`; None for anything else."""
    callee = call.callee
    if isinstance(callee, A.Name):
        return callee.qname.parts[-1].name
    return callee.member if isinstance(callee, A.Member) else None


def _bare_name_arguments(body: object) -> tuple[tuple[str, int, str], ...]:
    """(callee name, argument position, variable) for each call in `body` with a plain variable as argument."""
    def compute() -> tuple[tuple[str, int, str], ...]:
        found = []
        for n in walk(body):
            if not isinstance(n, A.Call) or not n.args:
                continue
            name = _callee_name(n)
            if name is None:
                continue
            for i, a in enumerate(n.args):
                if isinstance(a, A.Name) and len(a.qname.parts) == 1:
                    found.append((name, i, a.qname.parts[0].name))
        return tuple(found)
    return _memo(body, "bare_name_arguments", compute)  # type: ignore[return-value]


def _walk_no_nested_loops(node: A.Node, in_loop_kinds: tuple[type, ...]) -> Iterator[A.Node]:
    return walk(node, in_loop_kinds)


_LOOPS = (A.For, A.While, A.DoWhile, A.RangeFor)


def _contains_break(body: A.Node) -> bool:
    if isinstance(body, A.Node):
        return facts(body).brk_in
    return any(isinstance(n, A.Break) for n in _walk_no_nested_loops(body, (*_LOOPS, A.Switch)))


def _contains_return(body: A.Node) -> bool:
    return bool(_returns_in(body))


_MEMO: dict[tuple[int, str], tuple[object, object]] = {}


def _memo(node: object, what: str, compute: Callable[[], object]) -> object:
    """Facts about an AST subtree (its returns, the names it assigns), computed once per node: a helper
    inlined at twenty call sites is walked once, not twenty times."""
    key = (id(node), what)
    hit = _MEMO.get(key)
    if hit is not None and hit[0] is node:
        return hit[1]
    value = compute()
    if len(_MEMO) > 200_000:
        _MEMO.clear()
    _MEMO[key] = (node, value)
    return value


def _returns_in(node: A.Node) -> Sequence[A.Return]:
    if isinstance(node, A.Node):
        return facts(node).returns
    return _memo(node, "returns", lambda: [n for n in _walk(node) if isinstance(n, A.Return)])  # type: ignore[return-value]


def _contains_continue(body: A.Node) -> bool:
    if isinstance(body, A.Node):
        return facts(body).cont_in
    return any(isinstance(n, A.Continue) for n in _walk_no_nested_loops(body, _LOOPS))


_EXITS_CACHE: dict[int, tuple[A.Node, set[str]]] = {}


def forget_ast_facts() -> None:
    """Forgets every per-node fact kept about the trees lowered so far (lower_program calls this at its end)."""
    forget_facts()
    _MEMO.clear()
    _EXITS_CACHE.clear()


def _exits(st: A.Node) -> set[str]:
    """Which early exits (`return`, `break`, `continue`) a statement may take to its enclosing frame."""
    hit = _EXITS_CACHE.get(id(st))
    if hit is not None and hit[0] is st:
        return hit[1]
    kinds = _compute_exits(st)
    if len(_EXITS_CACHE) > 100_000:
        _EXITS_CACHE.clear()
    _EXITS_CACHE[id(st)] = (st, kinds)
    return kinds


def _compute_exits(st: A.Node) -> set[str]:
    kinds: set[str] = set()
    if isinstance(st, A.Node):
        f = facts(st)
        if f.returns:
            kinds.add(ExitKind.RETURN)
        if f.cont_in and not isinstance(st, _LOOPS):
            kinds.add(ExitKind.CONTINUE)
        if f.brk_in and not isinstance(st, (*_LOOPS, A.Switch)):
            kinds.add(ExitKind.BREAK)
        return kinds
    for n in _walk(st):
        if isinstance(n, A.Return):
            kinds.add(ExitKind.RETURN)
    for n in _walk_no_nested_loops(st, _LOOPS):
        if isinstance(n, A.Continue):
            kinds.add(ExitKind.CONTINUE)
    for n in _walk_no_nested_loops(st, (*_LOOPS, A.Switch)):
        if isinstance(n, A.Break):
            kinds.add(ExitKind.BREAK)
    if isinstance(st, _LOOPS):
        kinds.discard(ExitKind.BREAK)
        kinds.discard(ExitKind.CONTINUE)
    if isinstance(st, A.Switch):
        kinds.discard(ExitKind.BREAK)
    return kinds


def _always_exits(st: A.Node) -> bool:
    if isinstance(st, A.Return | A.Break | A.Continue):
        return True
    if isinstance(st, A.Compound):
        return bool(st.body) and _always_exits(st.body[-1]) and not any(
            _exits(s) for s in st.body[:-1])
    return False


_LOC_STRINGS: dict[str, StringAttr] = {}
_LOC_INTS: dict[int, IntAttr] = {}


def _file_line_col(file: str, line: int, col: int) -> FileLineColLoc:
    """FileLineColLoc(StringAttr(file), IntAttr(line), IntAttr(col)), without re-verifying its three parameters
    each time (~10 us per location; a kernel has hundreds); the parameters are shared, as attributes may be."""
    f = _LOC_STRINGS.get(file)
    if f is None:
        if len(_LOC_STRINGS) > 1024:
            _LOC_STRINGS.clear()
        f = _LOC_STRINGS[file] = StringAttr(file)
    ln = _LOC_INTS.get(line)
    if ln is None:
        if len(_LOC_INTS) > 65536:
            _LOC_INTS.clear()
        ln = _LOC_INTS[line] = IntAttr(line)
    c = _LOC_INTS.get(col)
    if c is None:
        c = _LOC_INTS[col] = IntAttr(col)
    loc = FileLineColLoc.__new__(FileLineColLoc)
    object.__setattr__(loc, "filename", f)
    object.__setattr__(loc, "line", ln)
    object.__setattr__(loc, "column", c)
    return loc


@lru_cache(maxsize=4096)
def _int_attr(value: int, t: Attribute) -> IntegerAttr:
    return IntegerAttr(value, t)  # type: ignore[arg-type]


@lru_cache(maxsize=1024)
def _float_attr(value: float, t: Attribute) -> FloatAttr:
    return FloatAttr(value, t)  # type: ignore[arg-type]


_FAST_PROPS: dict[type, dict[str, Attribute]] = {}
_I1 = IntegerType(1)
_CMPI = {name: IntegerAttr(i, 64) for i, name in enumerate(arith.CMPI_COMPARISON_OPERATIONS)}
_CMPF = {name: IntegerAttr(i, 64) for i, name in enumerate(arith.CMPF_COMPARISON_OPERATIONS)}


def _fast(cls: type[Operation], operands: list[SSAValue], result_type: Attribute, build: Callable[[], Operation],
          **props: Attribute) -> Operation:
    """`cls.create` with the default properties the IRDL constructor gave its first instance: the same
    op, built 3-4x faster (the hot arithmetic of every kernel goes through here)."""
    defaults = _FAST_PROPS.get(cls)
    if defaults is None:
        op = build()
        _FAST_PROPS[cls] = {k: v for k, v in op.properties.items() if k not in props}
        return op
    return cls.create(operands=operands, result_types=[result_type], properties={**defaults, **props},
                      location=UNKNOWN_LOC)


def _load(ref: SSAValue, indices: Sequence[SSAValue]) -> Operation:
    # Op.create skips the IRDL constructor's checks (3-4x faster); the module is verified afterwards.
    element_type = ref.type.element_type  # type: ignore[attr-defined]
    return memref.LoadOp.create(operands=[ref, *indices], result_types=[element_type], location=UNKNOWN_LOC)


def _erase_ops(block: Block) -> None:
    for op in reversed(list(block.ops)):
        op.detach()
        op.erase(safe_erase=False)


def _flatten_init(items: list[object], dims: list[int]) -> Iterator[tuple[list[int], Val]]:
    """(index tuple, value) for a brace initialiser of an array of shape `dims` (nested or flat)."""
    flat_nested = all(isinstance(i, Val) and not isinstance(i.obj, list) for i in items)
    if len(dims) > 1 and flat_nested:  # `int a[2][2] = {1, 2, 3, 4}`
        for n, item in enumerate(items):
            position, rest = [], n
            for d in reversed(dims):
                position.insert(0, rest % d)
                rest //= d
            if rest == 0:
                yield position, item  # type: ignore[misc]
        return
    for i, item in enumerate(items[: dims[0]]):
        if len(dims) > 1 and isinstance(item, Val) and isinstance(item.obj, list):
            for position, value in _flatten_init(item.obj, dims[1:]):
                yield [i, *position], value
        elif isinstance(item, Val):
            yield [i], item


def _same_type(a: object, b: object) -> bool:
    if isinstance(a, C.LocalTensorT) and isinstance(b, C.LocalTensorT):
        # the TPosition a tensor was allocated from is ours, not part of its C++ type
        return a.elem == b.elem
    return a == b


def _structural_returns(stmts: Sequence[A.Node]) -> set[int]:
    """Returns whose effect the IR's structure already gives: the last statement of the body, and the
    last statement of an `if` that takes the rest of the body as its else branch (or ends the body)."""
    found: set[int] = set()
    for i, st in enumerate(stmts):
        last = i == len(stmts) - 1
        if isinstance(st, A.Return) and last:
            found.add(id(st))
        elif isinstance(st, A.If) and (last or st.otherwise is None and _always_exits(st.then)):
            for branch in (st.then, st.otherwise):
                body = branch.body if isinstance(branch, A.Compound) else [branch] if branch is not None else []
                if body and isinstance(body[-1], A.Return):
                    found.add(id(body[-1]))
    return found


def _is_name(e: A.Node | None, name: str) -> bool:
    return isinstance(e, A.Name) and len(e.qname.parts) == 1 and e.qname.parts[0].name == name


def _has_call(e: A.Node) -> bool:
    if isinstance(e, A.Node):
        return facts(e).callish
    return any(isinstance(n, A.Call | A.Assign | A.IncDec) for n in _walk(e))


def _destructor_of(inst: Instance) -> A.FunctionDecl | None:
    """The user-written destructor of the object's class."""
    return inst.info.destructor


def _nested_class(info: ClassInfo, name: str) -> ClassInfo | None:
    """The class `name` nested in `info` or in a class `info` is nested in."""
    scope: ClassInfo | None = info
    while scope is not None:
        if name in scope.nested and not scope.nested[name].template_params:
            return scope.nested[name]
        scope = scope.outer
    return None


def _parts(inst: Instance) -> Iterator[Instance]:
    """The base-class parts of an object, depth first."""
    for b in inst.bases:
        yield b
        yield from _parts(b)


def _same_template_arg(a: object, b: object) -> bool:
    """Template arguments compared as C++ does: `true` is `1`."""
    if isinstance(a, bool | int) and isinstance(b, bool | int):
        return int(a) == int(b)
    return a == b


def _mentions(node: object, names: set[str]) -> bool:
    """Whether a pattern argument names one of the template parameters `names` anywhere."""
    return any(isinstance(n, A.NamePart) and n.name in names for n in walk(node))


def _parameter_named(node: A.Node, names: set[str]) -> str | None:
    """The template parameter a pattern argument is, when it is one of `names` written bare (`T`, not `T*`)."""
    if isinstance(node, A.TypeArgExpr):
        node = node.type
    if isinstance(node, A.TypeRef):
        if node.pointers or node.array_dims or not isinstance(node.base, A.QualifiedName):
            return None
        node_name = node.base
    elif isinstance(node, A.Name):
        node_name = node.qname
    else:
        return None
    if len(node_name.parts) != 1 or node_name.parts[0].template_args:
        return None
    return node_name.parts[0].name if node_name.parts[0].name in names else None


def _hint(name: str) -> str | None:
    cleaned = "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in name)
    return cleaned if cleaned and not cleaned[0].isdigit() else None


def _shape_of(node: object) -> object:
    """An AST subtree as nested tuples without spans: equal for two spellings of the same expression."""
    if isinstance(node, A.Node):
        return (type(node).__name__, *(_shape_of(getattr(node, f)) for f in A._field_names(type(node))))
    if isinstance(node, list | tuple):
        return tuple(_shape_of(n) for n in node)
    return node


def _type_text(t: A.TypeRef, full: bool = False) -> str:
    if isinstance(t.base, str):
        return t.base
    if not full:
        return "::".join(p.name for p in t.base.parts)
    parts = []
    for p in t.base.parts:
        text = p.name
        if p.template_args is not None:
            text += "<" + ", ".join(_node_text(a.value) for a in p.template_args) + ">"
        parts.append(text)
    return "::".join(parts) + "".join(t.pointers)


def _node_text(n: object) -> str:
    """A short source-like rendering of a template argument."""
    if isinstance(n, A.TypeRef):
        return _type_text(n, full=True)
    if isinstance(n, A.Name):
        return "::".join(p.name + ("<" + ", ".join(_node_text(a.value) for a in p.template_args) + ">"
                                   if p.template_args is not None else "") for p in n.qname.parts)
    if isinstance(n, A.IntLit | A.FloatLit):
        return n.text
    if isinstance(n, A.BoolLit):
        return "true" if n.value else "false"
    if isinstance(n, A.TypeArgExpr):
        return _type_text(n.type, full=True)
    return "?"


def _wrap(value: float, t: Scalar) -> int | float:
    if t.is_float or isinstance(value, float):
        return float(value) if t.is_float else value
    bits = t.bits
    value &= (1 << bits) - 1
    if t.kind == "int" and value >= 1 << (bits - 1):
        value -= 1 << bits
    return value


def _convert_const(v: float, s: Scalar, t: Scalar) -> int | float:
    if t.kind == "bool":
        return int(bool(v))
    if t.is_float:
        return float(v)
    if isinstance(v, float):
        v = int(v)  # C truncates toward zero
    return _wrap(v, t)


def _fold(op: str, x: float, y: float, t: Scalar) -> int | float | None:
    try:
        if op == "+":
            r = x + y
        elif op == "-":
            r = x - y
        elif op == "*":
            r = x * y
        elif op == "/":
            if y == 0 and t.is_float:
                # IEEE: `0.0 / 0.0` is how vendor code writes a NaN constant, folded by the compiler
                r = math.nan if x == 0 or x != x else math.copysign(math.inf, x) * math.copysign(1.0, y)
                return _wrap(r, t)
            if y == 0:
                return None
            r = x / y if t.is_float else int(x / y) if (x < 0) != (y < 0) else x // y  # type: ignore[operator]
        elif op == "%":
            if y == 0 or t.is_float:
                return None
            r = x - int(x / y) * y  # type: ignore[operator]
        elif op == "<<":
            r = int(x) << int(y)
        elif op == ">>":
            r = int(x) >> int(y)
        elif op == "&":
            r = int(x) & int(y)
        elif op == "|":
            r = int(x) | int(y)
        elif op == "^":
            r = int(x) ^ int(y)
        else:
            return None
    except (OverflowError, ValueError):
        return None
    return _wrap(r, t)

