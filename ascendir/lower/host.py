"""Host tiling functions to IR: `ge::graphStatus TilingFunc(gert::TilingContext*)` as a `func.func`.

    result = lower_host_tiling(frontend.pipeline.load("op_project/"))
    result.module, result.func_name   # func.func @TilingFunc(%ctx: !host.tiling_context) -> i32
    evaluate_program_tiling(program, TilingInputs([TensorSpec((8, 2048), "float16")]))
    evaluate_program_infer_shape(program, TilingInputs([TensorSpec((8, 2048), "float16")])).outputs

The op's InferShape function (`ge::graphStatus InferShape(gert::InferShapeContext*)`) lowers with the same
lowerer to `func.func @InferShape(%ctx: !host.infer_shape_context) -> i32`. There `GetInputShape(i)` is
the input's (origin) gert::Shape itself, `GetOutputShape(i)` the output's gert::Shape that the function
writes, and a `gert::Shape` variable declared by value is an object of its own (`host.shape_local`):
assigning to it copies, and writing it does not reach an output until it is copied there.

`HostLowerer` is the device `FunctionLowerer` with the gert / platform_ascendc / ge vocabulary added:
scalar C++, helper functions, classes, `if`, loops and early returns lower exactly as in kernels, and
every runtime call becomes one op of the `host` dialect (`ascendir.dialects.host`).

Runtime objects (the context, a StorageShape, the attributes, the platform, a tiling struct, ...) are
*handles*: Python-side values of type `HostT` that never live in memory. A pointer to one and the
object itself are the same handle, so `->` and `.` need no distinction. What the host lowering cannot
model (`std::vector`, the high-level API tiling functions, the TCubeTiling a matmul tiling object
fills, ...) is reported as an ASC103 warning at the statement that uses it, and that statement is left
out; C++ that would not compile (an unknown context method, a field the tiling struct lacks) is an
error. No exception leaves `lower_host_tiling`.

Matmul API tiling objects (`matmul_tiling::MultiCoreMatmulTiling`, `MatmulApiTiling`) are handles too:
their setters become `host.matmul_*` ops, and the evaluator runs the checks with which GetTiling
rejects a configuration outright.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NoReturn

from xdsl.builder import Builder, InsertPoint
from xdsl.dialects import arith, func, scf
from xdsl.dialects import math as xmath
from xdsl.dialects.builtin import FunctionType, ModuleOp, i32
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.utils.exceptions import VerifyException

from ascendir.dialects import host as hd
from ascendir.host_eval import (
    InferShapeResult,
    TilingInputs,
    TilingResult,
    evaluate_infer_shape,
    evaluate_tiling,
)
from ascendir.lower import array_pointer
from ascendir.lower import ctypes as C
from ascendir.lower import host_accumulate, host_compile_info, host_node_info
from ascendir.lower import host_init_list, host_smart_ptr, host_std, host_vector, host_tensor_data, host_tiling_api
from ascendir.lower import host_streams
from ascendir.lower.catalog_view import CatalogView
from ascendir.lower.ctypes import CType, Scalar
from ascendir.lower.diagnostics import NOT_MODELLED, UNKNOWN_API, Reporter, span_of
from ascendir.lower.function import Frame, FunctionLowerer, Unsupported, _walk, non_const_reference
from ascendir.lower.scope import Scope, collect
from ascendir.lower.values import Binding, Cell, Instance, Val
from ascendir.matmul_tiling import TCUBE_FIELDS
from frontend import ast as A
from frontend import opdef_inputs
from frontend.diagnostics import Diagnostic, Note, Severity, error, warning
from frontend.pipeline import Program

# library tiling structs a tiling struct may hold, with the int32 fields GetTiling fills (the host reads them
# through get_<field>(); the kernel through the struct)
_LIBRARY_STRUCTS: dict[str, tuple[str, ...]] = {"TCubeTiling": TCUBE_FIELDS}

INTERNAL_ERROR = "ASC000"
NO_TILING_FUNC = "ASC120"
NO_INFER_SHAPE_FUNC = "ASC121"

# Roles of the program units a host tiling function may live in (or take declarations from).
_HOST_ROLES = ("host", "tiling_header", "header")

# ------------------------------------------------------------------------------------------------------
# Handle types
# ------------------------------------------------------------------------------------------------------


class _VectorItems:
    """The elements a `std::vector` of numbers was initialised with (`= {a, b}`), as read there."""

    def __init__(self, values: tuple[Val, ...]) -> None:
        self.values = values


@dataclass(frozen=True)
class HostT:
    """A gert / platform_ascendc runtime object (or a pointer to one) seen by the tiling function.

    `kind` says which; `detail` names an unmodelled library type, or the struct of a tiling handle.
    """

    kind: str
    detail: str = ""

    def __str__(self) -> str:
        return self.detail or _DISPLAY.get(self.kind, self.kind)


_DISPLAY = {
    "context": "gert::TilingContext", "storage_shape": "gert::StorageShape", "tensor": "gert::Tensor",
    "desc": "gert::CompileTimeTensorDesc", "shape": "gert::Shape", "attrs": "gert::RuntimeAttrs",
    "attr_ptr": "attribute pointer", "string": "std::string", "int_list": "gert::TypedContinuousVector<int64_t>",
    "list_data": "const int64_t*", "platform_info": "fe::PlatFormInfos", "platform": "platform_ascendc::PlatformAscendC",
    "raw_tiling": "gert::TilingData", "raw_data": "void*", "workspace": "size_t*", "opaque": "a runtime value",
    "tiling": "tiling struct", "tiling_array": "tiling array field", "unmodelled": "library object",
    "poison": "unmodelled value", "matmul_tiling": "matmul tiling object",
    "infer_context": "gert::InferShapeContext", "shape_buffer": "gert::Shape",
    "parse_context": "gert::TilingParseContext",
    # GetNodeName(): the node's name, which only the framework knows; never null (`name == nullptr ? "nil" : name`)
    "node_name": "the node name",
}  # fmt: skip


@dataclass(frozen=True)
class TensorRef:
    """Which tensor a StorageShape / Tensor / TensorDesc handle stands for."""

    index: int
    output: bool = False
    optional: bool = False
    # a runtime index (`GetInputShape(i)` with `i` a loop variable): the tensor is `index + at`
    at: SSAValue | None = None


@dataclass(frozen=True)
class AttrRef:
    """An attribute pointer: `GetAttrPointer<T>(index)`; `kind` is the `host.attr` kind, `ctype` is T."""

    index: int
    kind: str
    ctype: CType


@dataclass(frozen=True)
class TilingRef:
    """A tiling struct handle: the root struct, the field path of a nested struct, and whether it is a
    local legacy object (saved with SaveToBuffer) or the context's own buffer (GetTilingData<S>())."""

    struct: str
    path: str = ""
    local: bool = False

    def field_name(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name


@dataclass
class HandleCell(Cell):
    """A variable holding a handle: rebound while lowering, since handles never live in memory.

    `block` is where the variable was declared; a store from any other block (under `if` or in a loop)
    cannot be modelled by rebinding and is reported instead.
    """

    value: Val | None = None
    block: Block | None = None


class HostError(Exception):
    """C++ the vendor compiler would reject; already reported as an error where it was found."""


# Types of the gert / platform / ge headers, by unqualified name.
_HANDLE_TYPES: dict[str, CType] = {
    "TilingContext": HostT("context"), "InferShapeContext": HostT("infer_context"),
    "TilingParseContext": HostT("parse_context"),
    "StorageShape": HostT("storage_shape"), "Shape": HostT("shape"),
    "Tensor": HostT("tensor"), "CompileTimeTensorDesc": HostT("desc"), "RuntimeAttrs": HostT("attrs"),
    "PlatformAscendC": HostT("platform"), "PlatformAscendCManager": HostT("platform"),
    "PlatFormInfos": HostT("platform_info"), "TilingData": HostT("raw_tiling"), "string": HostT("string"),
    "TypedContinuousVector": HostT("int_list"), "ContinuousVector": HostT("int_list"),
    "MultiCoreMatmulTiling": HostT("matmul_tiling", "MultiCoreMatmulTiling"),
    "MatmulApiTiling": HostT("matmul_tiling", "MatmulApiTiling"),
    "graphStatus": C.U32, "DataType": C.I32, "Format": C.I32,
    "CoreMemType": C.EnumT("CoreMemType"),
    # platform_ascendc::SocVersion values are the ints of hd.SOC_VERSIONS (GetSocVersion, SocVersion::X), so a
    # variable or member of the type holds one as a number (GeGluGradV2's curShortSocName_)
    "SocVersion": C.I32,
}  # fmt: skip

# Library classes the host lowering knows exist but does not model: declaring one is a warning.
_LIBRARY_TYPES = {
    "vector", "map", "unordered_map", "set", "array", "unique_ptr", "shared_ptr", "stringstream", "ostringstream",
    "BatchMatmulTiling", "TCubeTiling", "SoftMaxTiling",
    "LayerNormTiling", "RmsNormTiling", "TopkTiling", "SortTiling", "LogSoftMaxTiling", "PlatformInfo",
    "TilingDataBase",
}  # fmt: skip

# Library free functions that the host lowering does not model (their namespace may be omitted).
_LIBRARY_FUNCS = {
    "GetSoftMaxMinTmpSize", "GetSoftMaxMaxTmpSize", "SoftMaxTilingFunc", "GetLayerNormMaxMinTmpSize",
    "GetLayerNormNDTilingInfo", "GetRmsNormMaxMinTmpSize", "GetRmsNormTilingInfo", "copy_n", "copy", "fill",
    "fill_n", "accumulate", "to_string", "snprintf", "sprintf", "strlen", "strncmp", "log2", "round",
    "CeilDiv", "CeilAlign", "FloorAlign", "FloorDiv", "GetSortTmpSize",
}  # fmt: skip

# The SoftMax / LogSoftMax temporary-space queries of the tiling library (HostLowerer._softmax_tmp_size).
_SOFTMAX_TMP_SIZE = {"GetSoftMaxMinTmpSize", "GetSoftMaxMaxTmpSize", "GetLogSoftMaxMinTmpSize", "GetLogSoftMaxMaxTmpSize"}

# The standard streams: what is written to them changes no tiling value (`std::cout << ... << std::endl;`).
_STREAMS = {"cout", "cerr", "clog"}

# Namespaces of libraries: a call qualified with one of these that is not modelled is a warning.
_LIBRARY_NAMESPACES = {"std", "ge", "gert", "platform_ascendc", "matmul_tiling", "AscendC", "fe", "ops", "optiling"}

# Logging and checking macros of the host headers: they do not change the tiling.
_IGNORED_CALLS = {
    "OP_LOGD", "OP_LOGI", "OP_LOGW", "OP_LOGE", "OP_LOGE_IF", "OPS_LOG_D", "OPS_LOG_I", "OPS_LOG_W", "OPS_LOG_E",
    "OPS_REPORT_VECTOR_INNER_ERR", "VECTOR_INNER_ERR_REPORT_TILIING", "printf", "fprintf", "puts",
    "assert", "static_assert", "ASCENDC_ASSERT", "GE_ASSERT", "OP_TILING_LOG",
}  # fmt: skip

_GRAPH_STATUS = {"GRAPH_SUCCESS": hd.GRAPH_SUCCESS, "GRAPH_FAILED": hd.GRAPH_FAILED, "SUCCESS": 0, "FAILED": hd.GRAPH_FAILED,
                 # graph/ge_error_codes.h: failures other than GRAPH_FAILED
                 "GRAPH_PARAM_INVALID": 50331649, "GRAPH_NOT_CHANGED": 1343242304,
                 "GRAPH_NODE_WITHOUT_CONST_INPUT": 50331648}

# graph/types.h: the dim of a shape not known before run time, and the dim count of a shape of unknown rank
_GE_DIM_CONSTANTS = {"UNKNOWN_DIM": -1, "UNKNOWN_DIM_NUM": -2}

# ge::Format values (graph/types.h); only compared against, since formats are not modelled as inputs.
_GE_FORMATS = {"FORMAT_NCHW": 0, "FORMAT_NHWC": 1, "FORMAT_ND": 2, "FORMAT_NC1HWC0": 3, "FORMAT_FRACTAL_Z": 4,
               "FORMAT_FRACTAL_NZ": 29, "FORMAT_NCDHW": 30, "FORMAT_NDHWC": 27}  # fmt: skip

# <cmath> functions the evaluator can run, by name (the `f` forms of libm map to the same op).
_MATH_OPS: dict[str, Callable[..., Any]] = {
    "ceil": xmath.CeilOp, "floor": xmath.FloorOp, "abs": xmath.AbsFOp, "fabs": xmath.AbsFOp,
    "pow": xmath.PowFOp, "sqrt": xmath.SqrtOp, "exp": xmath.ExpOp, "log": xmath.LogOp,
}  # fmt: skip

# GetAttrPointer<T> / GetXxx: the host.attr kind read, by C type name or getter.
_ATTR_GETTERS = {"GetInt": ("int", C.I64), "GetFloat": ("float", C.F32), "GetBool": ("bool", C.BOOL),
                 "GetStr": ("str", C.Scalar("int8_t")), "GetListInt": ("list_int", C.I64)}  # fmt: skip


def _mutable_global(vd: A.VarDecl, decl: A.Declarator) -> bool:
    return not ({"constexpr", "const"} & set(vd.specifiers)) and "const" not in decl.type.qualifiers


def _path_free_store(cell: HandleCell, v: Val) -> bool:
    """Whether assigning `v` to a handle variable under control flow may be kept as if it ran on every path:
    `attrs = context->GetAttrs();` after an early return, in a helper method. `v` is a handle the context hands
    out (the same object whichever path runs; no SSA value, so it is usable anywhere) and the variable held
    null or nothing before: a path that skipped the assignment and read the variable would dereference null,
    which the device's tiling function would not survive either."""
    if not _is_host(v.ctype) or v.ssa is not None or not (
            v.obj is None or isinstance(v.obj, TensorRef) and v.obj.at is None):
        return False
    old = cell.value
    return old is None or _kind(old) == "poison" or (old.ssa is None and old.obj is None and (
        old.const == 0 or old.ctype == v.ctype))


def _is_host(t: object) -> bool:
    return isinstance(t, HostT)


def _kind(v: Val) -> str | None:
    return v.ctype.kind if isinstance(v.ctype, HostT) else None


def _name_node(node: A.Node, name: str) -> A.Name:
    span = node.span
    return A.Name(span, A.QualifiedName(span, [A.NamePart(span, name)]))


def _speculation_unsafe(node: A.Node) -> bool:
    """Whether evaluating `node` where C++ would not could fail when the tiling function runs: a call
    (`GetDim(k)` past the rank), a dereference (of an attribute pointer that may be null), a division
    (`b == 0 ? 0 : a / b`), an index, or a `std::string(p)` construction."""
    for n in _walk(node):
        if isinstance(n, A.Call | A.Index | A.Assign | A.IncDec):
            return True
        if isinstance(n, A.Unary) and n.op == "*" or isinstance(n, A.Binary) and n.op in ("/", "%"):
            return True
        if isinstance(n, A.Cast) and isinstance(n.type.base, A.QualifiedName) and n.type.base.parts[-1].name == "string":
            return True
    return False


def _getter_pointer(v: Val | None) -> bool:
    """Whether `v` is the `gert::Shape*` an InferShape context getter returned (`GetInputShape(i)`,
    `GetOutputShape(i)`), rather than a shape object (`*p`, a local gert::Shape, a reference)."""
    return v is not None and _kind(v) in ("shape", "shape_buffer") and isinstance(v.obj, TensorRef)


def _unbound_shape(v: Val) -> bool:
    """A shape handle that stands for nothing the lowering saw made: a class member of type gert::Shape,
    or a pointer assigned where a rebinding cannot follow it."""
    return _kind(v) in ("shape", "shape_buffer") and v.ssa is None and not isinstance(v.obj, TensorRef)


def _struct_init_items(node: A.Node) -> list[A.Node] | None:
    """The items of `{...}` / `S{...}` / `S()`, or None for any other expression."""
    if isinstance(node, A.InitList):
        return list(node.items)
    if isinstance(node, A.Cast) and node.kind == "functional":
        if isinstance(node.expr, A.InitList):
            return list(node.expr.items)
        if node.expr is None and not node.args:
            return []
    return None


# ------------------------------------------------------------------------------------------------------
# The lowerer
# ------------------------------------------------------------------------------------------------------


class HostLowerer(FunctionLowerer):
    """Lowers one host tiling or InferShape function (and the helpers it calls, inlined) to a `func.func`."""

    def __init__(self, scope: Scope, reporter: Reporter, catalog: object, options: object,
                 tiling_names: set[str]) -> None:
        super().__init__(scope, reporter, catalog, options)
        self.tiling_names = tiling_names
        self.ctx: SSAValue | None = None
        self.structs_used: list[tuple[str, str]] = []  # (struct, "context" | "local" | "saved"), in order
        self.last_set: dict[str, tuple[SSAValue, Block]] = {}  # SetBlockDim / SetTilingKey: value, where
        # namespace-scope variables the function writes or reads (`static int typeSize;`, a table filled by an
        # init function): one cell each, made in the entry block on first use, with its initialiser
        self.globals: dict[str, Binding] = {}
        self._entry_block: Block | None = None
        # the OpDef's optional inputs: the plain getters (GetInputShape(i), ...) of one may return null too
        self.optional_inputs: frozenset[int] = frozenset()
        self.output_count: int | None = None  # the outputs the OpDef declares
        self._temps = 0
        self._active: list[int] = []  # ids of the functions being inlined, innermost last
        self._out_args_cache: dict[int, set[str]] = {}
        # gert::Shape / ge::Shape objects of their own: a by-value shape variable is a `host.shape_local`
        # that the function may write (an InferShape output; in a tiling function, the `ge::Shape
        # srcShape({rows, cols})` handed to a library API's tiling, or a `gert::Shape s; s.AppendDim(n)`).
        self.shape_objects = True
        # the host units (a registration's `.TilingParse<T>(f)`), and the compile-info object once made
        self.units: list[A.TranslationUnit] = []
        self.compile_info: Val | None = None

    # ---------------------------------------------------------------------------------------------
    # entry
    # ---------------------------------------------------------------------------------------------

    def lower_tiling_func(self, fn: A.FunctionDecl, template_args: Sequence[A.TemplateArg] = ()) -> func.FuncOp:
        """`fn` as `func.func @name(%ctx: !host.tiling_context) -> i32` returning the graphStatus;
        `template_args` those of the registration (`SetTiling(TilingFunc<SWIGLU_SINGLE>)`)."""
        return self._lower_entry(fn, hd.TilingContextType(), HostT("context"), template_args)

    def _entry_template(self, fn: A.FunctionDecl, args: Sequence[A.TemplateArg]) -> dict[str, object]:
        """The template parameters of an entry function template bound to the registration's arguments (then
        the parameters' defaults); the values are evaluated in a frame of their own."""
        params = [p for p in self.scope.function_templates.get(id(fn)) or [] if p.name]
        if not params:
            return {}
        with self._template_frame(fn.name.parts[-1].name, [], []):
            values = [self._template_arg_value(a) for a in args]
        return {p.name: values[i] if i < len(values) else self._default_template_value(p)
                for i, p in enumerate(params) if p.name}

    def lower_infer_shape_func(self, fn: A.FunctionDecl) -> func.FuncOp:
        """`fn` as `func.func @name(%ctx: !host.infer_shape_context) -> i32` returning the graphStatus."""
        return self._lower_entry(fn, hd.InferShapeContextType(), HostT("infer_context"))

    def _lower_entry(self, fn: A.FunctionDecl, context_type: Attribute, context: HostT,
                     template_args: Sequence[A.TemplateArg] = ()) -> func.FuncOp:
        name = fn.name.parts[-1].name
        block = Block(arg_types=[context_type])
        ctx = block.args[0]
        ctx.name_hint = fn.params[0].name if fn.params and fn.params[0].name else "context"
        self.ctx = ctx
        func_op = func.FuncOp(name, FunctionType.from_lists([context_type], [i32]), Region(block))
        func_op.location = self.loc(fn)
        self.builder = Builder(InsertPoint.at_end(block))
        self._entry_block = block
        status: Val | None = None
        try:
            status = self.inline_function(fn, [Val(context, ctx)], None, fn, self._entry_template(fn, template_args))
        except HostError:
            pass
        except Unsupported as exc:  # the final `return expr` could not be lowered
            self.report.failed(exc)
        if status is None or not isinstance(status.ctype, Scalar):
            # no status could be computed: report failure, the diagnostics above say why
            status = Val(C.U32, const=hd.GRAPH_FAILED if status is None else hd.GRAPH_SUCCESS)
        result = self.ssa(self.convert(status, C.U32, fn), fn)
        self.emit(func.ReturnOp(result), fn)
        return func_op

    def ssa(self, v: Val, node: A.Node | None = None) -> SSAValue:
        # A folded constant gets a fresh arith.constant at each use. The base caches the op on the Val,
        # but a Val bound to a name can be used first inside an scf region and later outside it, where
        # the cached op would not dominate the use.
        if v.ssa is None and isinstance(v.ctype, Scalar) and v.const is not None and not isinstance(v.const, str):
            return self.const_ssa(v.const, v.ctype, node)
        if v.ssa is None and _kind(v) == "shape" and isinstance(v.obj, TensorRef):
            # an InferShape input shape, read where it is used: an absent optional input is read only
            # when the function gets past its null check
            op = hd.InputShapeOp(self._context(node or self._last_node), v.obj.index, at=v.obj.at)
            return self.emit(op, node).results[0]
        return super().ssa(v, node)

    # ---------------------------------------------------------------------------------------------
    # frames, cells and statements
    # ---------------------------------------------------------------------------------------------

    def inline_function(self, fn: A.FunctionDecl, args: Sequence[Val], this: Instance | None, node: A.Node,
                        types: dict[str, object] | None = None) -> Val:
        # host C++ may recurse, but inlining cannot model it: say so instead of hitting the depth limit
        if id(fn) in self._active:
            raise Unsupported(f"recursive call of '{fn.name.parts[-1].name}' is not modelled", node)
        self._active.append(id(fn))
        # a braced list for a std::initializer_list parameter: its elements, read here in the caller's scope
        args = [host_init_list.bound(self, a, fn.params[i], node) if i < len(fn.params) else a
                for i, a in enumerate(args)]
        # a std::vector passed by value is the callee's own copy
        args = [host_vector.copy(self, a, node) if host_vector.is_vector(a) and i < len(fn.params)
                and "&" not in fn.params[i].type.pointers else a for i, a in enumerate(args)]
        try:
            return super().inline_function(fn, args, this, node, types)
        finally:
            self._active.pop()

    def expr_New(self, e: A.New) -> Val:
        return host_vector.new_array(self, e)

    def expr_Delete(self, e: A.Delete) -> Val:
        self.expr(e.operand)  # `delete[] p` of a `new T[n]` array: nothing to model
        return Val(C.VoidT())

    def host_param_mismatch(self, param: A.Param, arg: Val) -> bool:
        """An overload's parameter that cannot take `arg` for host reasons (calls._record_type_mismatch)."""
        return host_vector.param_mismatch(param, arg)

    def _lower_stmt(self, st: A.Node) -> None:
        if isinstance(st, A.Try):
            host_smart_ptr.lower_try(self, st)
            return
        if isinstance(st, A.RangeFor) and host_init_list.lower_range_for(self, st):
            return
        if isinstance(st, A.For) and host_init_list.lower_iterator_for(self, st):
            return
        super()._lower_stmt(st)

    def lower_stmt(self, st: A.Node) -> None:
        try:
            super().lower_stmt(st)
        except HostError:
            pass  # reported as an error where it was found; the statement is left out

    def condition(self, e: A.Node) -> Val:
        # The base lowers `if (c) { ...; return; } rest` outside lower_stmt, so a condition it cannot
        # model would take `rest` down with it. Report it and take the condition as false instead: the
        # `if` is left out, as any statement the lowering cannot model.
        try:
            return super().condition(e)
        except (Unsupported, HostError) as exc:
            if isinstance(exc, Unsupported):
                self.report.failed(exc)
            return Val(C.BOOL, const=0)

    def lookup(self, name: str) -> Binding | None:
        found = super().lookup(name)
        if found is None and name in self.scope.constants:
            return self._global_variable(name)
        return found

    def _global_constant(self, vd: A.VarDecl, decl: A.Declarator, e: A.Node) -> Val:
        t = self.resolve_type(decl.type, decl)
        if isinstance(t, HostT) and t.detail in host_std.MAP_TYPES and isinstance(decl.init, A.InitList):
            return host_std.make_map(self, t, decl.init.items, e)  # a table, const or not: only read
        if isinstance(t, HostT) and t.detail == "vector" and isinstance(decl.init, A.InitList) and \
                not _mutable_global(vd, decl):
            return host_std.make_seq(self, t, decl.init.items, e)  # `static const std::vector<T> v = {...}`
        if _mutable_global(vd, decl):
            cell = self._global_variable(decl.name)
            if cell is not None:
                return self.read_binding(cell, e)
        return super()._global_constant(vd, decl, e)

    def _global_variable(self, name: str) -> Binding | None:
        """The cell of a namespace-scope variable that is not a constant, made on first use in the entry block
        (every use, under any control flow, comes after it), holding its initialiser or zero; None for a
        constant (those fold) or a type the lowering cannot hold."""
        if name in self.globals:
            return self.globals[name]
        vd, decl = self.scope.constants[name]
        if not _mutable_global(vd, decl) or self._entry_block is None:
            return None
        saved = self.builder
        first = self._entry_block.first_op
        self.builder = Builder(InsertPoint.before(first) if first is not None else InsertPoint.at_end(self._entry_block))
        frames = self.frames
        self.frames = [Frame(name, [{}], None, {}, set())]  # the initialiser sees only namespace scope
        try:
            t = self.resolve_type(decl.type, decl)
            init: Val | None = None
            if decl.init is not None:
                init = (self.init_list(t, decl.init.items, decl) if isinstance(decl.init, A.InitList)
                        else self.expr(decl.init))
            if isinstance(t, C.UnknownT) and t.text == "auto" and init is not None:
                t = init.ctype  # `auto aivNum = 1;` at namespace scope: an int, assigned later (NPUKernelBench Lerp)
            if isinstance(t, C.ArrayT):
                cell: Binding = self.new_array(t, name, decl, init)
            elif isinstance(t, Scalar):
                cell = self.new_cell(t, name, decl, self.convert(init, t, decl) if init is not None
                                     else Val(t, const=0))
            elif isinstance(t, C.TilingT | C.ClassT) and t.name in self.scope.tiling_structs and init is None:
                cell = self.new_cell(C.TilingT(t.name), name, decl)  # a tiling struct object: a local struct
            else:
                return None
        finally:
            self.frames = frames
            self.builder = saved
        self.globals[name] = cell
        return cell

    def new_cell(self, t: CType, name: str, node: A.Node, init: Val | None = None) -> Cell:
        if self.shape_objects and init is None and isinstance(t, HostT) and t.kind == "shape" and \
                isinstance(node, A.Declarator) and not node.type.pointers:
            # a gert::Shape data member of a tiling class (`gert::Shape xShape_;`): an object of its own, which an
            # assignment anywhere (under an `if` too) copies into, as a `gert::Shape s;` variable is
            buffer = self.emit(hd.ShapeLocalOp(), node).results[0]
            buffer.name_hint = name if name.isidentifier() else None
            return Val(HostT("shape_buffer"), buffer)  # type: ignore[return-value]
        if init is None and isinstance(t, HostT) and t.kind == "unmodelled" and t.detail == "vector" and \
                isinstance(node, A.Declarator) and not node.type.pointers and \
                (elem := host_vector.element_type(self, node.type)) is not None:
            # a std::vector data member of a tiling class (`vector<int64_t> updateShape;`): an empty vector
            vec = host_vector.declare(self, name, elem, [], node)
            return HandleCell(vec.ctype, None, name, value=vec,  # type: ignore[arg-type]
                              block=self.builder.insertion_point.block)
        if isinstance(t, C.TilingT) and init is None and t.name in self.scope.tiling_structs:
            # a tiling struct member of a class (`XTilingData tilingData;` in a tiling helper class): a local
            # struct, as a variable of that type is
            init = self._tiling_local(t.name, node)
        if _is_host(t) or isinstance(t, C.Pointer) or (init is not None and _is_host(init.ctype)):
            # host code has no device pointers: every pointer variable holds a handle
            value = init if init is not None else Val(t if _is_host(t) else HostT("poison", name))
            return HandleCell(t, None, name, value=value, block=self.builder.insertion_point.block)  # type: ignore[arg-type]
        return super().new_cell(t, name, node, init)

    def load(self, cell: Cell, node: A.Node) -> Val:
        if isinstance(cell, HandleCell):
            assert cell.value is not None
            return cell.value
        return super().load(cell, node)

    def store(self, cell: Cell, v: Val, node: A.Node) -> None:
        if isinstance(cell, HandleCell):
            if self.builder.insertion_point.block is not cell.block and not _path_free_store(cell, v):
                raise Unsupported(f"assigning '{cell.name}' (a {cell.ctype}) under control flow is not modelled", node)
            cell.value = v
            return
        super().store(cell, v, node)

    def read_binding(self, b: Binding, node: A.Node) -> Val:
        if isinstance(b, HandleCell):
            assert b.value is not None
            return b.value  # the base would overwrite `obj` (the handle's payload) with the cell
        return super().read_binding(b, node)

    def assigned_names(self, body: A.Node) -> set[str]:
        """Also the variables a call writes through a reference: `GetCoreMemSize(type, ubSize)` and
        non-const reference parameters of helper functions (they must be cells to be written)."""
        hit = self._out_args_cache.get(id(body))
        if hit is not None:
            return hit
        names = set(super().assigned_names(body)) | self.passed_by_reference(body)
        self._out_args_cache[id(body)] = names
        for node in _walk(body):
            if not isinstance(node, A.Call) or not node.args:
                continue
            outs: list[A.Node] = []
            callee = node.callee
            if isinstance(callee, A.Member) and callee.member in ("GetCoreMemSize", "GetLocalMemSize") or isinstance(
                    callee, A.Name) and callee.qname.parts[-1].name == "GetDataTypeLength":
                outs.append(node.args[-1])
            elif isinstance(callee, A.Name) and callee.qname.parts[-1].name in host_tiling_api.OUT_ARGS:
                outs += [node.args[i] for i in host_tiling_api.OUT_ARGS[callee.qname.parts[-1].name]
                         if i < len(node.args)]
            elif isinstance(callee, A.Name) and callee.qname.parts[-1].name == "GetCumSumMaxMinTmpSize":
                outs += node.args[-2:]  # maxValue, minValue
            elif isinstance(callee, A.Name) and callee.qname.parts[-1].name in self.scope.functions:
                # a member passed by reference (`Split(this->rows)`); plain variables are in the set already
                fn = self.scope.functions[callee.qname.parts[-1].name][0]
                outs += [a for p, a in zip(fn.params, node.args)
                         if non_const_reference(p) and isinstance(a, A.Member)]
            for out in outs:
                if isinstance(out, A.Name) and len(out.qname.parts) == 1:
                    names.add(out.qname.parts[0].name)
                elif isinstance(out, A.Member) and isinstance(out.obj, A.This):
                    names.add(out.member)
        return names

    def declare(self, st: A.VarDecl) -> None:
        for i, d in enumerate(st.declarators):
            try:
                super().declare(replace(st, declarators=[d]) if len(st.declarators) > 1 else st)
            except (Unsupported, HostError):
                # later uses of these names report the skipped statement, not an undeclared identifier
                for rest in st.declarators[i:]:
                    self.bind(rest.name, Val(HostT("poison", rest.name)))
                raise

    def _declarator_init(self, d: A.Declarator, t: CType) -> Val | None:
        if isinstance(t, HostT) and t.kind == "unmodelled" and t.detail not in host_std.MAP_TYPES:
            return None  # `std::vector<T> v = {...}`: the initialiser is not needed to declare it
        try:
            return super()._declarator_init(d, t)
        except (Unsupported, HostError) as exc:
            # declare the name as poison: its uses are left out with a note, instead of running on an
            # undefined value (which the evaluator cannot run) or cascading into undeclared identifiers
            if isinstance(exc, Unsupported):
                self.report.failed(exc)
            return Val(HostT("poison", d.name))

    def bind_local(self, name: str, t: CType, init: Val | None, d: A.Node, st: A.Node, is_ref: bool = False) -> None:
        if self.shape_objects and isinstance(t, HostT) and t.kind in ("shape", "shape_buffer") and \
                isinstance(d, A.Declarator) and "*" not in d.type.pointers and not _getter_pointer(init):
            self._bind_shape_object(name, d, init, is_ref)
            return
        if isinstance(t, C.TilingT) and init is None:
            init = self._tiling_local(t.name, d)  # `XTilingData tiling;`
        if isinstance(t, HostT) and t.kind == "matmul_tiling" and init is None:
            init = self._construct(t, [], d)  # `MultiCoreMatmulTiling tiling;`: the library's own sizes
        if isinstance(t, HostT) and t.kind == "unmodelled" and init is None and t.detail == "vector":
            items = self._vector_items(d)
            if items is not None:
                # its only modelled use is a shape made from it; any other use reports the gap there
                self.bind(name, Val(t, obj=items))
                return
            elem = host_vector.element_type(self, d.type) if isinstance(d, A.Declarator) else None
            if elem is not None and not isinstance(d.init, A.InitList):  # type: ignore[union-attr]
                self.bind(name, host_vector.declare(self, name, elem, list(d.ctor_args or []), d))  # type: ignore[union-attr]
                return
        if isinstance(t, HostT) and t.kind == "unmodelled" and t.detail in host_streams.STRING_STREAMS and init is None:
            self.bind(name, host_streams.declare(t.detail))  # `std::ostringstream info;`, written for logs
            return
        if isinstance(t, HostT) and init is None:
            if t.kind == "unmodelled":
                self.report.unsupported(f"'{t.detail}' objects are not modelled by the host lowering", d)
            init = Val(t if t.kind == "unmodelled" else HostT("poison", name))
        if init is not None and _is_host(init.ctype):
            if init.ssa is not None and init.ssa.name_hint is None and name.isidentifier():
                init.ssa.name_hint = name
            self.bind(name, self.new_cell(init.ctype, name, d, init) if name in self.frame.assigned else init)
            return
        super().bind_local(name, t, init, d, st, is_ref)

    def _vector_items(self, d: A.Node) -> _VectorItems | None:
        """`std::vector<int64_t> v = {a, b};` / `v{a, b}`: its elements, read where it is declared, for a
        `ge::Shape s(v)` made from it (the srcShape a library tiling API takes); None for any other vector."""
        if not isinstance(d, A.Declarator) or not isinstance(d.init, A.InitList) or d.type.pointers:
            return None
        base = d.type.base
        if not isinstance(base, A.QualifiedName) or not base.parts[-1].template_args:
            return None
        values = [self.expr(item) for item in d.init.items]
        if not all(isinstance(v.ctype, Scalar) for v in values):
            return None
        return _VectorItems(tuple(values))

    def _bind_shape_object(self, name: str, d: A.Declarator, init: Val | None, is_ref: bool) -> None:
        """`gert::Shape s;`, `gert::Shape s = *x;`, `const gert::Shape& r = *y;` in an InferShape function.

        A reference names the object it is bound to; a const copy is the value it copies; any other copy
        is an object of its own. None of them is rebound by an assignment, which copies into the object.
        """
        if is_ref:
            if init is None:
                raise Unsupported(f"reference '{name}' without an initialiser", d)
            self.bind(name, init)
            return
        if "const" in d.type.qualifiers and init is not None:
            self.bind(name, Val(HostT("shape"), self._shape_value(init, d)))
            return
        buffer = self.emit(hd.ShapeLocalOp(), d).results[0]
        buffer.name_hint = name if name.isidentifier() else None
        if init is not None:
            self.emit(hd.ShapeAssignOp(buffer, self._shape_value(init, d)), d)
        self.bind(name, Val(HostT("shape_buffer"), buffer))

    def _shape_value(self, v: Val, node: A.Node) -> SSAValue:
        """The dims a shape handle holds now, as a `!host.shape` value."""
        if _unbound_shape(v):
            raise Unsupported("a gert::Shape the host lowering did not see set (a class member, or one set "
                              "under control flow) is not modelled", node)
        if _kind(v) == "shape":
            return self.ssa(v, node)
        if _kind(v) == "shape_buffer":
            return self.emit(hd.ShapeReadOp(self.ssa(v, node)), node).results[0]
        raise Unsupported(f"a gert::Shape made from {v.ctype} is not modelled", node)

    # ---------------------------------------------------------------------------------------------
    # types and names
    # ---------------------------------------------------------------------------------------------

    def resolve_type(self, t: A.TypeRef | None, node: A.Node | None = None) -> CType:
        resolved = super().resolve_type(t, node)
        # a pointer to a handle is the handle; `auto *p` is `auto`
        while isinstance(resolved, C.Pointer) and (_is_host(resolved.pointee) or (
                isinstance(resolved.pointee, C.UnknownT) and resolved.pointee.text == "auto")):
            resolved = resolved.pointee
        return resolved

    def named_type(self, name: str, targs: list[A.TemplateArg] | None, qualifiers: list[str] = ()) -> CType:  # type: ignore[assignment]
        if self.frames and name in self.frame.types:
            return super().named_type(name, targs, qualifiers)
        user = name in self.scope.classes or name in self.scope.tiling_structs or name in self.scope.enums
        if not user and name in _HANDLE_TYPES:
            return _HANDLE_TYPES[name]
        if not user and name in host_smart_ptr.SMART_POINTERS and (
                pointer := host_smart_ptr.pointer_type(self, targs)) is not None:
            return pointer  # `std::unique_ptr<Params>`: a pointer to a struct of the program
        if not user and (name in _LIBRARY_TYPES or "matmul_tiling" in qualifiers):
            return HostT("unmodelled", name)
        cls = self.scope.classes.get(name)
        if cls is not None and cls.is_plain_struct and name not in self.tiling_names and not cls.template_params:
            return C.ClassT(name)  # a helper record such as `struct DtypeInfo {...}`, not a tiling struct
        return super().named_type(name, targs, qualifiers)

    def expr_Name(self, e: A.Name) -> Val:
        parts = [p.name for p in e.qname.parts]
        last = parts[-1]
        user = last in self.scope.enumerators or last in self.scope.constants
        if not user and not (len(parts) == 1 and self.lookup(last) is not None):
            const = self._host_constant(parts)
            if const is not None:
                return const
        if len(parts) > 2 and "::".join(parts[-2:]) in self.scope.enumerators:
            e = replace(e, qname=replace(e.qname, parts=e.qname.parts[-2:]))  # `ns::Enum::VALUE`
        v = super().expr_Name(e)
        if _kind(v) == "poison":
            raise Unsupported(f"'{last}' comes from a statement the host lowering left out", e)
        return v

    def _host_constant(self, parts: list[str]) -> Val | None:
        last = parts[-1]
        if last in _GRAPH_STATUS and (len(parts) == 1 or parts[-2] == "ge"):
            return Val(C.U32, const=_GRAPH_STATUS[last])
        if last in hd.GE_DATA_TYPES:
            return Val(C.I32, const=hd.GE_DATA_TYPES[last])
        if last in _GE_FORMATS:
            return Val(C.I32, const=_GE_FORMATS[last])
        if last in _GE_DIM_CONSTANTS and (len(parts) == 1 or parts[-2] == "ge"):
            return Val(C.I64, const=_GE_DIM_CONSTANTS[last])
        if len(parts) >= 2 and parts[-2] == "CoreMemType":
            return Val(C.EnumT("CoreMemType"), const=last)
        if len(parts) >= 2 and parts[-2] == "SocVersion" and last in hd.SOC_VERSIONS:
            return Val(C.I32, const=hd.SOC_VERSIONS[last])
        # matmul_tiling::TPosition / CubeFormat / DataType, as SetAType and friends take them
        enums = {"TPosition": hd.MATMUL_POSITIONS, "CubeFormat": hd.MATMUL_FORMATS,
                 "DataType": hd.MATMUL_DATA_TYPES}
        if len(parts) >= 2 and last in enums.get(parts[-2], {}):
            return Val(C.I32, const=enums[parts[-2]][last])
        return None

    # ---------------------------------------------------------------------------------------------
    # re-dispatch: evaluate a sub-expression once, hand the base a stand-in for it
    # ---------------------------------------------------------------------------------------------

    def _stand_in(self, v: Val, node: A.Node) -> A.Node:
        """A name bound to the already lowered `v`, so the base lowering does not lower `node` again."""
        if isinstance(node, A.This):
            return node
        self._temps += 1
        tmp = f"__host_tmp{self._temps}"
        self.bind(tmp, v.obj if isinstance(v.obj, Instance) else v)
        return _name_node(node, tmp)

    def expr_Member(self, e: A.Member) -> Val:
        if isinstance(e.obj, A.This):
            return super().expr_Member(e)
        obj = self.expr(e.obj)
        if _is_host(obj.ctype):
            return self._handle_member(obj, e.member, e)
        return super().expr_Member(replace(e, obj=self._stand_in(obj, e.obj)))

    def expr_Index(self, e: A.Index) -> Val:
        base = self.expr(e.base)
        if not _is_host(base.ctype):
            return super().expr_Index(replace(e, base=self._stand_in(base, e.base)))
        kind = _kind(base)
        if host_std.is_model(base):
            return host_std.index(self, base, self.expr(e.index), e)
        if host_vector.is_vector(base):
            return host_vector.read(self, base, self.expr(e.index), e)
        if kind == "tiling_array":
            return self._tiling_get(base, self.expr(e.index), e)
        if kind == "list_data":
            pos = self.ssa(self.convert(self.expr(e.index), C.I64, e), e)
            return Val(C.I64, self.emit(hd.ListGetOp(self.ssa(base, e), pos), e).results[0])
        if kind in ("shape", "shape_buffer") and self.shape_objects and not _getter_pointer(base):
            # `shape[i]` / `(*x)[i]`: gert::Shape::operator[], GetDim without its range check
            pos = self.ssa(self.convert(self.expr(e.index), C.U64, e), e)
            return Val(C.I64, self.emit(hd.ShapeDimOp(self._shape_value(base, e), pos), e).results[0])
        raise Unsupported(f"reading an element of {base.ctype} is not modelled", e)

    def expr_Unary(self, e: A.Unary) -> Val:
        if e.op not in ("*", "&", "!"):
            return super().expr_Unary(e)
        if e.op == "&" and (view := array_pointer.element_address(self, e)) is not None:
            return view  # `&shape[k * 64]`: a pointer into a local array, not the element's value
        v = self.expr(e.operand)
        if not _is_host(v.ctype):
            return super().expr_Unary(replace(e, operand=self._stand_in(v, e.operand)))
        if e.op == "&":
            return v
        if e.op == "*" and _getter_pointer(v):
            # `*context->GetInputShape(i)`: the object, which is no longer null-checked or rebound
            return Val(v.ctype, self.ssa(v, e))
        if e.op == "!":
            return self._host_compare("==", v, Val(C.Pointer(C.VoidT()), const=0), e)
        if _kind(v) == "attr_ptr":
            return self._attr_value(v.obj, e)  # type: ignore[arg-type]
        if _kind(v) in ("workspace", "list_data"):
            return self.expr_Index(A.Index(e.span, e.operand, A.IntLit(e.span, "0", 0)))
        return v  # `*handle` is the object the handle points to: the same handle

    def expr_Binary(self, e: A.Binary) -> Val:
        if e.op == "<<" and self._stream_output(e):
            return self._print(e)
        if e.op not in ("&&", "||") or not _speculation_unsafe(e.rhs):
            return super().expr_Binary(e)
        # `p != nullptr && *p > 0`, `n != 0 && t / n > 4`: the right side runs only when it decides.
        # It is lowered into a detached block first, so a failure leaves no half-built scf.if behind.
        lhs = self.to_bool(self.expr(e.lhs), e)
        if lhs.const is not None:
            if (e.op == "&&") != bool(lhs.const):
                return Val(C.BOOL, const=lhs.const)
            return self.to_bool(self.expr(e.rhs), e)
        evaluate, skip = Block(), Block()
        with self.at_end_of(evaluate):
            rhs = self.to_bool(self.expr(e.rhs), e)
            self.emit(scf.YieldOp(self.ssa(rhs, e)), e)
        with self.at_end_of(skip):
            self.emit(scf.YieldOp(self.const_ssa(int(e.op == "||"), C.BOOL, e)), e)
        regions = (Region(evaluate), Region(skip)) if e.op == "&&" else (Region(skip), Region(evaluate))
        if_op = scf.IfOp(self.ssa(lhs, e), [C.scalar_ir_type(C.BOOL)], *regions)
        return Val(C.BOOL, self.emit(if_op, e).results[0])

    def _stream_output(self, e: A.Binary) -> bool:
        """Whether `e` is `std::cout << a << b ...` (or cerr / clog): the left end of its `<<` chain is a
        standard stream the program does not declare itself."""
        left: A.Node = e
        while isinstance(left, A.Binary) and left.op == "<<":
            left = left.lhs
        if not isinstance(left, A.Name):
            return False
        parts = [p.name for p in left.qname.parts]
        if len(parts) == 1 and host_streams.is_stream(self.lookup(parts[0])):
            return True  # `info << ...` into a local std::ostringstream
        if parts[-1] not in _STREAMS or not (len(parts) == 1 or parts[:-1] == ["std"]):
            return False
        return len(parts) > 1 or self.lookup(parts[0]) is None and parts[0] not in self.scope.constants

    def _print(self, e: A.Binary) -> Val:
        """`std::cout << ...` prints and changes no tiling value: only operands with effects of their own
        (`n++`, an assignment, a call of the program's functions) are lowered, in order."""
        items: list[A.Node] = []
        node: A.Node = e
        while isinstance(node, A.Binary) and node.op == "<<":
            items.append(node.rhs)
            node = node.lhs
        for item in reversed(items):
            if any(isinstance(n, A.Assign | A.IncDec) or isinstance(n, A.Call) and isinstance(n.callee, A.Name)
                   and n.callee.qname.parts[-1].name in self.scope.functions for n in _walk(item)):
                self.expr(item)
        return Val(HostT("stream"))

    def expr_Conditional(self, e: A.Conditional) -> Val:
        if not (_speculation_unsafe(e.then) or _speculation_unsafe(e.otherwise)):
            return super().expr_Conditional(e)
        # `p == nullptr ? dflt : *p`, `b == 0 ? 0 : a / b`: each branch runs only when chosen. Both are
        # lowered into detached blocks first, so the scf.if can take their common C type (no probe
        # evaluation that would leave failing host queries behind).
        cond = self.to_bool(self.expr(e.cond), e)
        if cond.const is not None:
            return self.expr(e.then if cond.const else e.otherwise)
        blocks = [Block(), Block()]
        values: list[Val] = []
        for block, branch in zip(blocks, (e.then, e.otherwise)):
            with self.at_end_of(block):
                values.append(self.expr(branch))
        a, b = values[0].ctype, values[1].ctype
        if not (isinstance(a, Scalar) and isinstance(b, Scalar)):
            raise Unsupported(f"a conditional choosing between {a} and {b} is not modelled", e)
        t = C.common_type(a, b)
        for block, v in zip(blocks, values):
            with self.at_end_of(block):
                self.emit(scf.YieldOp(self.ssa(self.convert(v, t, e), e)), e)
        if_op = scf.IfOp(self.ssa(cond, e), [C.ir_type(t)], Region(blocks[0]), Region(blocks[1]))
        return Val(t, self.emit(if_op, e).results[0])

    def expr_Assign(self, e: A.Assign) -> Val:
        items = _struct_init_items(e.value) if e.op == "=" else None
        if items is not None:
            target = self._tiling_target(e.target)
            if target is not None:
                self._tiling_fill(target, items, e)  # `*td = S{}`: value-initialise the whole struct
                return target
        return super().expr_Assign(e)

    def tensor_operator(self, e: A.Assign) -> Val | None:
        return None  # `a = b + c` on LocalTensors: there are none on the host

    def _tiling_target(self, target: A.Node) -> Val | None:
        """The tiling handle `target` (`td`, `*td`) names, found without lowering anything else."""
        if isinstance(target, A.Unary) and target.op == "*":
            target = target.operand
        if isinstance(target, A.Name) and len(target.qname.parts) == 1:
            b = self.lookup(target.qname.parts[0].name)
            v = b.value if isinstance(b, HandleCell) else b
            if isinstance(v, Val) and _kind(v) == "tiling":
                return v
        return None

    def assign(self, target: A.Node, value: Val, node: A.Node) -> None:
        if isinstance(target, A.Member) and not isinstance(target.obj, A.This):
            obj = self.expr(target.obj)
            if not _is_host(obj.ctype):
                return super().assign(replace(target, obj=self._stand_in(obj, target.obj)), value, node)
            if _kind(obj) != "tiling":
                raise Unsupported(f"assigning member '{target.member}' of {obj.ctype} is not modelled", node)
            return self._tiling_set(obj, target.member, value, node)
        if isinstance(target, A.Index):
            base = self.expr(target.base)
            if not _is_host(base.ctype):
                return super().assign(replace(target, base=self._stand_in(base, target.base)), value, node)
            return self._assign_element(base, self.expr(target.index), value, node)
        if isinstance(target, A.Unary) and target.op == "*":
            ptr = self.expr(target.operand)
            if not _is_host(ptr.ctype):
                return super().assign(replace(target, operand=self._stand_in(ptr, target.operand)), value, node)
            if _kind(ptr) == "workspace":
                return self._assign_element(ptr, Val(C.I32, const=0), value, node)
            if _kind(ptr) == "shape_buffer":
                self.emit(hd.ShapeAssignOp(self.ssa(ptr, node), self._shape_value(value, node)), node)
                return None
            raise Unsupported(f"assigning through {ptr.ctype} is not modelled", node)
        if isinstance(target, A.Name) and len(target.qname.parts) == 1:
            b = self.lookup(target.qname.parts[0].name)
            if isinstance(b, Val) and _kind(b) == "shape_buffer" and not _getter_pointer(b):
                # a gert::Shape object (or a reference to one): assignment copies into it
                self.emit(hd.ShapeAssignOp(self.ssa(b, node), self._shape_value(value, node)), node)
                return None
            if isinstance(b, Val) and _kind(b) == "poison":
                raise Unsupported(f"'{target.qname.parts[0].name}' comes from a statement the host lowering left out",
                                  node)
        return super().assign(target, value, node)

    def _assign_element(self, base: Val, index: Val, value: Val, node: A.Node) -> None:
        if host_vector.is_vector(base):
            host_vector.write(self, base, index, value, node)
            return
        kind = _kind(base)
        if kind == "workspace":
            if not isinstance(index.const, int) or index.const < 0:
                raise Unsupported("workspace sizes written at a non-constant index are not modelled", node)
            count = base.obj
            if isinstance(count, int) and index.const >= count:
                self.report.add(warning(NOT_MODELLED, f"workspace index {index.const} is past the "
                                        f"{count} size(s) GetWorkspaceSizes returned", span_of(node)))
            v = self.ssa(self.convert(value, C.U64, node), node)
            self.emit(hd.SetWorkspaceOp(self._context(node), index.const, v), node)
            return
        if kind == "tiling_array":
            ref, path, arr = base.obj  # type: ignore[misc]
            self._set_field(base.ssa, ref, path, arr.elem, value, node, index)  # type: ignore[arg-type]
            return
        writable = not (_getter_pointer(base) or _unbound_shape(base))
        if kind == "shape_buffer" and self.shape_objects and writable:
            # `(*y)[i] = v`: operator[] writes the dims array and leaves the rank as it is, so a dim past the
            # rank is lost as with SetDim
            dim = self.ssa(self.convert(index, C.U64, node), node)
            v = self.ssa(self.convert(value, C.I64, node), node)
            self.emit(hd.ShapeSetDimOp(self.ssa(base, node), dim, v), node)
            return
        raise Unsupported(f"assigning an element of {base.ctype} is not modelled", node)

    # comparisons and truth values -----------------------------------------------------------------

    def compare(self, op: str, a: Val, b: Val, node: A.Node, operands: tuple[A.Node, A.Node] | None = None) -> Val:
        if op in ("==", "!=") and isinstance(a.const, str) and isinstance(b.const, str) and \
                isinstance(a.ctype, C.UnknownT) and isinstance(b.ctype, C.UnknownT):
            # a std::string made from a known C string (GetNodeType()'s op type) against a literal
            return Val(C.BOOL, const=int((a.const == b.const) == (op == "==")))
        if op in ("==", "!=") and all(isinstance(v.ctype, C.Pointer) and v.const == 0 and v.ssa is None
                                      for v in (a, b)):
            # two null pointer constants (GetCompileInfo() of an op without compile info, against nullptr)
            return Val(C.BOOL, const=int(op == "=="))
        if _is_host(a.ctype) or _is_host(b.ctype):
            return self._host_compare(op, a, b, node)
        return super().compare(op, a, b, node, operands)

    def to_bool(self, v: Val, node: A.Node) -> Val:
        if _is_host(v.ctype):
            return self._host_compare("!=", v, Val(C.Pointer(C.VoidT()), const=0), node)
        return super().to_bool(v, node)

    def _host_compare(self, op: str, a: Val, b: Val, node: A.Node) -> Val:
        if op not in ("==", "!="):
            raise Unsupported(f"operator '{op}' on {a.ctype} and {b.ctype}", node)
        handle, other = (a, b) if _is_host(a.ctype) else (b, a)
        if host_std.is_model(a) or host_std.is_model(b):
            return host_std.compare(self, op, a, b, node)
        if _kind(handle) == "string" and isinstance(other.const, str) and not _is_host(other.ctype):
            eq = Val(C.BOOL, self.emit(hd.StrEqOp(self.ssa(handle, node), other.const), node).results[0])
            return eq if op == "==" else self._not(eq, node)
        if _kind(handle) == "attr_ptr" and isinstance(other.const, str):
            raise Unsupported("comparing a 'const char*' attribute with a string literal compares addresses; "
                              "use strcmp or std::string", node)
        if self.shape_objects and _kind(a) in ("shape", "shape_buffer") and _kind(b) in ("shape", "shape_buffer") \
                and not (_getter_pointer(a) or _getter_pointer(b)):
            eq = Val(C.BOOL, self.emit(hd.ShapeEqOp(self._shape_value(a, node), self._shape_value(b, node)),
                                       node).results[0])
            return eq if op == "==" else self._not(eq, node)
        if _kind(a) == _kind(b) == "storage_shape" and isinstance(a.obj, TensorRef) and isinstance(b.obj, TensorRef):
            # gert::StorageShape::operator==: the origin shapes and the storage shapes both equal
            eqs = [self.emit(hd.ShapeEqOp(self._ref_shape(a.obj, kind, node), self._ref_shape(b.obj, kind, node)),
                             node).results[0] for kind in (hd.ShapeKind.ORIGIN, hd.ShapeKind.STORAGE)]
            eq = Val(C.BOOL, self.emit(arith.AndIOp(*eqs), node).results[0])
            return eq if op == "==" else self._not(eq, node)
        if _is_host(other.ctype) or not (other.const == 0 and other.ssa is None):
            raise Unsupported(f"comparing {a.ctype} with {b.ctype} is not modelled", node)
        present = self._present(handle, node)
        return present if op == "!=" else self._not(present, node)

    def _ref_shape(self, ref: TensorRef, kind: hd.ShapeKind, node: A.Node) -> SSAValue:
        """The origin or storage shape of the tensor `ref` stands for, as a `!host.shape` value."""
        ctx = self._context(node)
        op = (hd.OutputShapeOp(ctx, ref.index, kind, at=ref.at) if ref.output
              else hd.InputShapeOp(ctx, ref.index, kind, at=ref.at))
        return self.emit(op, node).results[0]

    def _not(self, v: Val, node: A.Node) -> Val:
        if v.const is not None:
            return Val(C.BOOL, const=int(not v.const))
        return Val(C.BOOL, self.emit(arith.XOrIOp(self.ssa(v, node), self.const_ssa(1, C.BOOL, node)), node).results[0])

    def _present(self, h: Val, node: A.Node) -> Val:
        """Whether handle `h` is non-null: optional inputs and attributes may be absent, the rest never."""
        kind = _kind(h)
        optional = isinstance(h.obj, TensorRef) and h.obj.optional
        if kind in ("storage_shape", "tensor", "desc", "shape") and optional:
            has = hd.HasInputOp(self._context(node), h.obj.index, at=h.obj.at)
            return Val(C.BOOL, self.emit(has, node).results[0])
        if kind == "attr_ptr" and isinstance(h.obj, AttrRef):
            return Val(C.BOOL, self.emit(hd.HasAttrOp(self._context(node), h.obj.index), node).results[0])
        if kind in ("poison", "unmodelled", "opaque"):
            raise Unsupported(f"{h.ctype} is not modelled by the host lowering", node)
        if kind == "context" and h.ssa is None:
            return Val(C.BOOL, const=0)  # a null handle member never assigned
        return Val(C.BOOL, const=1)

    # ---------------------------------------------------------------------------------------------
    # construction: declarations and casts of handle types, brace initialisation
    # ---------------------------------------------------------------------------------------------

    def expr_Cast(self, e: A.Cast) -> Val:
        t = self.resolve_type(e.type)
        if isinstance(t, HostT):
            items = list(e.args) if e.args else [e.expr] if e.expr is not None else []
            if isinstance(e.expr, A.InitList):
                items = list(e.expr.items)
            return self._construct(t, items, e)
        return super().expr_Cast(e)

    def init_list(self, t: CType, items: Sequence[A.Node], node: A.Node) -> Val:
        if isinstance(t, HostT):
            return self._construct(t, items, node)
        if isinstance(t, C.TilingT):
            local = self._tiling_local(t.name, node)
            self._tiling_fill(local, items, node)
            return local
        if isinstance(t, C.ClassT):
            info = self.scope.classes.get(t.name)
            if info is not None and info.is_plain_struct and not info.constructors:
                return self._aggregate(t, info.fields, items, node)
        return super().init_list(t, items, node)

    def _aggregate(self, t: C.ClassT, fields: list[tuple[A.VarDecl, A.Declarator]], items: Sequence[A.Node],
                   node: A.Node) -> Val:
        """`S s{a, b}` / `s = {a, b}` of a plain struct: members in order, the rest value-initialised."""
        inst = self.instantiate(t, "", node)
        for i, (_, d) in enumerate(fields):
            member = inst.members.get(d.name)
            if not isinstance(member, Cell) or isinstance(member, HandleCell):
                continue
            if i < len(items):
                self.store(member, self.expr(items[i]), node)
            elif d.init is None and not d.ctor_args and isinstance(member.ctype, Scalar):
                self.store(member, Val(member.ctype, const=0), node)
        return Val(t, obj=inst)

    def _construct(self, t: HostT, items: Sequence[A.Node], node: A.Node) -> Val:
        if t.kind == "unmodelled" and t.detail in host_std.MAP_TYPES:
            return host_std.make_map(self, t, items, node)
        if t.kind in ("shape", "shape_buffer") and self.shape_objects:
            return self._make_shape(items, node)
        if t.kind == "platform":
            if len(items) != 1:
                raise Unsupported("PlatformAscendC takes the context's platform info", node)
            info = self.expr(items[0])
            if _kind(info) != "platform_info":
                raise Unsupported("PlatformAscendC is built from context->GetPlatformInfo() only", node)
            return self._platform(node)
        if t.kind == "string" and len(items) == 1:
            return self._as_string(self.expr(items[0]), node)
        if t.kind == "matmul_tiling" and len(items) <= 1:
            platform = self.expr(items[0]) if items else None
            if platform is not None and _kind(platform) != "platform":
                raise Unsupported(f"{t} built from {platform.ctype} is not modelled", node)
            multi_core = t.detail == "MultiCoreMatmulTiling"
            op = hd.MatmulCreateOp(self.ssa(platform, node) if platform is not None else None, multi_core)
            return Val(t, self.emit(op, node).results[0])
        raise Unsupported(f"constructing {t} is not modelled by the host lowering", node)

    def _make_shape(self, items: Sequence[A.Node], node: A.Node) -> Val:
        """`gert::Shape({a, b})`, `{a, b}` assigned to a shape, or a copy `gert::Shape(*x)`."""
        if len(items) == 1 and isinstance(items[0], A.InitList):
            items = items[0].items
        values = [self.expr(item) for item in items]
        if len(values) == 1 and _kind(values[0]) in ("shape", "shape_buffer"):
            return Val(HostT("shape"), self._shape_value(values[0], node))  # the copy constructor
        if len(values) == 1 and isinstance(values[0].obj, _VectorItems):
            values = list(values[0].obj.values)  # ge::Shape(const std::vector<int64_t> &dims)
        dims: list[SSAValue] = []
        for v in values:
            if not isinstance(v.ctype, Scalar):
                raise Unsupported(f"a gert::Shape dim of type {v.ctype} is not modelled", node)
            dims.append(self.ssa(self.convert(v, C.I64, node), node))
        return Val(HostT("shape"), self.emit(hd.MakeShapeOp(dims), node).results[0])

    def _as_string(self, v: Val, node: A.Node) -> Val:
        if _kind(v) == "attr_ptr" and isinstance(v.obj, AttrRef) and v.obj.kind == "str":
            return self._attr_value(v.obj, node)
        if _kind(v) == "string" or (isinstance(v.const, str) and isinstance(v.ctype, C.UnknownT)):
            return v
        raise Unsupported(f"a string made from {v.ctype} is not modelled", node)

    # ---------------------------------------------------------------------------------------------
    # calls
    # ---------------------------------------------------------------------------------------------

    def expr_Call(self, e: A.Call, expected: CType | None = None) -> Val:
        callee = e.callee
        if isinstance(callee, A.Name):
            handled = self._free_call(e, callee, expected)
            return handled if handled is not None else super().expr_Call(e, expected)
        if isinstance(callee, A.Member) and not isinstance(callee.obj, A.This):
            recv = self.expr(callee.obj)
            if _is_host(recv.ctype):
                return self._method(e, callee, recv)
            if host_init_list.is_list(recv):
                return host_init_list.method(self, e, callee.member, recv)
            stand_in = replace(e, callee=replace(callee, obj=self._stand_in(recv, callee.obj)))
            return super().expr_Call(stand_in, expected)
        return super().expr_Call(e, expected)

    def _free_call(self, e: A.Call, callee: A.Name, expected: CType | None) -> Val | None:
        """Host free functions; None hands the call to the base lowering (user functions and types)."""
        parts = [p.name for p in callee.qname.parts]
        name = parts[-1]
        qualified = "::".join(parts)
        if name in _IGNORED_CALLS:
            return Val(C.VoidT())
        if len(parts) == 1 and self.lookup(name) is not None:
            return None
        this = self.frame.this
        if name in self.scope.functions or name in self.scope.classes or (
                len(parts) >= 2 and parts[-2] in self.scope.classes) or (
                this is not None and len(parts) == 1 and name in this.info.methods):
            return None  # user code: helper functions, constructors, methods of the enclosing class
        if name in ("min", "max"):
            return self._min_max(e, name, callee.qname.parts[-1].template_args)
        if name in host_smart_ptr.MAKERS and parts[0] == "std":
            return host_smart_ptr.make(self, e, name, callee.qname.parts[-1].template_args)
        if name in ("__builtin_expect", "likely", "unlikely") and e.args:
            for a in e.args[1:]:
                self.expr(a)
            return self.expr(e.args[0])  # a branch hint: the value of its first argument
        if name in _MATMUL_CLASSES and not (len(parts) == 1 and name in self.scope.classes):
            return self._construct(_HANDLE_TYPES[name], e.args, e)  # type: ignore[arg-type]
        if name == "PlatformAscendC" or (name == "GetInstance" and "PlatformAscendCManager" in parts):
            for a in e.args:
                self.expr(a)
            return self._platform(e)
        if name == "string" and len(e.args) == 1:
            return self._as_string(self.expr(e.args[0]), e)
        if name == "strcmp" and len(e.args) == 2:
            return self._strcmp(e)
        if name in ("memset", "memset_s"):
            return self._memset(e)
        if name in ("memcpy", "memcpy_s"):
            return self._memcpy(e)
        if name == "GetDataTypeLength" and len(e.args) == 2:
            return self._dtype_length(e)
        if name == "GetSizeByDataType" and len(e.args) == 1:
            dtype = self.ssa(self.convert(self.expr(e.args[0]), C.I32, e), e)
            size = Val(C.I64, self.emit(hd.DtypeSizeOp(dtype), e).results[0])
            return self.convert(size, C.I32, e)  # ge::GetSizeByDataType returns int
        if name in _SOFTMAX_TMP_SIZE and len(e.args) == 3:
            return self._softmax_tmp_size(e, per_row=name in ("GetSoftMaxMaxTmpSize", "GetLogSoftMaxMaxTmpSize"))
        if name in ("SoftMaxTilingFunc", "LogSoftMaxTilingFunc") and len(e.args) == 4:
            return self._softmax_tiling_func(e)
        if name in host_tiling_api.FUNCTIONS:
            return host_tiling_api.call(self, e, name)
        if name == "find" and parts[0] == "std" and len(e.args) == 3:
            return host_std.find(self, e)
        if name == "accumulate" and parts[0] == "std" and len(e.args) in (3, 4):
            return host_accumulate.accumulate(self, e)
        if name == "GetCumSumMaxMinTmpSize" and len(e.args) == 6:
            return self._cumsum_tmp_size(e)
        math_name = name[:-1] if name.endswith("f") and name[:-1] in _MATH_OPS else name  # sqrtf -> sqrt
        if math_name in _MATH_OPS and parts[0] in ("std", name):
            return self._math(e, math_name)
        if name in _LIBRARY_FUNCS or parts[0] in _LIBRARY_NAMESPACES:
            raise Unsupported(f"'{qualified}' is not modelled by the host lowering", e)
        if not isinstance(self.named_type(name, callee.qname.parts[-1].template_args), C.UnknownT):
            return None  # a constructor-style cast: `uint32_t(x)`, `DtypeInfo(...)`
        self.report.undeclared(qualified, callee)
        raise HostError(qualified)

    def _softmax_tmp_size(self, e: A.Call, per_row: bool) -> Val:
        """`AscendC::Get[Log]SoftMax{Min,Max}TmpSize(srcShape, dataTypeSize, isReuseSource)`: the bytes of
        temporary space the kernel's SoftMax / LogSoftMax needs for `srcShape` read as [M, K] (K the last
        dim, M the product of the others). The vendor's tiling library (asc-devkit softmax_tiling.cpp,
        logsoftmax_tiling.cpp) computes, in float words, for the 220x chips: the minimum, one row at a time,
        32 / dataTypeSize + K + 64 (a block of the row's max/sum, the row, a 64-word reduction unit); the
        maximum, all M rows at once, M times that; times 4 bytes. isReuseSource does not change either.
        (The 3510 chips' larger formula is not modelled: the simulator's chips are 220x.)"""
        shape = self.expr(e.args[0])
        if _kind(shape) not in ("shape", "shape_buffer"):
            raise Unsupported(f"a SoftMax tiling shape of {shape.ctype} is not modelled", e.args[0])
        value = self._shape_value(shape, e.args[0])
        type_size = self.convert(self.expr(e.args[1]), C.U32, e)
        self.expr(e.args[2])
        rank = self.ssa(self.arith("-", Val(C.U64, self.emit(hd.ShapeDimNumOp(value), e).results[0]),
                                   Val(C.U64, const=1), e), e)
        cols = self.convert(Val(C.I64, self.emit(hd.ShapeDimOp(value, rank), e).results[0]), C.U32, e)
        words = self.arith("+", self.arith("/", Val(C.U32, const=32), type_size, e), cols, e)
        words = self.arith("+", words, Val(C.U32, const=64), e)
        if per_row:
            size = self.convert(Val(C.I64, self.emit(hd.ShapeSizeOp(value), e).results[0]), C.U32, e)
            words = self.arith("*", self.arith("/", size, cols, e), words, e)
        return self.arith("*", words, Val(C.U32, const=4), e)

    def _cumsum_tmp_size(self, e: A.Call) -> Val:
        """`AscendC::GetCumSumMaxMinTmpSize(srcShape, typeSize, isLastAxis, isReuseSource, maxValue, minValue)`: the
        tiling library's sizes (asc-devkit cumsum_tiling.cpp) for srcShape [outter, inner] into the two references.
        Along the last axis CumSum transposes 16 rows at a time, twice: at least 2 * 16 * inner * typeSize bytes, at
        most 2 * align16(outter) * inner * typeSize, and for half a cast buffer of 16 (at most align16(outter)) rows
        of inner halves as well; along the first axis outter * inner floats for half, nothing for float.
        (rust_sim/src/vector/cumsum.rs checks the kernel's buffer against the same minimum.)"""
        shape = self.expr(e.args[0])
        if _kind(shape) not in ("shape", "shape_buffer"):
            raise Unsupported(f"a CumSum tiling shape of {shape.ctype} is not modelled", e.args[0])
        value = self._shape_value(shape, e.args[0])
        type_size, last_axis = self.expr(e.args[1]), self.expr(e.args[2])
        self.expr(e.args[3])
        if not isinstance(type_size.const, int) or last_axis.const is None:
            raise Unsupported("GetCumSumMaxMinTmpSize with a type size or an axis known only at run time", e)

        def dim(i: int) -> Val:
            index = self.ssa(Val(C.U64, const=i), e)
            return self.convert(Val(C.I64, self.emit(hd.ShapeDimOp(value, index), e).results[0]), C.U32, e)

        def times(a: Val, n: int) -> Val:
            return self.arith("*", a, Val(C.U32, const=n), e)

        outter, inner = dim(0), dim(1)
        half = type_size.const == 2
        if last_axis.const:
            rows = times(self.arith("/", self.arith("+", outter, Val(C.U32, const=15), e), Val(C.U32, const=16), e), 16)
            least = times(inner, 16 * type_size.const * 2 + (16 * 2 if half else 0))
            most = times(self.arith("*", rows, inner, e), type_size.const * 2 + (2 if half else 0))
        else:
            least = most = times(self.arith("*", outter, inner, e), 4) if half else Val(C.U32, const=0)
        self.assign(e.args[4], most, e)
        self.assign(e.args[5], least, e)
        return Val(C.VoidT())

    def _softmax_tiling_func(self, e: A.Call) -> Val:
        """`AscendC::[Log]SoftMaxTilingFunc(srcShape, dataTypeSize, workSize, tiling.softmaxTiling)`: the
        arguments run; the SoftMaxTiling block it fills is not written. The simulator's SoftMax / LogSoftMax
        split rows from the SoftMaxShapeInfo and the temporary buffer the kernel passes, not from this block
        (rust_sim's `tiling:SoftMaxTiling` has no fields), so nothing the simulation reads is left unset."""
        shape = self.expr(e.args[0])
        if _kind(shape) not in ("shape", "shape_buffer"):
            raise Unsupported(f"a SoftMax tiling shape of {shape.ctype} is not modelled", e.args[0])
        self._shape_value(shape, e.args[0])
        for a in e.args[1:3]:
            self.expr(a)
        target = self.expr(e.args[3])
        if _kind(target) != "unmodelled" or not str(target.ctype.detail).split()[0].endswith("SoftMaxTiling"):
            raise Unsupported(f"SoftMaxTilingFunc into {target.ctype} is not modelled", e.args[3])
        return Val(C.VoidT())

    def _dtype_length(self, e: A.Call) -> Val:
        """`ge::TypeUtils::GetDataTypeLength(dtype, length)`: the bytes per element into `length` (a reference),
        true; the evaluator fails the run for a dtype without a size, where the call would return false."""
        dtype = self.ssa(self.convert(self.expr(e.args[0]), C.I32, e), e)
        size = Val(C.I64, self.emit(hd.DtypeSizeOp(dtype), e).results[0])
        self.assign(e.args[1], self.convert(size, C.U32, e), e)
        return Val(C.BOOL, const=1)

    def _min_max(self, e: A.Call, name: str, targs: list[A.TemplateArg] | None) -> Val:
        items: Sequence[A.Node] = e.args
        if len(e.args) == 1 and isinstance(e.args[0], A.InitList):
            items = e.args[0].items  # std::min({a, b, c})
        values = [self.expr(a) for a in items]
        if not values or not all(isinstance(v.ctype, Scalar) for v in values):
            raise Unsupported(f"std::{name} of non-arithmetic values", e)
        t: Scalar | None = None
        if targs:
            try:
                explicit = self._template_arg_value(targs[0])
                t = explicit if isinstance(explicit, Scalar) else None
            except (Unsupported, HostError):
                t = None  # `std::min<decltype(v)::size_type>`: fall back to the arguments' common type
        if t is None:
            t = values[0].ctype  # type: ignore[assignment]
            for v in values[1:]:
                t = C.common_type(t, v.ctype)  # type: ignore[arg-type]
        assert t is not None
        result = self.convert(values[0], t, e)
        for v in values[1:]:
            v = self.convert(v, t, e)
            # std::min(a, b) is (b < a) ? b : a; std::max(a, b) is (a < b) ? b : a
            take = self.compare("<", v, result, e) if name == "min" else self.compare("<", result, v, e)
            if take.const is not None:
                result = v if take.const else result
            else:
                op = arith.SelectOp(self.ssa(take, e), self.ssa(v, e), self.ssa(result, e))
                result = Val(t, self.emit(op, e).results[0])
        return result

    def _math(self, e: A.Call, name: str) -> Val:
        """`std::ceil`, `floor`, `abs` / `fabs`, `pow`, `sqrt`, `exp`, `log` (and the libm `f` forms)."""
        args = [self.expr(a) for a in e.args]
        if len(args) != (2 if name == "pow" else 1) or not all(isinstance(a.ctype, Scalar) for a in args):
            raise Unsupported(f"'{name}' of these arguments is not modelled", e)
        t = args[0].ctype
        assert isinstance(t, Scalar)
        if name == "abs" and not t.is_float:
            v = self.convert(args[0], C.promote(t), e)
            return Val(v.ctype, self.emit(xmath.AbsIOp(self.ssa(v, e)), e).results[0])
        ft = t if t.is_float else C.F64  # the integer overloads compute in double
        xs = [self.ssa(self.convert(a, ft, e), e) for a in args]
        op = _MATH_OPS[name](*xs)
        return Val(ft, self.emit(op, e).results[0])

    def _strcmp(self, e: A.Call) -> Val:
        """`strcmp(s, "lit")`: 0 when equal, 1 otherwise (only equality is modelled, not the order)."""
        a, b = (self.expr(x) for x in e.args)
        literal, other = (b, a) if isinstance(b.const, str) else (a, b)
        if not isinstance(literal.const, str) or _is_host(literal.ctype):
            raise Unsupported("strcmp is modelled against a string literal only", e)
        eq = self._host_compare("==", self._as_string(other, e), literal, e)
        zero, one = self.const_ssa(0, C.I32, e), self.const_ssa(1, C.I32, e)
        return Val(C.I32, self.emit(arith.SelectOp(self.ssa(eq, e), zero, one), e).results[0])

    def _memset(self, e: A.Call) -> Val:
        """`memset(tiling, 0, sizeof(S))` / `memset_s(tiling, max, 0, n)`: the struct value-initialised."""
        value_at = 2 if e.callee.qname.parts[-1].name == "memset_s" else 1  # type: ignore[union-attr]
        dest = self.expr(e.args[0]) if len(e.args) > value_at else None
        if dest is None or _kind(dest) != "tiling" or self.const_eval(e.args[value_at]) != 0:
            raise Unsupported("memset is modelled only for zeroing a tiling struct", e)
        self._tiling_fill(dest, [], e)
        return Val(C.VoidT())

    def _memcpy(self, e: A.Call) -> Val:
        """`memcpy(raw->GetData(), &tiling, n)` (or memcpy_s): a POD tiling struct saved to the context."""
        src_at = 2 if e.callee.qname.parts[-1].name == "memcpy_s" else 1  # type: ignore[union-attr]
        if len(e.args) > src_at:
            dest, src = self.expr(e.args[0]), self.expr(e.args[src_at])
            if _kind(dest) == "raw_data" and _kind(src) == "tiling":
                self._save(src, e)
                return Val(C.VoidT())
        raise Unsupported("memcpy is modelled only for copying a tiling struct into the raw tiling data", e)

    # methods of handles ---------------------------------------------------------------------------

    def _method(self, e: A.Call, callee: A.Member, recv: Val) -> Val:
        kind = _kind(recv)
        name = callee.member
        if host_std.is_model(recv):
            return host_std.method(self, e, name, recv)
        if host_vector.is_vector(recv):
            return host_vector.method(self, e, name, recv)
        if kind == host_streams.KIND:
            return host_streams.method(self, e, name, recv)
        if kind in ("unmodelled", "opaque", "poison"):
            what = f"'{recv.ctype}'" if kind == "unmodelled" else str(recv.ctype)
            raise Unsupported(f"'{name}' on {what} is not modelled by the host lowering", e)
        if kind == "tiling":
            return self._tiling_method(e, name, recv)
        if kind == "matmul_tiling":
            return self._matmul_method(e, name, recv, callee)
        if self.shape_objects and kind in ("shape", "shape_buffer") and _unbound_shape(recv):
            raise Unsupported(f"'{name}' on a gert::Shape the host lowering did not see set (a class member, "
                              "or one set under control flow) is not modelled", e)
        table = _METHODS.get(kind or "", {})
        handler = table.get(name)
        if handler is None:
            if kind == "context" and name in _KNOWN_UNMODELLED_CONTEXT:
                raise Unsupported(f"TilingContext::{name} is not modelled by the host lowering", e)
            if kind == "infer_context" and name in _KNOWN_UNMODELLED_INFER_CONTEXT:
                raise Unsupported(f"InferShapeContext::{name} is not modelled by the host lowering", e)
            if kind == "shape" and name in _METHODS["shape_buffer"] and self.shape_objects:
                # an input's shape, or a const copy: C++ rejects the write
                self.report.add(error(UNKNOWN_API, f"'{name}' writes a const gert::Shape", span_of(e)))
                raise HostError(name)
            if kind == "platform" and name in _KNOWN_UNMODELLED_PLATFORM:
                raise Unsupported(f"PlatformAscendC::{name} is not modelled by the host lowering", e)
            self._no_member(name, str(recv.ctype), list(table), e)
        return handler(self, e, recv, callee)

    def _matmul_method(self, e: A.Call, name: str, recv: Val, callee: A.Member) -> Val:
        """A call on a matmul tiling object; one the lowering leaves out makes the object's state unknown."""
        owner = str(recv.ctype)
        if recv.ssa is None:  # a class member or a copy the lowering did not see constructed
            raise Unsupported(f"{owner}::{name} on an object built where the host lowering does not see it", e)
        handler = _MATMUL_METHODS.get(name)
        try:
            if handler is None or (name in _MULTI_CORE_ONLY and owner != "MultiCoreMatmulTiling"):
                raise Unsupported(f"{owner}::{name} is not modelled by the host lowering", e)
            return handler(self, e, recv, callee)
        except Unsupported:
            self.emit(hd.MatmulUnknownOp(self.ssa(recv, e), name), e)
            raise

    def _index_arg(self, e: A.Call, what: str, position: int = 0) -> int:
        value = self.const_eval(e.args[position]) if len(e.args) > position else None
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise Unsupported(f"the {what} index must be a non-negative constant", e)
        return value

    def _tensor_index(self, e: A.Call, what: str) -> tuple[int, SSAValue | None]:
        """The index argument of a tensor query: a constant, or a value known only at run time (a loop over
        the inputs) as `(0, its i64 value)`; the evaluator rejects a negative one."""
        if not e.args:
            raise Unsupported(f"the {what} index is missing", e)
        value = self.const_eval(e.args[0])
        if isinstance(value, int) and not isinstance(value, bool):
            if value < 0:
                raise Unsupported(f"the {what} index {value} is negative", e)
            return value, None
        index = self.expr(e.args[0])
        if not isinstance(index.ctype, Scalar) or index.ctype.is_float:
            raise Unsupported(f"the {what} index must be an integer", e)
        if isinstance(index.const, int) and not isinstance(index.const, bool):
            if index.const < 0:
                raise Unsupported(f"the {what} index {index.const} is negative", e)
            return index.const, None
        return 0, self.ssa(self.convert(index, C.I64, e), e)

    def _context(self, node: A.Node) -> SSAValue:
        if self.ctx is None:
            raise Unsupported("no tiling context", node)
        return self.ctx

    def _platform(self, node: A.Node) -> Val:
        return Val(HostT("platform"), self.emit(hd.PlatformOp(self._context(node)), node).results[0])

    def _attr_value(self, ref: AttrRef, node: A.Node) -> Val:
        """`*attrs->GetAttrPointer<T>(i)`: the attribute's value, as T."""
        result = self.emit(hd.AttrOp(self._context(node), ref.index, ref.kind), node).results[0]
        if ref.kind == "str":
            return Val(HostT("string"), result)
        if ref.kind == "list_int":
            return Val(HostT("int_list"), result)
        read = {"int": C.I64, "float": C.F32, "bool": C.BOOL}[ref.kind]
        value = Val(read, result)
        return self.convert(value, ref.ctype, node) if isinstance(ref.ctype, Scalar) else value

    # ---------------------------------------------------------------------------------------------
    # tiling structs
    # ---------------------------------------------------------------------------------------------

    def _tiling_local(self, struct: str, node: A.Node) -> Val:
        self._check_struct(struct, node)
        self.structs_used.append((struct, "local"))
        op = self.emit(hd.TilingLocalOp(struct), node)
        return Val(HostT("tiling", struct), op.results[0], obj=TilingRef(struct, local=True))

    def _check_struct(self, struct: str, node: A.Node) -> None:
        if struct not in self.scope.tiling_structs:
            self.report.unknown_type(struct, node)
            raise HostError(struct)

    def _fields(self, ref: TilingRef) -> list[tuple[str, CType]]:
        """The fields of the struct `ref` points into, with their C types, in declaration order."""
        struct = ref.struct
        for part in ref.path.split(".") if ref.path else []:
            t = self._field_type(struct, part)
            struct = t.name if isinstance(t, C.TilingT) else ""
        ts = self.scope.tiling_structs.get(struct)
        if ts is None:
            return [(name, C.I32) for name in _LIBRARY_STRUCTS.get(struct, ())]
        return [(name, self._field_type(struct, name)) for name, *_ in ts.fields]

    def _field_type(self, struct: str, name: str) -> CType:
        t = self.tiling_field_type(struct, name)
        return C.TilingT(t.name) if isinstance(t, C.ClassT) else t

    def _field(self, tiling: Val, name: str, node: A.Node) -> tuple[TilingRef, CType]:
        ref = tiling.obj
        assert isinstance(ref, TilingRef)
        fields = dict(self._fields(ref))
        if name not in fields:
            struct = f"{ref.struct}.{ref.path}" if ref.path else ref.struct
            self._no_member(name, struct, list(fields), node, what="field")
        return ref, fields[name]

    def _no_member(self, name: str, owner: str, known: list[str], node: A.Node, what: str = "member") -> NoReturn:
        """C++ the compiler rejects: report it (with the closest names) and leave the statement out."""
        closest = difflib.get_close_matches(name, known, n=3)
        notes = [Note(f"did you mean {', '.join(repr(c) for c in closest)}?", kind="help")] if closest else []
        self.report.add(error(UNKNOWN_API, f"no {what} named '{name}' in '{owner}'", span_of(node), *notes))
        raise HostError(name)

    def _handle_member(self, obj: Val, member: str, node: A.Node) -> Val:
        if host_std.is_model(obj):
            return host_std.member(self, obj, member, node)
        if _kind(obj) != "tiling":
            raise Unsupported(f"member '{member}' of {obj.ctype} is not modelled", node)
        ref, t = self._field(obj, member, node)
        if isinstance(t, C.ArrayT):
            return Val(HostT("tiling_array", ref.struct), obj.ssa, obj=(ref, ref.field_name(member), t))
        if isinstance(t, C.TilingT):
            if t.name not in self.scope.tiling_structs and t.name not in _LIBRARY_STRUCTS:
                return Val(HostT("unmodelled", f"{t.name} {member}"))  # SoftMaxTiling & co.
            return Val(HostT("tiling", ref.struct), obj.ssa, obj=replace(ref, path=ref.field_name(member)))
        if not isinstance(t, Scalar):
            raise Unsupported(f"field '{member}' of type {t} is not modelled", node)
        op = hd.TilingGetOp(self.ssa(obj, node), ref.field_name(member), C.scalar_ir_type(t))
        return Val(t, self.emit(op, node).results[0])

    def _tiling_get(self, array: Val, index: Val, node: A.Node) -> Val:
        _, path, arr = array.obj  # type: ignore[misc]
        elem = arr.elem if isinstance(arr.elem, Scalar) else C.U32
        pos = self.ssa(self.convert(index, C.I64, node), node)
        op = hd.TilingGetOp(self.ssa(array, node), path, C.scalar_ir_type(elem), pos)
        return Val(elem, self.emit(op, node).results[0])

    def _tiling_set(self, tiling: Val, member: str, value: Val, node: A.Node) -> None:
        ref, t = self._field(tiling, member, node)
        if isinstance(t, C.ArrayT) and isinstance(t.elem, Scalar) and array_pointer.is_pointer_operand(value) \
                and not (isinstance(value.obj, Cell) and value.ctype == t):
            # `tiling.set_start(allMem + k)` or an array of another length: the setter copies the field's
            # length from where the pointer points (no further than the array it points into)
            for k in range(min(t.size, value.ctype.size)):  # type: ignore[union-attr]
                item = array_pointer.load(self, value, Val(C.I64, const=k), node)
                self._set_field(self.ssa(tiling, node), ref, ref.field_name(member), t.elem, item, node,
                                Val(C.I64, const=k))
            return
        if isinstance(t, C.ArrayT) and isinstance(value.ctype, C.ArrayT) and isinstance(value.obj, Cell):
            # `tiling.set_shape(arr)`: the whole C array
            unsigned = isinstance(t.elem, Scalar) and t.elem.kind == "uint"
            self.emit(hd.TilingSetOp(self.ssa(tiling, node), ref.field_name(member), value.obj.ref,
                                     is_unsigned=unsigned), node)
            return
        if not isinstance(t, Scalar):
            raise Unsupported(f"assigning field '{member}' of type {t} is not modelled", node)
        self._set_field(tiling.ssa, ref, ref.field_name(member), t, value, node)

    def _set_field(self, data: SSAValue | None, ref: TilingRef, path: str, t: CType, value: Val, node: A.Node,
                   index: Val | None = None) -> None:
        if not isinstance(t, Scalar):
            raise Unsupported(f"assigning field '{path}' of type {t} is not modelled", node)
        assert data is not None
        v = self.ssa(self.convert(value, t, node), node)
        pos = self.ssa(self.convert(index, C.I64, node), node) if index is not None else None
        self.emit(hd.TilingSetOp(data, path, v, pos, is_unsigned=t.kind == "uint"), node)

    def _tiling_fill(self, tiling: Val, items: Sequence[A.Node], node: A.Node) -> None:
        """Value-initialise the struct `tiling` points to (`S{}`, `memset(p, 0, ...)`), then set the
        listed items in field order (designated items by name)."""
        ref = tiling.obj
        assert isinstance(ref, TilingRef)
        values: dict[str, A.Node] = {}
        fields = self._fields(ref)
        for i, item in enumerate(items):
            if isinstance(item, A.DesignatedInit):
                values[item.field_name] = item.value
            elif i < len(fields):
                values[fields[i][0]] = item
        for name, t in fields:
            path = ref.field_name(name)
            if isinstance(t, Scalar):
                value = self.expr(values[name]) if name in values else Val(t, const=0)
                self._set_field(tiling.ssa, ref, path, t, value, node)
            elif isinstance(t, C.ArrayT) and isinstance(t.elem, Scalar):
                for k in range(t.size):
                    self._set_field(tiling.ssa, ref, path, t.elem, Val(t.elem, const=0), node, Val(C.I64, const=k))
            elif isinstance(t, C.TilingT) and t.name in self.scope.tiling_structs:
                self._tiling_fill(Val(tiling.ctype, tiling.ssa, obj=replace(ref, path=path)), [], node)
            # a library struct member (TCubeTiling): zeroed too, but the host lowering does not model it

    def _tiling_method(self, e: A.Call, name: str, recv: Val) -> Val:
        ref = recv.obj
        assert isinstance(ref, TilingRef)
        methods: list[str] = []
        if ref.struct not in self.scope.classes:  # a BEGIN_TILING_DATA_DEF class, not a plain struct
            methods = [f"{prefix}_{f}" for f, _ in self._fields(ref) for prefix in ("set", "get")]
            methods += ["SaveToBuffer", "GetDataSize"] if ref.local else []
        if name not in methods:
            self._no_member(name, ref.struct, methods, e)
        if name.startswith("set_") and len(e.args) == 1:
            self._tiling_set(recv, name[4:], self.expr(e.args[0]), e)
            return Val(C.VoidT())
        if name.startswith("get_") and not e.args:
            return self._handle_member(recv, name[4:], e)
        if name == "SaveToBuffer":
            for a in e.args:
                self.expr(a)
            self._save(recv, e)
            return Val(C.VoidT())
        if name == "GetDataSize":
            return Val(C.U64, const=self.tiling_size(ref.struct) or 0)
        raise Unsupported(f"{ref.struct}::{name} takes {'one argument' if name.startswith('set_') else 'none'}", e)

    def _save(self, tiling: Val, node: A.Node) -> None:
        ref = tiling.obj
        assert isinstance(ref, TilingRef)
        self.structs_used.append((ref.struct, "saved"))
        self.emit(hd.TilingSaveOp(self.ssa(tiling, node), self._context(node)), node)


# ------------------------------------------------------------------------------------------------------
# Method tables of the handles
# ------------------------------------------------------------------------------------------------------

Method = Callable[[HostLowerer, A.Call, Val, A.Member], Val]


def _tensor_ref(output: bool = False, optional: bool = False, kind: str = "storage_shape") -> Method:
    def method(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
        index, at = lw._tensor_index(e, "output" if output else "input")
        maybe_absent = optional or (not output and at is None and index in lw.optional_inputs)
        return Val(HostT(kind), obj=TensorRef(index, output, maybe_absent, at))

    return method


def _dynamic_ref(kind: str) -> Method:
    """`GetDynamicInputTensor(irIndex, i)` (Shape, Desc): tensor `i` of the op's tensor-list input `irIndex`, or
    nullptr past the list's end (a foreach op's tiling loops until then)."""

    def method(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
        if len(e.args) != 2:
            raise Unsupported(f"{callee.member} takes an input index and an instance index", e)
        ir_index = lw.ssa(lw.convert(lw.expr(e.args[0]), C.I64, e), e)
        instance = lw.ssa(lw.convert(lw.expr(e.args[1]), C.I64, e), e)
        at = lw.emit(hd.DynamicInputIndexOp(lw._context(e), ir_index, instance), e).results[0]
        return Val(HostT(kind), obj=TensorRef(0, optional=True, at=at))

    return method


def _input_count(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    return Val(C.I64, lw.emit(hd.InputCountOp(lw._context(e)), e).results[0])


def _output_count(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    """GetComputeNodeOutputNum(): the outputs the op's OpDef declares."""
    if lw.output_count is None:
        raise Unsupported(f"{callee.member} without the op's OpDef is not modelled", e)
    return Val(C.U64, const=lw.output_count)


def _shape_of(kind: hd.ShapeKind) -> Method:
    def method(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
        ref = recv.obj
        assert isinstance(ref, TensorRef)
        ctx = lw._context(e)
        op = (hd.OutputShapeOp(ctx, ref.index, kind, at=ref.at) if ref.output
              else hd.InputShapeOp(ctx, ref.index, kind, at=ref.at))
        return Val(HostT("shape"), lw.emit(op, e).results[0])

    return method


def _dtype(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    ref = recv.obj
    assert isinstance(ref, TensorRef)
    ctx = lw._context(e)
    op = hd.OutputDtypeOp(ctx, ref.index, at=ref.at) if ref.output else hd.InputDtypeOp(ctx, ref.index, at=ref.at)
    return Val(C.I32, lw.emit(op, e).results[0])


def _nd_format(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    """GetOriginFormat / GetStorageFormat of a tensor: ge::FORMAT_ND. The tensors the harness and
    ascendir.sim.run pass are plain torch tensors, ND in both formats (NZ storage is not modelled here)."""
    return Val(C.I32, const=_GE_FORMATS["FORMAT_ND"])


def _input_data_type(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    index, at = lw._tensor_index(e, "input")
    return Val(C.I32, lw.emit(hd.InputDtypeOp(lw._context(e), index, at=at), e).results[0])


def _tensor_shape_size(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    shape = _shape_of(hd.ShapeKind.STORAGE)(lw, e, recv, callee)
    return Val(C.I64, lw.emit(hd.ShapeSizeOp(lw.ssa(shape, e)), e).results[0])


def _tensor_shape(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    return Val(HostT("storage_shape"), obj=recv.obj)


def _get_dim(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    if len(e.args) != 1:
        raise Unsupported("GetDim takes one dimension index", e)
    dim = lw.ssa(lw.convert(lw.expr(e.args[0]), C.I64, e), e)
    return Val(C.I64, lw.emit(hd.ShapeDimOp(lw.ssa(recv, e), dim), e).results[0])


def _infer_input_shape(optional: bool = False) -> Method:
    """`context->GetInputShape(i)` of an InferShape context: the input's own gert::Shape (origin)."""

    def method(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
        index, at = lw._tensor_index(e, "input")
        maybe_absent = optional or (at is None and index in lw.optional_inputs)
        return Val(HostT("shape"), obj=TensorRef(index, optional=maybe_absent, at=at))  # read where it is used

    return method


def _infer_output_shape(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    index, at = lw._tensor_index(e, "output")
    op = lw.emit(hd.OutputShapeBufferOp(lw._context(e), index, at=at), e)
    return Val(HostT("shape_buffer"), op.results[0], obj=TensorRef(index, output=True, at=at))


def _read_first(method: Method) -> Method:
    """A query of a gert::Shape object: asked of the dims it holds at that point."""

    def read(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
        return method(lw, e, Val(HostT("shape"), lw._shape_value(recv, e)), callee)

    return read


def _shape_args(lw: HostLowerer, e: A.Call, types: Sequence[Scalar]) -> list[SSAValue]:
    name = e.callee.member  # type: ignore[union-attr]
    if len(e.args) != len(types):
        raise Unsupported(f"{name} takes {len(types)} argument{'s' if len(types) != 1 else ''}", e)
    return [lw.ssa(lw.convert(lw.expr(a), t, e), e) for a, t in zip(e.args, types)]


def _set_dim_num(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    (rank,) = _shape_args(lw, e, [C.U64])  # size_t
    lw.emit(hd.ShapeSetDimNumOp(lw.ssa(recv, e), rank), e)
    return Val(C.VoidT())


def _set_scalar(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    _shape_args(lw, e, [])
    lw.emit(hd.ShapeSetDimNumOp(lw.ssa(recv, e), lw.const_ssa(0, C.U64, e)), e)
    return Val(C.VoidT())


def _set_dim(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    dim, value = _shape_args(lw, e, [C.U64, C.I64])
    lw.emit(hd.ShapeSetDimOp(lw.ssa(recv, e), dim, value), e)
    return Val(C.VoidT())


def _append_dim(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    (value,) = _shape_args(lw, e, [C.I64])
    lw.emit(hd.ShapeAppendDimOp(lw.ssa(recv, e), value), e)
    return recv  # Shape& AppendDim(v): calls chain


def _get_dim_num(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    return Val(C.U64, lw.emit(hd.ShapeDimNumOp(lw.ssa(recv, e)), e).results[0])  # size_t


def _shape_size(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    return Val(C.I64, lw.emit(hd.ShapeSizeOp(lw.ssa(recv, e)), e).results[0])


def _is_scalar(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    rank = _get_dim_num(lw, e, recv, callee)
    return lw.compare("==", rank, Val(C.U64, const=0), e)


def _attr_pointer(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    index = lw._index_arg(e, "attribute")
    targs = callee.template_args or []
    t = lw._template_arg_value(targs[0]) if targs else None
    if isinstance(t, Scalar):
        kind = "float" if t.is_float else "bool" if t.kind == "bool" else "str" if t.name == "int8_t" else "int"
    elif isinstance(t, HostT) and t.kind == "int_list":
        kind, t = "list_int", C.I64
    else:
        raise Unsupported(f"GetAttrPointer<{t}> is not modelled", e)
    return Val(HostT("attr_ptr", f"const {t}*"), obj=AttrRef(index, kind, t))


def _attr_getter(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    index = lw._index_arg(e, "attribute")
    kind, t = _ATTR_GETTERS[callee.member]
    return Val(HostT("attr_ptr", f"const {t}*"), obj=AttrRef(index, kind, t))


def _list_size(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    values = lw._attr_value(recv.obj, e) if _kind(recv) == "attr_ptr" else recv  # type: ignore[arg-type]
    if _kind(values) != "int_list":
        raise Unsupported(f"GetSize on {recv.ctype}", e)
    return Val(C.U64, lw.emit(hd.ListSizeOp(lw.ssa(values, e)), e).results[0])


def _list_data(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    values = lw._attr_value(recv.obj, e) if _kind(recv) == "attr_ptr" else recv  # type: ignore[arg-type]
    if _kind(values) != "int_list":
        raise Unsupported(f"GetData on {recv.ctype}", e)
    return Val(HostT("list_data"), values.ssa)


def _core_num(kind: hd.CoreKind) -> Method:
    def method(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
        count = Val(C.I64, lw.emit(hd.CoreNumOp(lw.ssa(recv, e), kind), e).results[0])
        return lw.convert(count, C.U32, e)  # the platform getters return uint32_t

    return method


def _mem_size(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    if len(e.args) != 2:
        raise Unsupported("GetCoreMemSize takes a CoreMemType and a uint64_t to fill", e)
    space = lw.expr(e.args[0])
    if not (isinstance(space.ctype, C.EnumT) and space.const in hd.MemSpace.__members__):
        raise Unsupported("GetCoreMemSize needs a constant CoreMemType", e)
    size = lw.emit(hd.MemSizeOp(lw.ssa(recv, e), hd.MemSpace[str(space.const)]), e).results[0]
    if str(space.const) in ("UB", "L1"):
        # PlatformAscendC keeps 256 bytes of UB and of L1 back for the matmul server (kfc) on the 910B family, the
        # 910_93 included (asc-devkit platform_ascendc.cpp, LOCAL_RESERV_SIZE); the fe::PlatFormInfos getter below
        # reports the whole memory
        soc = lw.emit(hd.SocVersionOp(lw.ssa(recv, e)), e).results[0]
        is_910b = lw.emit(arith.CmpiOp(soc, lw.const_ssa(hd.SOC_VERSIONS["ASCEND910B"], C.I64, e), "eq"), e)
        reserve = lw.emit(arith.SelectOp(is_910b.results[0], lw.const_ssa(LOCAL_RESERVED_BYTES, C.I64, e),
                                         lw.const_ssa(0, C.I64, e)), e)
        size = lw.emit(arith.SubiOp(size, reserve.results[0]), e).results[0]
    lw.assign(e.args[1], Val(C.U64, size), e)  # the size comes back through the reference argument
    return Val(C.VoidT())


# what PlatformAscendC::GetCoreMemSize takes off UB and L1 on the 910B family (see _mem_size)
LOCAL_RESERVED_BYTES = 256


def _local_mem_size(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    """`platformInfo->GetLocalMemSize(fe::LocalMemType::UB, size)` on the fe::PlatFormInfos: the chip's memory."""
    if len(e.args) != 2 or not isinstance(e.args[0], A.Name):
        raise Unsupported("GetLocalMemSize takes a LocalMemType and a uint64_t to fill", e)
    space = e.args[0].qname.parts[-1].name
    if space not in hd.MemSpace.__members__:
        raise Unsupported(f"GetLocalMemSize of {space}", e)
    size = Val(C.U64, lw.emit(hd.MemSizeOp(lw.ssa(lw._platform(e), e), hd.MemSpace[space]), e).results[0])
    lw.assign(e.args[1], size, e)
    return Val(C.VoidT())


def _info_core_num(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    """`platformInfo->GetCoreNum()` on the fe::PlatFormInfos: the vector cores, as PlatformAscendC's GetCoreNum."""
    return _core_num(hd.CoreKind.AIV)(lw, e, lw._platform(e), callee)


def _lib_workspace(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    size = Val(C.I64, lw.emit(hd.LibWorkspaceSizeOp(lw.ssa(recv, e)), e).results[0])
    return lw.convert(size, C.U32, e)  # uint32_t GetLibApiWorkSpaceSize()


def _soc_version(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    version = Val(C.I64, lw.emit(hd.SocVersionOp(lw.ssa(recv, e)), e).results[0])
    return lw.convert(version, C.I32, e)  # compared with platform_ascendc::SocVersion values


def _handle(kind: str) -> Method:
    def method(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
        for a in e.args:
            lw.expr(a)
        return Val(HostT(kind))

    return method


def _workspace_sizes(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    count = lw.const_eval(e.args[0]) if e.args else None
    return Val(HostT("workspace"), obj=count if isinstance(count, int) else None)


def _tiling_data(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    targs = callee.template_args or []
    t = lw._template_arg_value(targs[0]) if targs else None
    if not isinstance(t, C.TilingT | C.ClassT):
        raise Unsupported("GetTilingData needs the tiling struct as its template argument", e)
    lw._check_struct(t.name, e)
    lw.structs_used.append((t.name, "context"))
    op = lw.emit(hd.TilingDataOp(lw._context(e), t.name), e)
    return Val(HostT("tiling", t.name), op.results[0], obj=TilingRef(t.name))


def _setter(op_cls: type, ctype: Scalar) -> Method:
    def method(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
        if len(e.args) != 1:
            raise Unsupported(f"{callee.member} takes one value", e)
        value = lw.ssa(lw.convert(lw.expr(e.args[0]), ctype, e), e)
        lw.emit(op_cls(lw._context(e), value), e)
        lw.last_set[callee.member] = (value, lw.builder.insertion_point.block)
        return Val(C.VoidT())

    return method


def _getter(setter: str, ctype: Scalar) -> Method:
    """`GetBlockDim()` / `GetTilingKey()` on the tiling context: the value the function set last, where that set
    encloses the read (not one under control flow the read is outside of)."""

    def method(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
        found = lw.last_set.get(setter)
        if found is None or not _encloses(found[1], lw.builder.insertion_point.block):
            raise Unsupported(f"TilingContext::{callee.member} before {setter}, or after one under control flow, "
                              "is not modelled", e)
        return Val(ctype, found[0])

    return method


def _encloses(outer: Block, inner: Block | None) -> bool:
    while inner is not None:
        if inner is outer:
            return True
        parent = inner.parent_op()
        inner = parent.parent_block() if parent is not None else None
    return False


def _no_effect(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    for a in e.args:
        lw.expr(a)
    return Val(C.VoidT())


def _same(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    return recv


def _deterministic(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    """`GetDeterministic()`: the session's deterministic-computation option, 0 (off) unless a user turns it on
    (torch.use_deterministic_algorithms, ACL_OP_DETERMINISTIC); the benchmarks' runs leave it off."""
    return Val(C.I32, const=0)


_METHODS: dict[str, dict[str, Method]] = {
    "context": {
        "GetInputShape": _tensor_ref(), "GetOptionalInputShape": _tensor_ref(optional=True),
        "GetOutputShape": _tensor_ref(output=True), "GetInputTensor": _tensor_ref(kind="tensor"),
        "GetOptionalInputTensor": _tensor_ref(optional=True, kind="tensor"),
        "GetInputDesc": _tensor_ref(kind="desc"), "GetOptionalInputDesc": _tensor_ref(optional=True, kind="desc"),
        "GetOutputDesc": _tensor_ref(output=True, kind="desc"), "GetInputDataType": _input_data_type,
        "GetDynamicInputTensor": _dynamic_ref("tensor"), "GetDynamicInputShape": _dynamic_ref("storage_shape"),
        "GetDynamicInputDesc": _dynamic_ref("desc"), "GetComputeNodeInputNum": _input_count,
        "GetComputeNodeOutputNum": _output_count,
        "GetAttrs": _handle("attrs"), "GetPlatformInfo": _handle("platform_info"),
        "GetRawTilingData": _handle("raw_tiling"), "GetWorkspaceSizes": _workspace_sizes,
        "GetTilingData": _tiling_data,
        "SetBlockDim": _setter(hd.SetBlockDimOp, C.U32), "SetTilingKey": _setter(hd.SetTilingKeyOp, C.U64),
        "GetBlockDim": _getter("SetBlockDim", C.U32), "GetTilingKey": _getter("SetTilingKey", C.U64),
        "SetScheduleMode": _no_effect, "SetNeedAtomic": _no_effect, "SetAicpuBlockDim": _no_effect,
        "GetNodeName": _handle("node_name"), "GetNodeType": host_compile_info.node_type,
        "GetDeterministic": _deterministic, **host_node_info.CONTEXT_METHODS,
        "GetCompileInfo": lambda lw, e, recv, callee: host_compile_info.compile_info(lw, e, callee),
    },
    "parse_context": host_compile_info.PARSE_CONTEXT_METHODS,
    "storage_shape": {
        "GetOriginShape": _shape_of(hd.ShapeKind.ORIGIN), "GetStorageShape": _shape_of(hd.ShapeKind.STORAGE),
    },
    "tensor": {
        "GetShape": _tensor_shape, "GetOriginShape": _shape_of(hd.ShapeKind.ORIGIN),
        "GetStorageShape": _shape_of(hd.ShapeKind.STORAGE), "GetShapeSize": _tensor_shape_size,
        "GetDataType": _dtype, "GetOriginFormat": _nd_format, "GetStorageFormat": _nd_format,
        "GetFormat": _nd_format, "GetData": host_tensor_data.tensor_data,
    },
    "desc": {"GetDataType": _dtype, "GetOriginFormat": _nd_format, "GetStorageFormat": _nd_format,
             "GetFormat": _nd_format},
    "shape": {"GetDim": _get_dim, "GetDimNum": _get_dim_num, "GetShapeSize": _shape_size, "IsScalar": _is_scalar},
    "infer_context": {
        "GetInputShape": _infer_input_shape(), "GetOptionalInputShape": _infer_input_shape(optional=True),
        "GetOutputShape": _infer_output_shape, "GetInputTensor": _tensor_ref(kind="tensor"),
        "GetOptionalInputTensor": _tensor_ref(optional=True, kind="tensor"),
        "GetInputDesc": _tensor_ref(kind="desc"),
        "GetOptionalInputDesc": _tensor_ref(optional=True, kind="desc"),
        "GetOutputDesc": _tensor_ref(output=True, kind="desc"),
        "GetAttrs": _handle("attrs"), "GetNodeName": _handle("node_name"), "GetNodeType": _handle("opaque"),
        "GetComputeNodeInputNum": _input_count, "GetComputeNodeOutputNum": _output_count,
    },
    "shape_buffer": {
        "GetDim": _read_first(_get_dim), "GetDimNum": _read_first(_get_dim_num),
        "GetShapeSize": _read_first(_shape_size), "IsScalar": _read_first(_is_scalar),
        "SetDimNum": _set_dim_num, "SetDim": _set_dim, "AppendDim": _append_dim, "SetScalar": _set_scalar,
    },
    "attrs": {"GetAttrPointer": _attr_pointer, **{name: _attr_getter for name in _ATTR_GETTERS}},
    "attr_ptr": {"GetSize": _list_size, "GetData": _list_data},
    "int_list": {"GetSize": _list_size, "GetData": _list_data},
    "platform": {
        "GetCoreNumAiv": _core_num(hd.CoreKind.AIV), "GetCoreNumAic": _core_num(hd.CoreKind.AIC),
        "GetCoreNumVector": _core_num(hd.CoreKind.VECTOR),
        # on the split (910B) architecture GetCoreNum() counts the vector cores
        "GetCoreNum": _core_num(hd.CoreKind.AIV),
        "GetCoreMemSize": _mem_size, "GetLibApiWorkSpaceSize": _lib_workspace, "GetSocVersion": _soc_version,
    },
    "platform_info": {"GetLocalMemSize": _local_mem_size, "GetCoreNum": _info_core_num},
    "raw_tiling": {"GetData": _handle("raw_data"), "GetCapacity": _handle("opaque"), "SetDataSize": _no_effect},
    "string": {"c_str": _same, "data": _same},
    **host_node_info.METHODS,
}  # fmt: skip

# ------------------------------------------------------------------------------------------------------
# Matmul API tiling objects (matmul_tiling::MultiCoreMatmulTiling, MatmulApiTiling)
# ------------------------------------------------------------------------------------------------------

_MATMUL_CLASSES = ("MultiCoreMatmulTiling", "MatmulApiTiling")


def _matmul_args(lw: HostLowerer, e: A.Call, name: str,
                 params: Sequence[tuple[CType, int | None]]) -> list[SSAValue]:
    """The call's arguments converted to the parameter types, defaults filled in (None: no default)."""
    if len(e.args) > len(params):
        raise Unsupported(f"{name} takes at most {len(params)} arguments", e)
    values: list[SSAValue] = []
    for i, (t, default) in enumerate(params):
        if i < len(e.args):
            v = lw.expr(e.args[i])
            if not isinstance(v.ctype, Scalar | C.EnumT) or isinstance(v.const, str):
                raise Unsupported(f"argument {i + 1} of {name} ({v.ctype}) is not modelled", e)
            v = Val(C.I32, v.ssa, const=v.const) if isinstance(v.ctype, C.EnumT) else v
        elif default is not None:
            v = Val(t, const=default)
        else:
            raise Unsupported(f"{name} takes at least {i + 1} arguments", e)
        values.append(lw.ssa(lw.convert(v, t, e), e))
    return values


def _mm_set_dim(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    (dim,) = _matmul_args(lw, e, "SetDim", [(C.I32, None)])
    lw.emit(hd.MatmulSetDimOp(lw.ssa(recv, e), dim), e)
    return Val(C.I32, const=0)


def _mm_set_type(matrix: hd.MatmulMatrix) -> Method:
    def method(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
        params: list[tuple[CType, int | None]] = [(C.I32, None), (C.I32, None), (C.I32, None)]
        if matrix in (hd.MatmulMatrix.A, hd.MatmulMatrix.B):
            params.append((C.BOOL, 0))  # isTrans
        position, fmt, dtype, *rest = _matmul_args(lw, e, callee.member, params)
        trans = rest[0] if rest else lw.ssa(Val(C.BOOL, const=0), e)
        lw.emit(hd.MatmulSetTypeOp(lw.ssa(recv, e), matrix, position, fmt, dtype, trans), e)
        return Val(C.I32, const=0)

    return method


def _mm_set_shape(kind: hd.MatmulShapeKind) -> Method:
    def method(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
        default = -1 if kind == hd.MatmulShapeKind.SINGLE_CORE else None
        params: list[tuple[CType, int | None]] = [(C.I32, default)] * 3
        if kind == hd.MatmulShapeKind.ORG and len(e.args) == 4:
            params.append((C.I32, None))  # SetOrgShape(m, n, ka, kb)
        m, n, k, *kb = _matmul_args(lw, e, callee.member, params)
        lw.emit(hd.MatmulSetShapeOp(lw.ssa(recv, e), kind, m, n, k, kb[0] if kb else None), e)
        return Val(C.I32, const=0)

    return method


def _mm_set_fix_split(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    values = _matmul_args(lw, e, "SetFixSplit", [(C.I32, -1)] * 3)
    return Val(C.I32, lw.emit(hd.MatmulSetFixSplitOp(lw.ssa(recv, e), *values), e).results[0])


def _mm_set_bias(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    (enabled,) = _matmul_args(lw, e, callee.member, [(C.BOOL, 0)])
    lw.emit(hd.MatmulSetBiasOp(lw.ssa(recv, e), enabled), e)
    return Val(C.I32, const=0)


def _mm_set_buffer_space(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    values = _matmul_args(lw, e, "SetBufferSpace", [(C.I32, -1)] * 4)
    return Val(C.I32, lw.emit(hd.MatmulSetBufferSpaceOp(lw.ssa(recv, e), *values), e).results[0])


def _mm_get_tiling(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    if len(e.args) != 1:
        raise Unsupported("GetTiling takes the TCubeTiling to fill", e)
    # `tiling.cubeTilingData`: the TCubeTiling field GetTiling fills, in the tiling struct that holds it
    arg = e.args[0]
    holder: Val | None = None
    try:
        lw.expr(arg)  # a name the compiler would reject is reported here
        if isinstance(arg, A.Member):
            holder = lw.expr(arg.obj)
    except Unsupported:
        pass
    if holder is not None and isinstance(holder.obj, TilingRef) and holder.ssa is not None:
        assert isinstance(arg, A.Member)
        op = hd.MatmulGetTilingOp(lw.ssa(recv, e), holder.ssa, holder.obj.field_name(arg.member))
    else:
        op = hd.MatmulGetTilingOp(lw.ssa(recv, e))
    return Val(C.I64, lw.emit(op, e).results[0])


def _mm_configure(returns: CType) -> Method:
    """A setter of the split search (its arguments are enum or size values, not lowered)."""

    def method(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
        lw.emit(hd.MatmulConfigureOp(lw.ssa(recv, e), callee.member), e)
        return Val(returns, const=0) if isinstance(returns, Scalar) else Val(returns)

    return method


_MATMUL_METHODS: dict[str, Method] = {
    "SetDim": _mm_set_dim,
    "SetAType": _mm_set_type(hd.MatmulMatrix.A), "SetBType": _mm_set_type(hd.MatmulMatrix.B),
    "SetCType": _mm_set_type(hd.MatmulMatrix.C), "SetBiasType": _mm_set_type(hd.MatmulMatrix.BIAS),
    "SetShape": _mm_set_shape(hd.MatmulShapeKind.SHAPE), "SetOrgShape": _mm_set_shape(hd.MatmulShapeKind.ORG),
    "SetSingleShape": _mm_set_shape(hd.MatmulShapeKind.SINGLE_CORE),
    "SetFixSplit": _mm_set_fix_split, "SetBias": _mm_set_bias, "EnableBias": _mm_set_bias,
    "SetBufferSpace": _mm_set_buffer_space, "GetTiling": _mm_get_tiling,
    # they change how GetTiling searches, not what its first checks read
    **{name: _mm_configure(C.I32) for name in (
        "SetTraverse", "SetMadType", "SetSplitRange", "SetDoubleBuffer", "SetSparse", "SetAlignSplit",
        "SetALayout", "SetBLayout", "SetCLayout", "SetBatchInfoForNormal", "SetBatchNum", "SetScaleAType",
        "SetScaleBType", "SetDequantType", "SetSingleRange")},
    **{name: _mm_configure(C.VoidT())
       for name in ("SetMatmulConfigParams", "EnableMultiCoreSplitK", "SetSplitK")},
}  # fmt: skip
_MULTI_CORE_ONLY = {"SetDim", "SetSingleShape", "SetAlignSplit", "SetSingleRange", "EnableMultiCoreSplitK",
                    "SetSplitK"}  # fmt: skip


# Real API the host lowering does not model: a warning, not an "unknown API" error.
_KNOWN_UNMODELLED_CONTEXT = {
    "GetInputInstanceInfo", "GetIrInputInstanceInfo", "GetComputeNodeInfo",
    "GetOptionalInputDataType", "GetOutputTensor", "GetInputFormat",
}  # fmt: skip
_KNOWN_UNMODELLED_INFER_CONTEXT = {
    "GetDynamicInputShape", "GetDynamicInputDesc", "GetInputInstanceInfo", "GetIrInputInstanceInfo",
    "GetComputeNodeInfo", "GetInputFormat",
    "GetOutputFormat", "GetKernelName",
}  # fmt: skip
_KNOWN_UNMODELLED_PLATFORM = {"GetCoreMemBw", "CalcTschBlockDim", "ReserveLocalMemory",
                              "GetResGroupBarrierWorkSpaceSize", "GetSocSpec"}  # fmt: skip


# ------------------------------------------------------------------------------------------------------
# Entry points
# ------------------------------------------------------------------------------------------------------


@dataclass
class HostLoweringResult:
    """The host tiling function as IR: a module holding one `func.func`, or None when there is none."""

    module: ModuleOp | None
    func_name: str | None
    struct_name: str | None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)


def lower_host_tiling(program: Program, options: object | None = None) -> HostLoweringResult:
    """Lower the program's host tiling function (the one the OpDef passes to SetTiling, else a function
    taking a `gert::TilingContext*` named like one) to a module with a single `func.func`."""
    return _lower_host_function(program, options, infer_shape=False)


def lower_host_infer_shape(program: Program, options: object | None = None) -> HostLoweringResult:
    """Lower the program's InferShape function (the one the OpDef passes to SetInferShape, else a function
    taking a `gert::InferShapeContext*` named like one) to a module with a single `func.func`."""
    return _lower_host_function(program, options, infer_shape=True)


def _lower_host_function(program: Program, options: object | None, *,
                         infer_shape: bool) -> HostLoweringResult:
    if options is None:
        from ascendir.lower import LoweringOptions  # here, not at the top: the package may import this module

        options = LoweringOptions()

    def pick(found: _Scan) -> A.FunctionDecl | None:
        return found.infer_shape if infer_shape else found.function

    units = [u.ast for u in program.units if u.unit.role in _HOST_ROLES]
    found = _scan(units)
    if pick(found) is None:
        # a single-file answer may hold its host code in a unit of another role
        others = [u.ast for u in program.units if u.unit.role not in _HOST_ROLES]
        found_other = _scan(others)
        if pick(found_other) is not None:
            units, found = units + others, _scan(units + others)
    fn = pick(found)
    what = "InferShape function" if infer_shape else "host tiling function"
    if fn is None:
        code, context = (NO_INFER_SHAPE_FUNC, "InferShapeContext") if infer_shape else (
            NO_TILING_FUNC, "TilingContext")
        note = Diagnostic(code, Severity.NOTE, f"no {what} taking a gert::{context}*", None)
        return HostLoweringResult(None, None, None, [note])
    name = fn.name.parts[-1].name
    reporter = Reporter()
    try:
        scope = collect(units)
        # structs used as tiling data: legacy definitions, registered ones, GetTilingData<S> arguments
        tiling_names = found.tiling_data_args | set(scope.registered_tiling.values())
        tiling_names |= {n for n in scope.tiling_structs if n not in scope.classes}
        if scope.default_tiling:
            tiling_names.add(scope.default_tiling)
        lowerer = HostLowerer(scope, reporter, CatalogView.get(), options, tiling_names)
        lowerer.units = units
        lowerer.optional_inputs = opdef_inputs.optional_inputs(u.unit.text for u in program.units)
        lowerer.output_count = opdef_inputs.output_count(u.unit.text for u in program.units)
        func_op = (lowerer.lower_infer_shape_func(fn) if infer_shape
                   else lowerer.lower_tiling_func(fn, found.function_template_args))
        module = ModuleOp([func_op])
        module.verify()
    except Exception as exc:  # a bug of ours must not become a traceback for the user
        if os.environ.get("ASCENDIR_DEBUG"):
            raise
        failure = "produced invalid IR" if isinstance(exc, VerifyException) else "failed"
        message = str(exc).split("\n", 1)[0]
        reporter.add(error(INTERNAL_ERROR, f"internal error: lowering {what} '{name}' {failure}: "
                           f"{type(exc).__name__}: {message}", span_of(fn),
                           Note("please report this with the input file", kind="help")))
        return HostLoweringResult(None, name, None, reporter.diagnostics)
    struct = None if infer_shape else _struct_name(lowerer.structs_used)
    return HostLoweringResult(module, name, struct, reporter.diagnostics)


def evaluate_program_tiling(program: Program, inputs: TilingInputs, *, step_budget: int = 1_000_000) -> TilingResult:
    """Lower the program's host tiling function and run it on `inputs`.

    Lowering warnings (what was not modelled) come first in the result's diagnostics; with lowering
    errors, or without a tiling function, nothing is run.
    """
    lowered = lower_host_tiling(program)
    notes = [_diagnostic_text(d) for d in lowered.diagnostics]
    if lowered.module is None or lowered.func_name is None or lowered.has_errors:
        return TilingResult(None, None, None, {}, {}, notes or ["host tiling function could not be lowered"],
                            lowered.struct_name)
    result = evaluate_tiling(lowered.module, lowered.func_name, inputs, step_budget=step_budget)
    result.diagnostics[:0] = notes
    result.complete = result.complete and not lowered.diagnostics
    result.gaps = list(lowered.diagnostics)
    if result.struct_name is None:
        result.struct_name = lowered.struct_name
    return result


def evaluate_program_infer_shape(program: Program, inputs: TilingInputs, *,
                                 step_budget: int = 200_000) -> InferShapeResult:
    """Lower the program's InferShape function and run it on `inputs` (the input shapes are the origin
    shapes it reads); `outputs` of the result are the shapes it wrote.

    Lowering warnings (what was not modelled) come first in the result's diagnostics and make it
    incomplete; with lowering errors, or without an InferShape function, nothing is run (status None).
    """
    lowered = lower_host_infer_shape(program)
    notes = [_diagnostic_text(d) for d in lowered.diagnostics]
    if lowered.module is None or lowered.func_name is None or lowered.has_errors:
        return InferShapeResult(None, [], notes or ["InferShape function could not be lowered"],
                                complete=not lowered.diagnostics)
    result = evaluate_infer_shape(lowered.module, lowered.func_name, inputs, step_budget=step_budget)
    result.diagnostics[:0] = notes
    result.complete = result.complete and not lowered.diagnostics
    return result


def find_tiling_function(units: Sequence[A.TranslationUnit]) -> A.FunctionDecl | None:
    """The function the OpDef registers with `.SetTiling(f)` / `.Tiling(f)`, else a function taking a
    `gert::TilingContext*` named TilingFunc, else one with "Tiling" in its name."""
    return _scan(units).function


def find_infer_shape_function(units: Sequence[A.TranslationUnit]) -> A.FunctionDecl | None:
    """The function the OpDef registers with `.SetInferShape(f)`, else a function taking a
    `gert::InferShapeContext*` named InferShape, else one with "InferShape" in its name (any case)."""
    return _scan(units).infer_shape


@dataclass
class _Scan:
    """What one walk over the host sources finds."""

    function: A.FunctionDecl | None
    tiling_data_args: set[str]  # S of every GetTilingData<S>()
    infer_shape: A.FunctionDecl | None = None
    # the template arguments the registration gives a function template (`SetTiling(TilingFunc<F>)`)
    function_template_args: list[A.TemplateArg] = field(default_factory=list)


def _chain_method(call: A.Call) -> str | None:
    """The method a registration call names: `x.Tiling(f)`, or `.Tiling(f)` in the chain after a macro
    (`IMPL_OP_OPTILING(Op).Tiling(f)`, whose chain calls the parser keeps with a plain name as callee)."""
    if isinstance(call.callee, A.Member):
        return call.callee.member
    if isinstance(call.callee, A.Name):
        return call.callee.qname.parts[-1].name
    return None


def _scan(units: Sequence[A.TranslationUnit]) -> _Scan:
    candidates: dict[str, A.FunctionDecl] = {}
    infer_candidates: dict[str, A.FunctionDecl] = {}
    registered: list[str] = []
    registered_targs: dict[str, list[A.TemplateArg]] = {}
    registered_infer: list[str] = []
    tiling_data_args: set[str] = set()
    for node in _walk(list(units)):
        if isinstance(node, A.FunctionDecl) and node.body is not None and _takes_context(node):
            if node.kind == "function":  # (a tiling class's constructor taking the context is no tiling function)
                candidates.setdefault(node.name.parts[-1].name, node)
        elif isinstance(node, A.FunctionDecl) and node.body is not None and \
                _takes_context(node, "InferShapeContext"):
            infer_candidates.setdefault(node.name.parts[-1].name, node)
        elif isinstance(node, A.Call) and _chain_method(node) in ("SetTiling", "Tiling") and node.args and \
                isinstance(node.args[0], A.Name):
            registered.append(node.args[0].qname.parts[-1].name)
            registered_targs.setdefault(registered[-1], list(node.args[0].qname.parts[-1].template_args or []))
        elif isinstance(node, A.Call) and isinstance(node.callee, A.Member) and node.args and \
                node.callee.member == "SetInferShape" and isinstance(node.args[0], A.Name):
            registered_infer.append(node.args[0].qname.parts[-1].name)
        elif isinstance(node, A.Member) and node.member == "GetTilingData" and node.template_args:
            value = node.template_args[0].value
            if isinstance(value, A.TypeRef) and isinstance(value.base, A.QualifiedName):
                tiling_data_args.add(value.base.parts[-1].name)
            elif isinstance(value, A.Name):
                tiling_data_args.add(value.qname.parts[-1].name)
    function = next((candidates[n] for n in registered if n in candidates), candidates.get("TilingFunc"))
    if function is None:
        function = next((fn for n, fn in candidates.items() if "tiling" in n.lower()), None)
    infer_shape = next((infer_candidates[n] for n in registered_infer if n in infer_candidates),
                       infer_candidates.get("InferShape"))
    if infer_shape is None:
        infer_shape = next((fn for n, fn in infer_candidates.items() if "infershape" in n.lower()), None)
    targs = registered_targs.get(function.name.parts[-1].name, []) if function is not None else []
    return _Scan(function, tiling_data_args, infer_shape, targs)


def _takes_context(fn: A.FunctionDecl, context: str = "TilingContext") -> bool:
    if len(fn.params) != 1 or len(fn.name.parts) > 1:
        return False  # methods defined out of class (`Tiling::Run(ctx)`) are reached through their class
    base = fn.params[0].type.base
    return isinstance(base, A.QualifiedName) and base.parts[-1].name == context


def _struct_name(used: list[tuple[str, str]]) -> str | None:
    for wanted in ("context", "saved", "local"):
        for struct, how in used:
            if how == wanted:
                return struct
    return None


def _diagnostic_text(d: Diagnostic) -> str:
    where = f"{d.span}: " if d.span is not None else ""
    return f"{where}{d.severity.value}: {d.message} [{d.code}]"


__all__ = [
    "HostLowerer",
    "HostLoweringResult",
    "HostT",
    "InferShapeResult",
    "evaluate_program_infer_shape",
    "evaluate_program_tiling",
    "find_infer_shape_function",
    "find_tiling_function",
    "lower_host_infer_shape",
    "lower_host_tiling",
]  # fmt: skip
