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

This module keeps HostLowerer's state, its entry (the function's signature, the status it returns), what it
changes in frames and statements, and the entry points (lower_host_tiling, evaluate_program_tiling, ...).
HostLowerer's other methods are grouped by purpose into mixin classes it inherits (before FunctionLowerer,
whose methods they override and reach with super()):

- host_decls.py (HostDeclarations): variables: handle cells, namespace-scope globals, declarations;
- host_names.py (HostNames): types and names: the runtime's handle types, ge / platform constants;
- host_exprs.py (HostExpressions): expressions on handles: members, indexing, `*`, `&&`, `?:`, streams, casts
  and construction;
- host_assign.py (HostAssignment): assignments through handles, comparisons and truth values of handles;
- host_calls.py (HostCalls): calls: host free functions, the tiling library's size queries, handle methods;
- host_tiling_struct.py (HostTilingStructs): the tiling struct: fields set and read, filled, saved.

Module-level parts: host_handles.py (the handle types: HostT, TensorRef, AttrRef, TilingRef, HandleCell),
host_context_methods.py (the methods of the context, shapes, attributes and platform, by handle kind),
host_matmul_methods.py (matmul API tiling objects' methods), host_scan.py (finding the tiling and InferShape
functions). Other modules import HostLowerer, HostT, TensorRef, ... from here as before.
"""

from __future__ import annotations

import copy
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from xdsl.builder import Builder, InsertPoint
from xdsl.dialects import func, scf
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
from ascendir.host_eval_chips import DEFAULT_CHIP
from ascendir.host_eval_left_out import reached_gaps, span_text
from ascendir.lower import ctypes as C
from ascendir.lower import host_branch_merge, host_check_macros, host_cstring, host_init_list, host_smart_ptr
from ascendir.lower import host_vector
from ascendir.lower.catalog_view import CatalogView
from ascendir.lower.ctypes import Scalar
from ascendir.lower.diagnostics import Reporter, span_of
from ascendir.lower.function import FunctionLowerer, Unsupported
from ascendir.lower.host_assign import HostAssignment
from ascendir.lower.host_cache import kept_lowering, kept_result
from ascendir.lower.host_calls import HostCalls
from ascendir.lower.host_decls import HostDeclarations
from ascendir.lower.host_exprs import HostExpressions
from ascendir.lower.host_handles import (
    AttrRef,
    HostError,
    HostT as HostT,
    TensorRef as TensorRef,
    handle_kind,
)
from ascendir.lower.host_names import HostNames
from ascendir.lower.host_scan import HostScan, built_units, scan_units
from ascendir.lower.host_std_array import HostStdArrays
from ascendir.lower.host_tiling_struct import HostTilingStructs, nested_tiling_names
from ascendir.lower.scope import Scope, collect
from ascendir.lower.values import Binding, Instance, Val
from frontend import ast as A
from frontend import opdef_inputs
from frontend.diagnostics import Diagnostic, Note, Severity, error
from frontend.pipeline import Program

# Defined in the modules this one was split into; other modules import them from here.
from ascendir.lower.host_scan import (
    find_infer_shape_function as find_infer_shape_function,
    find_tiling_function as find_tiling_function,
)


INTERNAL_ERROR = "ASC000"
NO_TILING_FUNC = "ASC120"
NO_INFER_SHAPE_FUNC = "ASC121"

# Roles of the program units a host tiling function may live in (or take declarations from).
_HOST_ROLES = ("host", "tiling_header", "header")


def _takes_pack(fn: A.FunctionDecl) -> bool:
    """Whether a function template's last parameter is a function parameter pack (`Args... ids`)."""
    return bool(fn.params) and (fn.params[-1].type.pack or fn.params[-1].variadic)


class HostLowerer(
    HostDeclarations, HostNames, HostExpressions, HostStdArrays, HostAssignment, HostCalls, HostTilingStructs,
    FunctionLowerer,
):
    """Lowers one host tiling or InferShape function (and the helpers it calls, inlined) to a `func.func`."""

    marks_left_out = False  # its gaps are host.left_out marks (lower_stmt below), not the kernel's ascendc.left_out
    checks_static_asserts = False  # (StatementLowering: the host compiler's, not a tiling function's values)

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
        # the spans the host.left_out marks made so far cover (lower_stmt)
        self._marked: list[tuple[str, int, int, int, int]] = []
        # the OpDef's optional inputs: the plain getters (GetInputShape(i), ...) of one may return null too
        self.optional_inputs: frozenset[int] = frozenset()
        self.output_count: int | None = None  # the outputs the OpDef declares
        self.attr_count: int | None = None  # the attributes the OpDef declares
        self.attr_kinds: list[str | None] | None = None  # the type each declares (`.Float(1.0)`: "Float")
        self._temps = 0
        self._active: list[tuple[int, int]] = []  # (id, argument count) of the functions being inlined, innermost last
        self._out_args_cache: dict[int, set[str]] = {}
        # gert::Shape / ge::Shape objects of their own: a by-value shape variable is a `host.shape_local`
        # that the function may write (an InferShape output; in a tiling function, the `ge::Shape
        # srcShape({rows, cols})` handed to a library API's tiling, or a `gert::Shape s; s.AppendDim(n)`).
        self.shape_objects = True
        # the host units (a registration's `.TilingParse<T>(f)`), and the compile-info object once made
        self.units: list[A.TranslationUnit] = []
        self.compile_info: Val | None = None
        # the branches of the `if`s being lowered, innermost last, with the handle variables each rebinds
        self.merge_branches: list[host_branch_merge.Branch] = []

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
        if v.ssa is None and handle_kind(v) == "shape" and isinstance(v.obj, TensorRef):
            # an InferShape input shape, read where it is used: an absent optional input is read only
            # when the function gets past its null check
            op = hd.InputShapeOp(self._context(node or self._last_node), v.obj.index, at=v.obj.at)
            return self.emit(op, node).results[0]
        return super().ssa(v, node)

    def inline_function(self, fn: A.FunctionDecl, args: Sequence[Val], this: Instance | None, node: A.Node,
                        types: dict[str, object] | None = None, captured: dict[str, Binding] | None = None) -> Val:
        # host C++ may recurse, but inlining cannot model it: say so instead of hitting the depth limit. A
        # variadic template calling itself on fewer arguments is another instantiation, and the pack's shrinking
        # ends it (ops-nn tiling_key.h's RecursiveSum(T id, Args... ids) = id + 10 * RecursiveSum(ids...))
        active = [count for f, count in self._active if f == id(fn)]
        if active and not (_takes_pack(fn) and len(args) < min(active)):
            raise Unsupported(f"recursive call of '{fn.name.parts[-1].name}' is not modelled", node)
        self._active.append((id(fn), len(args)))
        # a braced list for a std::initializer_list parameter: its elements, read here in the caller's scope
        args = [host_init_list.bound(self, a, fn.params[i], node) if i < len(fn.params) else a
                for i, a in enumerate(args)]
        # a std::vector passed by value is the callee's own copy
        args = [host_vector.copy(self, a, node) if host_vector.is_vector(a) and i < len(fn.params)
                and "&" not in fn.params[i].type.pointers else a for i, a in enumerate(args)]
        try:
            return super().inline_function(fn, args, this, node, types, captured)
        finally:
            self._active.pop()

    def _bind_params(self, fn: A.FunctionDecl, args: Sequence[Val], node: A.Node) -> None:
        super()._bind_params(fn, args, node)
        host_cstring.rebind_params(self, fn, node)  # `const char* lhs` stepped with `++lhs`: a cell

    def expr_New(self, e: A.New) -> Val:
        if not e.type.array_dims and not e.type.pointers:
            return host_smart_ptr.new_object(self, e)  # `new XTiling(context)`
        return host_vector.new_array(self, e)

    def expr_Delete(self, e: A.Delete) -> Val:
        self.expr(e.operand)  # `delete[] p` of a `new T[n]` array: nothing to model
        return Val(C.VoidT())

    def host_param_mismatch(self, param: A.Param, arg: Val) -> bool:
        """An overload's parameter that cannot take `arg` for host reasons
        (calls_overloads._record_type_mismatch)."""
        return host_vector.param_mismatch(param, arg)

    def _lower_stmt(self, st: A.Node) -> None:
        if isinstance(st, A.Try):
            host_smart_ptr.lower_try(self, st)
            return
        if isinstance(st, A.RangeFor) and (host_init_list.lower_range_for(self, st)
                                           or host_vector.lower_range_for(self, st)):
            return
        if isinstance(st, A.For) and host_init_list.lower_iterator_for(self, st):
            return
        super()._lower_stmt(st)

    def lower_if_branches(self, st: A.If, if_op: scf.IfOp, cond: Val, branches: Sequence[Callable[[], None]]) -> None:
        host_branch_merge.lower_branches(self, st, if_op, cond, branches)

    def lower_stmt(self, st: A.Node) -> None:
        mark, marked = len(self.report.diagnostics), len(self._marked)
        try:
            super().lower_stmt(st)
        except HostError:
            pass  # reported as an error where it was found; the statement is left out
        # (not those a statement lowered meanwhile marked: an error in the body of a function this statement
        # calls is marked at its own statement there, which runs only if the call's path reaches it; marking the
        # call too would make a run that takes the call fail for an error on a branch it never takes)
        errors = [d.span for d in self.report.diagnostics[mark:] if d.is_error and d.span is not None
                  and not any(_inside(d.span, m) for m in self._marked[marked:])]
        if st.span is not None and self.builder is not None and not isinstance(st, _COMPOUND) and errors:
            # a statement with an error (an undeclared name, an unknown type) is marked where it is, its errors
            # inside the mark: a run that reaches it fails, one that never does (another chip's branch) runs
            # (_evaluate_program_tiling)
            covered = _covering(st.span, errors)
            self.emit(hd.LeftOutOp("{}:{}:{}:{}:{}".format(*covered)), st)
            self._marked.append(covered)
            # an error in another file that lowering this statement met (a member of unknown type in the header
            # declaring the struct the statement instantiates: repeat_interleave_grad's ReduceTilingKey of the
            # atvoss library, on its arch35 path only) is marked here too, where the statement is: it is reached
            # when the statement is
            for span in errors:
                if span.file != st.span.file:
                    self.emit(hd.LeftOutOp(span_text(span)), st)
                    self._marked.append((span.file, span.line, span.col, span.end_line, span.end_col))

    def condition(self, e: A.Node) -> Val:
        # The base lowers `if (c) { ...; return; } rest` outside lower_stmt, so a condition it cannot
        # model would take `rest` down with it. Report it and take the condition as false instead: the
        # `if` is left out, as any statement the lowering cannot model.
        mark = len(self.report.diagnostics)
        try:
            return super().condition(e)
        except (Unsupported, HostError) as exc:
            if isinstance(exc, Unsupported):
                self.report.failed(exc)
                if e.span is not None:  # (where: a gap the run never reaches is not one it depends on)
                    self.emit(hd.LeftOutOp(span_text(e.span)), e)
            elif e.span is not None and self.builder is not None:
                # an error in the condition (a member the model does not know, ASC100; reported where found) is
                # marked here as a statement's is in lower_stmt: a run that reaches the condition fails, one that
                # never does runs (transpose_batch_mat_mul's registry path, not taken by its einsum cases)
                errors = [d.span for d in self.report.diagnostics[mark:] if d.is_error and d.span is not None]
                covered = _covering(e.span, errors)
                self.emit(hd.LeftOutOp("{}:{}:{}:{}:{}".format(*covered)), e)
                self._marked.append(covered)
            return Val(C.BOOL, const=0)

    def _context(self, node: A.Node) -> SSAValue:
        if self.ctx is None:
            raise Unsupported("no tiling context", node)
        return self.ctx

    def _platform(self, node: A.Node) -> Val:
        return Val(HostT("platform"), self.emit(hd.PlatformOp(self._context(node)), node).results[0])

    def _attr_value(self, ref: AttrRef, node: A.Node) -> Val:
        """`*attrs->GetAttrPointer<T>(i)`: the attribute's value, as T."""
        stored = self._stored_kind(ref)
        if stored is not None:
            # (smooth_l1_loss_v2 reads its Float sigma with GetInt too, to tell it from an int reduction)
            self.report.unsupported(f"attribute {ref.index} is declared {stored} in the OpDef and read as {ref.kind}: "
                                    "the runtime reinterprets its bytes, and those past the attribute's own are "
                                    "taken as zero", node)
        result = self.emit(hd.AttrOp(self._context(node), ref.index, ref.kind, at=ref.at, stored=stored),
                           node).results[0]
        if ref.kind == "str":
            return Val(HostT("string"), result)
        if ref.kind == "list_int":
            return Val(HostT("int_list"), result)
        read = {"int": C.I64, "float": C.F32, "bool": C.BOOL}[ref.kind]
        value = Val(read, result)
        return self.convert(value, ref.ctype, node) if isinstance(ref.ctype, Scalar) else value


    def _stored_kind(self, ref: AttrRef) -> str | None:
        """The host.attr kind the OpDef declares attribute `ref` as, where the getter reads another scalar kind
        (GetAttrPointer<T> is a reinterpret_cast of the attribute's storage); None otherwise."""
        kinds = self.attr_kinds
        if ref.at is not None or kinds is None or not 0 <= ref.index < len(kinds) or \
                ref.kind not in _DECLARED_KINDS.values():
            return None
        stored = _DECLARED_KINDS.get(kinds[ref.index] or "")
        return stored if stored is not None and stored != ref.kind else None


# the OpDef's scalar attribute types, as host.attr kinds (a getter of another of them reinterprets the storage)
_DECLARED_KINDS = {"Int": "int", "Float": "float", "Bool": "bool", "String": "str"}


def _inside(span: Any, mark: tuple[str, int, int, int, int]) -> bool:
    f, l0, c0, l1, c1 = mark
    return span.file == f and (l0, c0) <= (span.line, span.col) and (span.end_line, span.end_col) <= (l1, c1)


def _covering(span: Any, inner: list[Any]) -> tuple[str, int, int, int, int]:
    """(file, line, col, end line, end col) of host.left_out's `at` for a statement's span widened to hold the
    spans of its errors in its file (a declaration's span may end before its initialiser)."""
    spans = [span] + [s for s in inner if s.file == span.file]
    start = min((s.line, s.col) for s in spans)
    end = max((s.end_line, s.end_col) for s in spans)
    return span.file, start[0], start[1], end[0], end[1]


_DEFAULT_TILING = re.compile(r"\bREGISTER_TILING_DEFAULT\s*\(\s*(\w+)\s*\)")

# statements whose inner statements are lowered (and marked) one by one
_COMPOUND = (A.If, A.For, A.RangeFor, A.While, A.DoWhile, A.Compound, A.Switch)


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

    def pick(found: HostScan) -> A.FunctionDecl | None:
        return found.infer_shape if infer_shape else found.function

    # (the ops repositories' checking macros, where their headers were out of reach, as the `if` they expand to)
    units = host_check_macros.desugared([u.ast for u in program.units if u.unit.role in _HOST_ROLES])
    chip = getattr(options, "chip", None)  # (an op's tiling registered per architecture folder: this chip's)
    units = built_units(units, chip)
    found = scan_units(units, chip)
    if pick(found) is None:
        # a single-file answer may hold its host code in a unit of another role
        others = host_check_macros.desugared([u.ast for u in program.units if u.unit.role not in _HOST_ROLES])
        found_other = scan_units(others, chip)
        if pick(found_other) is not None:
            units, found = units + others, scan_units(units + others, chip)
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
        # the struct the kernel reads its tiling bytes as (`REGISTER_TILING_DEFAULT(MatmulTilingData);` in the
        # kernel function, ops-nn mat_mul_v3): the host's objects of it are tiling data, filled field by field
        # (a library struct member, TCubeTiling, included) and copied whole into the context's buffer
        tiling_names |= {name for u in program.units if u.unit.role not in _HOST_ROLES
                         for name in _DEFAULT_TILING.findall(u.unit.text) if name in scope.classes}
        tiling_names |= nested_tiling_names(scope, tiling_names)
        lowerer = HostLowerer(scope, reporter, CatalogView.get(), options, tiling_names)
        lowerer.units = units
        lowerer.optional_inputs = opdef_inputs.optional_inputs(u.unit.text for u in program.units)
        lowerer.output_count = opdef_inputs.output_count(u.unit.text for u in program.units)
        lowerer.attr_count = opdef_inputs.attr_count(u.unit.text for u in program.units)
        lowerer.attr_kinds = opdef_inputs.attr_kinds(u.unit.text for u in program.units)
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
    errors, or without a tiling function, nothing is run. Equal inputs give a copy of the result kept for
    them (an answer's input draws of one case: ascendir/lower/host_cache.py).
    """
    return kept_result(program, f"tiling/{step_budget}", inputs,
                       lambda: _evaluate_program_tiling(program, inputs, step_budget), _copied_result)


def _copied_result(result: TilingResult) -> TilingResult:
    """A kept result as a fresh run's: its own containers (callers add to them), the same ops."""
    return replace(result, workspace=dict(result.workspace), fields=copy.deepcopy(result.fields),
                   diagnostics=list(result.diagnostics), gaps=list(result.gaps))


def _evaluate_program_tiling(program: Program, inputs: TilingInputs, step_budget: int) -> TilingResult:
    # lowered for the chip of the run (an op may register one tiling per architecture folder), once per chip
    # (each launch of an answer runs it)
    chip = str(inputs.chip if isinstance(inputs.chip, str) else inputs.chip.get("name", DEFAULT_CHIP))
    lowered = kept_lowering(program, f"tiling/{chip}", lambda p: lower_host_tiling(p, _chip_options(chip)))
    notes = [_diagnostic_text(d) for d in lowered.diagnostics]
    # a lowering error inside a statement the lowering left out (host.left_out) stops the run only if the run
    # reaches it: a 910B run never enters an arch35 branch whose library classes are out of reach (is_inf)
    errors = [d for d in lowered.diagnostics if d.is_error]
    if lowered.module is None or lowered.func_name is None or \
            (errors and reached_gaps(errors, lowered.module, set())):
        return TilingResult(None, None, None, {}, {}, notes or ["host tiling function could not be lowered"],
                            lowered.struct_name)
    result = evaluate_tiling(lowered.module, lowered.func_name, inputs, step_budget=step_budget)
    if errors and reached_gaps(errors, lowered.module, result.left_out_reached):
        return TilingResult(None, None, None, {}, {}, notes, lowered.struct_name)
    result.diagnostics[:0] = notes
    # the gaps this run may depend on: not those in statements it never reached (host_eval_left_out)
    result.gaps = reached_gaps(list(lowered.diagnostics), lowered.module, result.left_out_reached)
    result.complete = result.complete and not result.gaps
    if result.struct_name is None:
        result.struct_name = lowered.struct_name
    return result


def _chip_options(chip: str) -> object:
    from ascendir.lower import LoweringOptions  # here, not at the top: the package may import this module

    return LoweringOptions(chip=chip)


def evaluate_program_infer_shape(program: Program, inputs: TilingInputs, *,
                                 step_budget: int = 200_000) -> InferShapeResult:
    """Lower the program's InferShape function and run it on `inputs` (the input shapes are the origin
    shapes it reads); `outputs` of the result are the shapes it wrote.

    Lowering warnings (what was not modelled) come first in the result's diagnostics and make it
    incomplete; with lowering errors, or without an InferShape function, nothing is run (status None).
    """
    lowered = kept_lowering(program, "infer_shape", lower_host_infer_shape)
    notes = [_diagnostic_text(d) for d in lowered.diagnostics]
    if lowered.module is None or lowered.func_name is None or lowered.has_errors:
        return InferShapeResult(None, [], notes or ["InferShape function could not be lowered"],
                                complete=not lowered.diagnostics)
    result = evaluate_infer_shape(lowered.module, lowered.func_name, inputs, step_budget=step_budget)
    result.diagnostics[:0] = notes
    result.complete = result.complete and not lowered.diagnostics
    return result


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
