"""Host code (ASC9xx): the gert / platform_ascendc API as the host TilingFunc and InferShape use it.

These are the most frequent compile errors of host code in real logs: `GetInputShape` returns a
`const gert::StorageShape*` in a TilingContext but a `const gert::Shape*` in an InferShapeContext, the
two classes have different members, and indices must name declared inputs. The checks follow the static
types of the host expressions through local variables and helper parameters; what they cannot type they
leave alone.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from frontend import ast as A
from frontend.diagnostics import Note, Severity
from passes.verify.project import (
    calls,
    class_members,
    const_int,
    functions,
    includes,
    name_of,
    nodes,
    op_info,
    report_once,
    span,
)
from passes.verify.rules import CheckContext, rule

_HOST_ROLES = ("host", "header", "tiling_header")

# Context classes by the parameter type that names them.
_CONTEXTS = {"TilingContext": "tiling", "InferShapeContext": "infer", "TilingParseContext": "parse"}


@dataclass(frozen=True)
class HType:
    """A gert value's class and whether the expression is a pointer to it."""

    cls: str  # 'tiling', 'infer', 'storage_shape', 'shape', 'tensor', 'attrs'
    ptr: bool

    def cpp(self) -> str:
        name = {"tiling": "gert::TilingContext", "infer": "gert::InferShapeContext", "parse": "gert::TilingParseContext",
                "storage_shape": "gert::StorageShape", "shape": "gert::Shape", "tensor": "gert::Tensor",
                "attrs": "gert::RuntimeAttrs"}[self.cls]
        return f"const {name}*" if self.ptr else f"const {name}&"


# What the context methods return.
_CONTEXT_RESULTS: dict[str, dict[str, HType]] = {
    "tiling": {
        "GetInputShape": HType("storage_shape", True), "GetOptionalInputShape": HType("storage_shape", True),
        "GetOutputShape": HType("storage_shape", True), "GetDynamicInputShape": HType("storage_shape", True),
        "GetInputTensor": HType("tensor", True), "GetOptionalInputTensor": HType("tensor", True),
        "GetAttrs": HType("attrs", True),
    },
    "infer": {
        "GetInputShape": HType("shape", True), "GetOptionalInputShape": HType("shape", True),
        "GetOutputShape": HType("shape", True), "GetDynamicInputShape": HType("shape", True),
        "GetInputTensor": HType("tensor", True), "GetOptionalInputTensor": HType("tensor", True),
        "GetAttrs": HType("attrs", True),
    },
}  # fmt: skip

_STORAGE_RESULTS = {"GetOriginShape": HType("shape", False), "GetStorageShape": HType("shape", False),
                    "MutableOriginShape": HType("shape", False), "MutableStorageShape": HType("shape", False)}
_TENSOR_RESULTS = {"GetOriginShape": HType("shape", False), "GetStorageShape": HType("shape", False),
                   "GetShape": HType("storage_shape", False)}
# Members that exist on one of the two shape classes only (what real logs show mixed up).
_SHAPE_ONLY = {"GetDim", "GetDimNum", "GetShapeSize", "SetDim", "SetDimNum", "AppendDim", "IsScalar", "SetScalar"}
_STORAGE_ONLY = set(_STORAGE_RESULTS)
# ge::Shape members that gert::Shape lacks.
_NOT_ON_GERT_SHAPE = {"GetDims": "GetDim(i) for i < GetDimNum()"}


class _Typer:
    """Static types of host expressions inside one function."""

    def __init__(self, fn: A.FunctionDecl) -> None:
        self.vars: dict[str, HType | None] = {}
        for p in fn.params:
            t = _declared(p.type)
            if p.name:
                self.vars[p.name] = t

    def declare(self, name: str, t: HType | None) -> None:
        if name in self.vars and self.vars[name] != t:
            self.vars[name] = None  # declared twice with different types: do not guess
        else:
            self.vars[name] = t

    def type_of(self, e: A.Node | None) -> HType | None:
        if isinstance(e, A.Name):
            return self.vars.get(e.qname.parts[-1].name) if len(e.qname.parts) == 1 else None
        if isinstance(e, A.Unary) and e.op == "&":
            inner = self.type_of(e.operand)
            return HType(inner.cls, True) if inner is not None and not inner.ptr else None
        if isinstance(e, A.Unary) and e.op == "*":
            inner = self.type_of(e.operand)
            return HType(inner.cls, False) if inner is not None and inner.ptr else None
        if isinstance(e, A.Call) and isinstance(e.callee, A.Member):
            recv = self.type_of(e.callee.obj)
            if recv is None:
                return None
            member = e.callee.member
            if recv.cls in _CONTEXT_RESULTS:
                return _CONTEXT_RESULTS[recv.cls].get(member)
            if recv.cls == "storage_shape":
                return _STORAGE_RESULTS.get(member)
            if recv.cls == "tensor":
                return _TENSOR_RESULTS.get(member)
        return None


def _declared(t: A.TypeRef | None) -> HType | None:
    """The gert class a written type names (None for `auto` and anything else)."""
    if t is None or not isinstance(t.base, A.QualifiedName):
        return None
    parts = [p.name for p in t.base.parts]
    base = parts[-1]
    if len(parts) > 1 and parts[0] not in ("gert",):
        return None
    cls = {"Shape": "shape", "StorageShape": "storage_shape", "Tensor": "tensor", "RuntimeAttrs": "attrs",
           **_CONTEXTS}.get(base)
    if cls is None:
        return None
    if len(parts) == 1 and cls in ("shape", "tensor"):
        return None  # an unqualified Shape may be ge::Shape under a using-directive
    if any(p == "*" for p in t.pointers[:-1]) or t.array_dims:
        return None
    return HType(cls, bool(t.pointers) and t.pointers[-1] == "*")


def _host_functions(ctx: CheckContext) -> list[A.FunctionDecl]:
    return functions(ctx, *_HOST_ROLES)


def _walk_typed(fn: A.FunctionDecl):  # type: ignore[no-untyped-def]
    """(node, typer) for every node of the body, with declarations seen before their uses."""
    typer = _Typer(fn)
    assert fn.body is not None
    for node in fn.body.walk():
        if isinstance(node, A.VarDecl):
            for d in node.declarators:
                written = _declared(d.type)
                init = d.init if d.init is not None else (d.ctor_args[0] if len(d.ctor_args) == 1 else None)
                if written is None and _is_auto(d.type):
                    inferred = typer.type_of(init)
                    if inferred is not None:
                        ptr = inferred.ptr or bool(d.type.pointers and d.type.pointers[-1] == "*")
                        written = HType(inferred.cls, ptr if d.type.pointers != ["&"] else inferred.ptr)
                typer.declare(d.name, written)
        yield node, typer


def _is_auto(t: A.TypeRef) -> bool:
    return t.name == "auto"


@rule(
    "ASC901", "host-shape-type-mismatch", "host",
    summary="A gert::StorageShape pointer is taken as a gert::Shape (or the reverse) in host code.",
    why="In a TilingContext `GetInputShape(i)` / `GetOutputShape(i)` return `const gert::StorageShape*`; in "
        "an InferShapeContext they return `const gert::Shape*`. Mixing them up does not compile (\"cannot "
        "convert 'const gert::StorageShape*' to 'const gert::Shape*'\"): in tiling, take "
        "`->GetOriginShape()` / `->GetStorageShape()` to reach the gert::Shape.",
    example="const gert::Shape* xShape = context->GetInputShape(0);      // in TilingFunc",
    instead="const gert::StorageShape* xShape = context->GetInputShape(0);\n"
            "const gert::Shape& shape = xShape->GetStorageShape();",
)
def host_shape_type(ctx: CheckContext) -> None:
    functions = _host_functions(ctx)
    params: dict[str, list[HType | None]] = {}
    for fn in functions:
        params.setdefault(fn.name.parts[-1].name, [_declared(p.type) for p in fn.params])
    for fn in functions:
        for node, typer in _walk_typed(fn):
            if isinstance(node, A.VarDecl):
                for d in node.declarators:
                    want = _declared(d.type)
                    init = d.init if d.init is not None else None
                    got = typer.type_of(init)
                    if want is None or got is None or init is None:
                        continue
                    if {want.cls, got.cls} == {"shape", "storage_shape"} and want.ptr == got.ptr:
                        report_once(ctx, span(init), f"{_what(init)} is a '{got.cpp()}', not a '{want.cpp()}'",
                                   *_hint(got))
            elif isinstance(node, A.Call) and isinstance(node.callee, A.Name):
                wanted = params.get(node.callee.qname.parts[-1].name)
                if wanted is None or len(wanted) != len(node.args):
                    continue
                for arg, want in zip(node.args, wanted):
                    got = typer.type_of(arg)
                    if want is not None and got is not None and {want.cls, got.cls} == {"shape", "storage_shape"} \
                            and want.ptr == got.ptr:
                        report_once(ctx, span(arg), f"{_what(arg)} is a '{got.cpp()}', but "
                                   f"'{node.callee.qname.parts[-1].name}' takes a '{want.cpp()}'", *_hint(got))


def _what(e: A.Node) -> str:
    if isinstance(e, A.Call) and isinstance(e.callee, A.Member):
        return f"{e.callee.member}()"
    return f"'{name_of(e)}'" if name_of(e) else "this value"


def _hint(got: HType) -> tuple[Note, ...]:
    if got.cls == "storage_shape":
        return (Note("take ->GetOriginShape() or ->GetStorageShape() to get the gert::Shape", kind="help"),)
    return ()


@rule(
    "ASC902", "host-no-such-member", "host",
    summary="A gert::Shape / gert::StorageShape / context member that does not exist, or `.` on a pointer.",
    why="gert::StorageShape holds two shapes (GetOriginShape, GetStorageShape) and has no GetDim; gert::Shape "
        "has GetDim/GetDimNum/GetShapeSize and no GetOriginShape; the TilingContext has GetAttrs(), not "
        "GetAttr(). Each is a host compile error (\"has no member named ...\"), as is `.` on a pointer.",
    example="int64_t n = context->GetInputShape(0)->GetDim(0);",
    instead="int64_t n = context->GetInputShape(0)->GetOriginShape().GetDim(0);",
)
def host_no_such_member(ctx: CheckContext) -> None:
    for fn in _host_functions(ctx):
        for node, typer in _walk_typed(fn):
            if not (isinstance(node, A.Call) and isinstance(node.callee, A.Member)):
                continue
            member = node.callee.member
            recv = typer.type_of(node.callee.obj)
            if recv is None:
                continue
            where = span(node.callee)
            if recv.cls == "storage_shape" and member in _SHAPE_ONLY:
                report_once(ctx, where, f"gert::StorageShape has no member '{member}'; call it on "
                           "GetOriginShape() or GetStorageShape()")
                continue
            if recv.cls == "shape" and member in _STORAGE_ONLY:
                report_once(ctx, where, f"gert::Shape has no member '{member}'; this value is already the shape")
                continue
            if recv.cls == "shape" and member in _NOT_ON_GERT_SHAPE:
                report_once(ctx, where, f"gert::Shape has no member '{member}'; use {_NOT_ON_GERT_SHAPE[member]}")
                continue
            if recv.cls in ("tiling", "infer") and member == "GetAttr":
                report_once(ctx, where, "GetAttr is not a member of the context; use GetAttrs()->GetAttrPointer<T>(i)")
                continue
            if recv.ptr and not node.callee.arrow:
                report_once(ctx, where, f"'{member}' is called with '.' on a '{recv.cpp()}'; use '->'")
            elif not recv.ptr and node.callee.arrow:
                report_once(ctx, where, f"'{member}' is called with '->' on a '{recv.cpp()}' (not a pointer); use '.'")


_INPUT_INDEXED = ("GetInputShape", "GetOptionalInputShape", "GetInputTensor", "GetOptionalInputTensor",
                  "GetInputDesc", "GetOptionalInputDesc", "GetInputDataType")
_OUTPUT_INDEXED = ("GetOutputShape", "GetOutputDesc", "GetOutputDataType", "SetOutputDataType")
_ATTR_INDEXED = ("GetAttrPointer", "GetInt", "GetFloat", "GetBool", "GetStr", "GetListInt")


@rule(
    "ASC903", "host-index-out-of-range", "host",
    summary="A constant input, output or attribute index in host code beyond what the operator declares.",
    why="Indices count the op's declared inputs, outputs and attributes from 0. Past the end the context "
        "returns nullptr: the tiling function dereferences it and the host process crashes, or returns "
        "GRAPH_FAILED (\"do tiling failed\").",
    example='"input_desc": [x, y]\nauto* s = context->GetInputShape(2);',
    instead="auto* s = context->GetInputShape(1);",
)
def host_index_out_of_range(ctx: CheckContext) -> None:
    op = op_info(ctx)
    if op is None or not op.complete or ctx.program is None or not ctx.program.bundle.op_json:
        return
    limits = [(_INPUT_INDEXED, len(op.inputs), "input"), (_OUTPUT_INDEXED, len(op.outputs), "output"),
              (_ATTR_INDEXED, len(op.attrs), "attribute")]
    for call in calls(nodes(ctx, "host")):
        if not isinstance(call.callee, A.Member) or not call.args:
            continue
        for names, count, what in limits:
            if call.callee.member not in names:
                continue
            if what == "attribute" and "attr" not in ctx.program.bundle.op_json[0] and not op.attrs:
                continue  # no attribute list anywhere: the count is unknown
            index = const_int(call.args[0])
            if index is not None and index >= count and (count > 0 or what != "input"):
                declared = {"input": op.inputs, "output": op.outputs, "attribute": op.attrs}[what]
                listing = ", ".join(f"{i}: {n}" for i, n in enumerate(declared)) or "none"
                report_once(ctx, span(call), f"{call.callee.member}({index}) but '{op.name}' has {count} "
                           f"{what}{'s' if count != 1 else ''} ({listing})")


@rule(
    "ASC904", "host-missing-include", "host",
    summary="Host code uses platform_ascendc:: or AscendC:: without the header that declares it.",
    why="The platform_ascendc namespace (PlatformAscendC, CoreMemType) is declared only by "
        "tiling/platform/platform_ascendc.h (or tiling/tiling_api.h, which includes it), and the host-side "
        "AscendC tiling helpers (GetSoftMaxMinTmpSize, GetReduceProdMaxMinTmpSize, ...) by tiling/tiling_api.h; "
        "without them the host build fails with \"'platform_ascendc' has not been declared\".",
    example='#include "register/op_def_registry.h"\n'
            "auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());",
    instead='#include "register/op_def_registry.h"\n#include "tiling/platform/platform_ascendc.h"',
)
def host_missing_include(ctx: CheckContext) -> None:
    included = [target for target, _ in includes(ctx, *_HOST_ROLES)]
    if not any(t.startswith(("register/", "tiling/")) or "op_def_registry" in t for t in included):
        return  # not an op project's host file (a test harness, a snippet): includes unknown
    own: set[str] = set()
    if ctx.program is not None:  # the project's own sources, as files or as an answer's embedded ones
        own = {os.path.basename(str(u.unit.file)) for u in ctx.program.units}
        own |= {os.path.basename(name) for name in ctx.program.bundle.virtual_files}
    if any(not _known_not_to_declare(t, own) for t in included):
        return  # a header whose contents are unknown (ops-nn's op_common/... utilities) may bring them in
    has_api = any(t.endswith("tiling_api.h") for t in included)
    wanted = {"platform_ascendc": has_api or any(t.endswith("platform_ascendc.h") for t in included),
              "AscendC": has_api}
    headers = {"platform_ascendc": "tiling/platform/platform_ascendc.h", "AscendC": "tiling/tiling_api.h"}
    for node in nodes(ctx, "host", "tiling_header"):
        if not (isinstance(node, A.QualifiedName) and len(node.parts) > 1):
            continue
        ns = node.parts[0].name
        if ns in wanted and not wanted[ns]:
            wanted[ns] = True  # once per namespace
            report_once(ctx, span(node), f"'{ns}' is not declared in host code: include \"{headers[ns]}\"")


def _known_not_to_declare(target: str, own: set[str]) -> bool:
    """Whether an include is one whose contents are known here: the standard library, the CANN register/ and
    tiling/ headers (judged by name), or a source of the project itself (checked along with it)."""
    if target.startswith(("register/", "tiling/", "graph/", "exe_graph/")):
        return True
    if "/" not in target and "." not in target:
        return True  # <cmath>, <vector>, ...
    if target in ("stdint.h", "stddef.h", "string.h", "math.h", "stdio.h", "stdlib.h", "assert.h"):
        return True
    return os.path.basename(target) in own


_WORKSPACE_USERS = {"GetUserWorkspace": "GetUserWorkspace", "SetSysWorkspace": "SetSysWorkspace",
                    "REGIST_MATMUL_OBJ": "a Matmul object", "GetSysWorkSpacePtr": "GetSysWorkSpacePtr"}


@rule(
    "ASC905", "workspace-not-set", "host",
    summary="The kernel uses a workspace (GetUserWorkspace, Matmul, SetSysWorkspace) but the host sets none.",
    why="The workspace GM buffer is as large as the host requests with GetWorkspaceSizes(1)[0]; the "
        "high-level Matmul API also needs the library's system workspace (GetLibApiWorkSpaceSize). With "
        "none requested the kernel gets a null or zero-sized workspace: AI Core exception or a hang.",
    example="REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td.cubeTiling);   // host never calls "
            "GetWorkspaceSizes",
    instead="size_t* ws = context->GetWorkspaceSizes(1);\nws[0] = ascendcPlatform.GetLibApiWorkSpaceSize();",
)
def workspace_not_set(ctx: CheckContext) -> None:
    tiling_funcs = [fn for fn in functions(ctx, "host") if any(name_of(p.type) == "TilingContext" for p in fn.params)]
    if not tiling_funcs:
        return
    for node in nodes(ctx, "host"):
        if isinstance(node, A.Member) and node.member in ("GetWorkspaceSizes", "SetWorkspaceSize"):
            return
        if isinstance(node, A.Name) and node.qname.parts[-1].name in ("GetWorkspaceSizes",):
            return
    for call in calls(nodes(ctx, "kernel"), *_WORKSPACE_USERS):
        report_once(ctx, span(call), f"the kernel uses {_WORKSPACE_USERS[call.callee_name or '']} but the host "  # type: ignore[index]
                   "never sets a workspace size",
                   Note("in TilingFunc: context->GetWorkspaceSizes(1)[0] = <bytes> "
                        "(+ GetLibApiWorkSpaceSize() for Matmul)", kind="help"))
        return


@rule(
    "ASC906", "set-block-dim-missing", "host",
    summary="The host tiling function never calls SetBlockDim, or returns success on a path that does not "
            "(directly or through a helper that sets it on every path it returns normally).",
    why="The kernel is launched on as many cores as the tiling function asks with SetBlockDim; without it "
        "the launch has no valid block count and fails, or runs a single core that writes one slice. A tiling "
        "class registered with the op's tiling registry (REGISTER_OPS_TILING_TEMPLATE) is run step by step "
        "(GetShapeAttrsInfo ... PostTiling), and one of its steps must set it. A call that hands the context "
        "to code the checker does not have (a base class it cannot see) counts as setting it, and switch "
        "statements are not followed.",
    example="static ge::graphStatus TilingFunc(gert::TilingContext* context) {\n    if (total == 0) { "
            "tiling.set_tileNum(0); }   // no SetBlockDim here\n    else { context->SetBlockDim(coreNum); }\n"
            "    return ge::GRAPH_SUCCESS;\n}",
    instead="if (total == 0) { tiling.set_tileNum(0); context->SetBlockDim(1); }",
    severity=Severity.WARNING,
)
def set_block_dim_missing(ctx: CheckContext) -> None:
    tiling_funcs = [fn for fn in functions(ctx, "host") if any(name_of(p.type) == "TilingContext" for p in fn.params)]
    if not tiling_funcs:
        return
    if not any(isinstance(node, A.Member) and node.member in _BLOCK_DIM_SETTERS for node in nodes(ctx, *_HOST_ROLES)):
        fn = tiling_funcs[0]
        report_once(ctx, span(fn.name), f"'{fn.name.parts[-1].name}' never calls SetBlockDim")
        return
    # SetBlockDim is called somewhere: each registered tiling function must reach it before returning success
    by_name: dict[str, list[A.FunctionDecl]] = {}  # functions and methods by their own name
    for fn in functions(ctx, *_HOST_ROLES):
        by_name.setdefault(fn.name.parts[-1].name, []).append(fn)
    paths = _BlockDimPaths(by_name, _free_functions(ctx))
    for entry in _registered_tiling_functions(ctx):
        for fn in by_name.get(entry, []):
            unset = paths.unset_success_return(fn)
            if unset is None:
                continue
            report_once(ctx, span(unset), f"'{entry}' returns success here without calling SetBlockDim on this path",
                        Note("the tiling function sets the block count on its other paths; this one launches the "
                             "kernel with none", kind="note"))
    # and so must each tiling class registered as a template of the op's tiling registry
    for template in _tiling_templates(ctx):
        unset = _template_unset_return(template, by_name, paths.free)
        if unset is not None:
            report_once(ctx, span(unset), f"tiling template '{template.name}' returns success here, and none of "
                        "its tiling steps calls SetBlockDim on the way",
                        Note("the registry runs GetShapeAttrsInfo, GetPlatformInfo, IsCapable, DoOpTiling, "
                             "DoLibApiTiling, GetWorkspaceSize and PostTiling in turn; one of them must set the "
                             "block count", kind="note"))


_BLOCK_DIM_SETTERS = ("SetBlockDim", "SetAicpuBlockDim")


def _registered_tiling_functions(ctx: CheckContext) -> list[str]:
    """Functions registered as an op's tiling: `this->AICore().SetTiling(optiling::F)` in an OpDef,
    `IMPL_OP_OPTILING(Op).Tiling(F)`."""
    out: list[str] = []
    for node in nodes(ctx, *_HOST_ROLES):
        if not isinstance(node, A.Call) or len(node.args) != 1 or not isinstance(node.args[0], A.Name):
            continue
        callee = node.callee
        method = (callee.member if isinstance(callee, A.Member)
                  else callee.qname.parts[-1].name if isinstance(callee, A.Name) else None)
        if method in ("SetTiling", "Tiling"):  # (the chain of IMPL_OP_OPTILING(Op) holds `Tiling(F)` calls)
            name = node.args[0].qname.parts[-1].name
            if name not in out:
                out.append(name)
    return out


# The tiling framework's base class (tiling_base.h of the ops repositories): its DoTiling calls these hooks
# in turn, each returning a status (IsCapable a bool), then sets the tiling key. It never sets the block count.
_TILING_BASE = "TilingBaseClass"
_TILING_HOOKS = ("GetShapeAttrsInfo", "GetPlatformInfo", "IsCapable", "DoOpTiling", "DoLibApiTiling",
                 "GetWorkspaceSize", "PostTiling")


@dataclass
class _TilingTemplate:
    """A tiling class registered for an op (REGISTER_OPS_TILING_TEMPLATE(Op, Class, priority)) with the
    methods it runs: its own and those of its bases, the most derived first."""

    name: str
    methods: dict[str, A.FunctionDecl]


def _tiling_templates(ctx: CheckContext) -> list[_TilingTemplate]:
    """The registered tiling classes whose every base is seen, up to the framework's TilingBaseClass (a base
    we do not have may set the block count itself), and which keep the framework's DoTiling."""
    classes: dict[str, A.ClassDecl] = {}
    outside: dict[str, dict[str, A.FunctionDecl]] = {}  # `Class::Method` definitions
    registered: list[A.MacroDecl] = []
    for node in nodes(ctx, *_HOST_ROLES):
        if isinstance(node, A.ClassDecl) and node.name and node.is_definition:
            classes.setdefault(node.name, node)
        elif isinstance(node, A.FunctionDecl) and node.body is not None and len(node.name.parts) >= 2:
            outside.setdefault(node.name.parts[-2].name, {})[node.name.parts[-1].name] = node
        elif isinstance(node, A.MacroDecl) and "TILING_TEMPLATE" in node.name and node.name.startswith("REGISTER_"):
            registered.append(node)
    out: list[_TilingTemplate] = []
    for macro in registered:
        name = next((name_of(a) for a in macro.args[1:] if name_of(a) in classes), None)
        if name is None or any(t.name == name for t in out):
            continue
        methods: dict[str, A.FunctionDecl] = {}
        current: str | None = name
        while current is not None and current != _TILING_BASE:
            decl = classes.get(current)
            if decl is None or len(decl.bases) != 1:
                methods = {}
                break
            for member in class_members(decl):
                if isinstance(member, A.FunctionDecl) and member.body is not None:
                    methods.setdefault(member.name.parts[-1].name, member)
            for method, fn in outside.get(current, {}).items():
                methods.setdefault(method, fn)
            current = name_of(decl.bases[0])
        if methods and "DoTiling" not in methods:
            out.append(_TilingTemplate(name, methods))
    return out


def _template_unset_return(template: _TilingTemplate, by_name: dict[str, list[A.FunctionDecl]],
                           free: dict[str, list[A.FunctionDecl]]) -> A.Node | None:
    """A success return of the template's DoOpTiling (or its last hook) reached on a run of the framework's
    DoTiling where no hook called SetBlockDim: every hook has a success path without it. None when a hook
    sets it on all its success paths, or may (through code we do not have, a return not judged)."""
    paths = _BlockDimPaths(by_name, free, methods=template.methods, context_members=("context_",))
    unset_returns: dict[str, A.Node] = {}
    for hook in _TILING_HOOKS:
        fn = template.methods.get(hook)
        if fn is None or fn.body is None:
            return None  # a pure virtual left undefined: not a class that builds
        if hook == "IsCapable":
            if paths.sets_anywhere(fn):
                return None
            continue
        unset = paths.unset_success_return(fn)
        if unset is None:
            return None
        unset_returns[hook] = unset
    return unset_returns.get("DoOpTiling") or unset_returns["PostTiling"]


class _BlockDimPaths:
    """Whether every path of a host function that returns success calls SetBlockDim first.

    Only what is understood is judged: a path through a construct not followed here (switch, try, goto, a
    return of a value that is not a graph status) counts as setting it, so a report names a path that is
    there in the source. Branches are taken both ways, as elsewhere in the checker."""

    def __init__(self, functions: dict[str, list[A.FunctionDecl]], free: dict[str, list[A.FunctionDecl]],
                 methods: dict[str, A.FunctionDecl] | None = None, context_members: tuple[str, ...] = ()) -> None:
        self.functions = functions  # every function and method by its own name (another object's `obj.F()`)
        self.free = free  # the functions outside classes, which a plain `F()` calls
        self.methods = methods or {}  # the tiling class's own, which `F()` and `this->F()` call
        self.context_members = context_members  # a tiling class's member holding the context (`context_`)
        self._may_set: dict[tuple[str, str], bool] = {}
        self._unset_returns: dict[int, A.Node | None] = {}  # id(function) -> its unset success return
        self._context_names: set[str] = set()  # the tiling context and the objects built from it
        self._context_params: set[str] = set()

    def unset_success_return(self, fn: A.FunctionDecl) -> A.Node | None:
        """The first `return ge::GRAPH_SUCCESS` of `fn` reached on a path without SetBlockDim."""
        assert fn.body is not None
        with self._inside(fn):
            found, _ = self._block(fn.body.body, False)
        return found

    def sets_anywhere(self, fn: A.FunctionDecl) -> bool:
        """Whether `fn` calls SetBlockDim on some path (or may, through what it calls)."""
        with self._inside(fn):
            return self._sets(fn.body)

    @contextmanager
    def _inside(self, fn: A.FunctionDecl) -> Iterator[None]:
        """While `fn` is followed: its tiling-context parameters and the objects built from them."""
        outer = self._context_names, self._context_params
        self._context_params = {p.name for p in fn.params if p.name and name_of(p.type) == "TilingContext"}
        self._context_params.update(self.context_members)
        self._context_names = _built_from(fn, self._context_params)
        try:
            yield
        finally:
            self._context_names, self._context_params = outer

    def may_set(self, key: tuple[str, str], candidates: list[A.FunctionDecl]) -> bool:
        """Whether a call of the user functions `candidates` (`_candidates`' answer) may set the block count:
        a user function that calls SetBlockDim on some path, or code that may (its helpers, code we do not
        have that it hands the context to). A call of it counts as setting the block count: whether it does
        can hang on what it is given (`InitTilingData(..., isEmpty)` sets it for empty inputs only, and the
        caller returns early exactly then), which is not followed here."""
        if key not in self._may_set:
            self._may_set[key] = False  # recursion: not proven
            for fn in candidates:
                with self._inside(fn):
                    if self._sets(fn.body):
                        self._may_set[key] = True
                        break
        return self._may_set[key]

    def _candidates(self, call: A.Call) -> tuple[tuple[str, str], list[A.FunctionDecl]]:
        """The functions of the project a call may run (a key for them, and them): the class's own method for
        `F()` and `this->F()`, a function outside classes for a plain `F()`, else any function or method of
        that name (methods of several classes share names: `obj.F()` may be any of them)."""
        callee = call.callee
        name = callee.qname.parts[-1].name if isinstance(callee, A.Name) else \
            callee.member if isinstance(callee, A.Member) else ""
        own = self._own_method(callee)
        if own is not None:
            return ("own", own), [self.methods[own]]
        if isinstance(callee, A.Name) and len(callee.qname.parts) == 1 and name in self.free:
            return ("free", name), self.free[name]
        return ("any", name), self.functions.get(name, [])

    def _block(self, stmts: list[A.Node], is_set: bool) -> tuple[A.Node | None, bool]:
        """(a success return reached without SetBlockDim, whether the end is reached without it)."""
        for i, st in enumerate(stmts):
            if is_set:
                return None, False
            found, is_set, ends = self._stmt(st, stmts[i + 1:])
            if found is not None:
                return found, False
            if ends:
                return None, False
        return None, not is_set

    def _stmt(self, st: A.Node, rest: list[A.Node]) -> tuple[A.Node | None, bool, bool]:
        """(an offending return in `st`, whether it sets on every path that goes on, whether no path goes on),
        for `st` reached without SetBlockDim and followed by the statements `rest` of its block."""
        if isinstance(st, A.Return):
            if self._sets(st.value):
                return None, True, True
            unset = _returns_success(st.value) or self._passes_on_unset_success(st.value)
            return (st if unset else None), False, True
        if isinstance(st, A.ExprStmt):
            return self._expression(st.expr)
        if isinstance(st, A.Compound):
            found, falls_unset = self._block(st.body, False)
            return found, not falls_unset, False
        if isinstance(st, A.If):
            if self._sets(st.cond):
                return None, True, False
            if any(self._returns_after_setting(_stmts(branch)) for branch in (st.then, st.otherwise)) \
                    and not _fills_ascendc_tiling(rest):
                # `if (compileInfo->isAscendc) { return TilingForAscendC(context); } return ge::GRAPH_SUCCESS;`:
                # the paths that go on are another implementation's, which launches no AscendC kernel (unless
                # they fill tiling data and a tiling key for one: `if (isRegbase) { return
                # RegbaseTiling(context); } ... context->SetTilingKey(key); return ge::GRAPH_SUCCESS;`)
                return None, True, False
            found, then_unset = self._block(_stmts(st.then), False)
            if found is not None:
                return found, False, False
            found, else_unset = self._block(_stmts(st.otherwise), False) if st.otherwise is not None else (None, True)
            return found, not (then_unset or else_unset), False
        if isinstance(st, A.For | A.While):
            found, _ = self._block(_stmts(st.body), False)
            return found, False, False  # the body may not run
        if isinstance(st, A.VarDecl):
            return None, any(self._sets(d.init) for d in st.declarators), False
        if isinstance(st, A.Switch | A.Try | A.DoWhile):
            return None, True, False  # not followed: taken as setting it
        return None, self._sets(st), False

    def _returns_after_setting(self, stmts: list[A.Node]) -> bool:
        """A branch that hands the tiling to another routine, which sets the block count, and returns. (A
        branch calling SetBlockDim itself, `if (total == 0) { context->SetBlockDim(1); return ...; }`, is
        an early exit of this tiling, whose other paths must set it too.)"""
        if not stmts or not isinstance(stmts[-1], A.Return) or not any(self._sets(st) for st in stmts):
            return False
        return not any(isinstance(n, A.Member) and n.member in _BLOCK_DIM_SETTERS for st in stmts for n in st.walk())

    def _expression(self, e: A.Node) -> tuple[A.Node | None, bool, bool]:
        """An expression statement; a checking macro `OP_CHECK_IF(cond, log, return ge::GRAPH_FAILED)` is an
        `if` whose branch returns."""
        if isinstance(e, A.Call) and any(isinstance(a, A.ReturnArg) for a in e.args):
            if any(self._sets(a) for a in e.args if not isinstance(a, A.ReturnArg)):
                return None, True, False
            for a in e.args:
                if isinstance(a, A.ReturnArg) and _returns_success(a.value):
                    return a, False, False
            return None, False, False
        return None, self._sets(e), False

    def _passes_on_unset_success(self, value: A.Node | None) -> bool:
        """`return Helper();`, where the one function of that name never sets the block count and returns
        success on some path: that path is this function's success too."""
        if not isinstance(value, A.Call):
            return False
        fn = self._callee(value)
        if fn is None:
            return False
        if id(fn) not in self._unset_returns:
            self._unset_returns[id(fn)] = None  # recursion: not proven
            with self._inside(fn):
                self._unset_returns[id(fn)] = self._block(fn.body.body, False)[0]
        return self._unset_returns[id(fn)] is not None

    def _callee(self, call: A.Call) -> A.FunctionDecl | None:
        """The function a call runs, when that is certain: the class's own method, or the one function of
        that name."""
        _, candidates = self._candidates(call)
        return candidates[0] if len(candidates) == 1 else None

    def _own_method(self, callee: A.Node) -> str | None:
        """The name of the class's own method that `F(...)` or `this->F(...)` calls, if it is one."""
        if isinstance(callee, A.Name) and len(callee.qname.parts) == 1:
            name = callee.qname.parts[0].name
        elif isinstance(callee, A.Member) and isinstance(callee.obj, A.This):
            name = callee.member
        else:
            return None
        return name if name in self.methods else None

    def _sets(self, node: A.Node | None) -> bool:
        if node is None:
            return False
        for n in node.walk():  # (a lambda that sets it counts where it is written: it may be called later)
            if isinstance(n, A.Member) and n.member in _BLOCK_DIM_SETTERS:
                return True
            if isinstance(n, A.Call) and isinstance(n.callee, A.Name | A.Member):
                key, candidates = self._candidates(n)
                if candidates:
                    if self.may_set(key, candidates):
                        return True
                elif self._may_set_unseen(n):
                    return True
        return False

    def _may_set_unseen(self, call: A.Call) -> bool:
        """A call of code we do not have that is handed the tiling context, or a method of an object built
        from it (`XTiling tiling(context); tiling.DoTiling();`, whose base class sets the block count)."""
        callee = call.callee
        if isinstance(callee, A.Member):
            receiver = name_of(callee.obj)
            if receiver in self._context_names and receiver not in self._context_params:
                return True
            if receiver in self._context_params:
                return False  # a gert API of the context itself (GetInputShape, ...)
        name = callee.qname.parts[-1].name if isinstance(callee, A.Name) else None
        if name is not None and (name.isupper() or name.startswith(_QUERY_PREFIXES)):
            return False  # a logging or checking macro, a query (`Ops::Base::GetUbBlockSize(context)`)
        return any(isinstance(a, A.Name) and a.qname.parts[-1].name in self._context_names for a in call.args)


# (builtin types, `int` or `unsigned long`, are written as strings in the AST)
_SCALAR_TYPES = frozenset({"size_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t",
                           "uint64_t"})


# Names of library functions that read from the context they are handed and set nothing on it.
_QUERY_PREFIXES = ("Get", "Is", "Has", "Check")


# What only the tiling of an AscendC kernel does with the context: save tiling data for it, pick its key.
_ASCENDC_TILING_CALLS = ("SaveToBuffer", "GetRawTilingData", "SetTilingKey")


def _fills_ascendc_tiling(stmts: list[A.Node]) -> bool:
    return any(isinstance(n, A.Member) and n.member in _ASCENDC_TILING_CALLS for st in stmts for n in st.walk())


def _free_functions(ctx: CheckContext) -> dict[str, list[A.FunctionDecl]]:
    """Host functions defined outside any class, by name (what a plain `F(...)` outside a class calls)."""
    methods = {id(m) for node in nodes(ctx, *_HOST_ROLES) if isinstance(node, A.ClassDecl)
               for m in class_members(node) if isinstance(m, A.FunctionDecl)}
    out: dict[str, list[A.FunctionDecl]] = {}
    for fn in functions(ctx, *_HOST_ROLES):
        if len(fn.name.parts) == 1 and id(fn) not in methods:
            out.setdefault(fn.name.parts[0].name, []).append(fn)
    return out


def _built_from(fn: A.FunctionDecl, params: set[str]) -> set[str]:
    """`params` and the locals they are handed to when built (`XTiling tiling(context);`, `auto t = Make(context);`)."""
    names = set(params)
    assert fn.body is not None
    for node in fn.body.walk():
        if isinstance(node, A.VarDecl):
            for d in node.declarators:
                if (isinstance(d.type.base, str) or name_of(d.type) in _SCALAR_TYPES) and not d.type.pointers:
                    continue  # `int64_t ubBlockSize = GetUbBlockSize(context);` is a number, not an object
                handed = list(d.ctor_args)  # `XTiling tiling(context);`
                if d.init is not None:  # `auto t = XTiling(context);` (not `PlatformAscendC(context->GetPlatformInfo())`)
                    handed += [a for n in d.init.walk() if isinstance(n, A.Call) for a in n.args]
                if any(isinstance(a, A.Name) and a.qname.parts[-1].name in names for a in handed):
                    names.add(d.name)
    return names


def _stmts(node: A.Node | None) -> list[A.Node]:
    if node is None:
        return []
    return node.body if isinstance(node, A.Compound) else [node]


def _returns_success(value: A.Node | None) -> bool:
    """`ge::GRAPH_SUCCESS` (or SUCCESS): the launch goes ahead. Other values (failures, a called function's
    status, a variable) are not judged."""
    return isinstance(value, A.Name) and value.qname.parts[-1].name in ("GRAPH_SUCCESS", "SUCCESS")
