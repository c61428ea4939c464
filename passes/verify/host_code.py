"""Host code (ASC9xx): the gert / platform_ascendc API as the host TilingFunc and InferShape use it.

These are the most frequent compile errors of host code in real logs: `GetInputShape` returns a
`const gert::StorageShape*` in a TilingContext but a `const gert::Shape*` in an InferShapeContext, the
two classes have different members, and indices must name declared inputs. The checks follow the static
types of the host expressions through local variables and helper parameters; what they cannot type they
leave alone.
"""

from __future__ import annotations

import os

from dataclasses import dataclass

from frontend import ast as A
from frontend.diagnostics import Note, Severity
from passes.verify.project import (
    calls,
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
    summary="The host tiling function never calls SetBlockDim.",
    why="The kernel is launched on as many cores as the tiling function asks with SetBlockDim; without it "
        "the launch has no valid block count and fails, or runs a single core that writes one slice.",
    example="static ge::graphStatus TilingFunc(gert::TilingContext* context) { ...; return ge::GRAPH_SUCCESS; }",
    instead="context->SetBlockDim(coreNum);",
    severity=Severity.WARNING,
)
def set_block_dim_missing(ctx: CheckContext) -> None:
    tiling_funcs = [fn for fn in functions(ctx, "host") if any(name_of(p.type) == "TilingContext" for p in fn.params)]
    if not tiling_funcs:
        return
    for node in nodes(ctx, *_HOST_ROLES):
        if isinstance(node, A.Member) and node.member in ("SetBlockDim", "SetAicpuBlockDim"):
            return
    fn = tiling_funcs[0]
    report_once(ctx, span(fn.name), f"'{fn.name.parts[-1].name}' never calls SetBlockDim")
