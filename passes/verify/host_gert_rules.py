"""Host rules on the gert API (ASC901-ASC903): a gert::StorageShape taken as a gert::Shape or the reverse, a
member the class does not have (or `.` on a pointer), and a constant input, output or attribute index beyond
what the op declares.
"""

from __future__ import annotations

from frontend import ast as A
from frontend.diagnostics import Note
from passes.verify.host_gert_types import (
    NOT_ON_GERT_SHAPE,
    SHAPE_ONLY,
    STORAGE_ONLY,
    HType,
    declared_type,
    host_functions,
    walk_typed,
)
from passes.verify.project import calls, const_int, name_of, nodes, op_info, report_once, span
from passes.verify.rules import CheckContext, rule


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
    functions = host_functions(ctx)
    params: dict[str, list[HType | None]] = {}
    for fn in functions:
        params.setdefault(fn.name.parts[-1].name, [declared_type(p.type) for p in fn.params])
    for fn in functions:
        for node, typer in walk_typed(fn):
            if isinstance(node, A.VarDecl):
                for d in node.declarators:
                    want = declared_type(d.type)
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
    for fn in host_functions(ctx):
        for node, typer in walk_typed(fn):
            if not (isinstance(node, A.Call) and isinstance(node.callee, A.Member)):
                continue
            member = node.callee.member
            recv = typer.type_of(node.callee.obj)
            if recv is None:
                continue
            where = span(node.callee)
            if recv.cls == "storage_shape" and member in SHAPE_ONLY:
                report_once(ctx, where, f"gert::StorageShape has no member '{member}'; call it on "
                           "GetOriginShape() or GetStorageShape()")
                continue
            if recv.cls == "shape" and member in STORAGE_ONLY:
                report_once(ctx, where, f"gert::Shape has no member '{member}'; this value is already the shape")
                continue
            if recv.cls == "shape" and member in NOT_ON_GERT_SHAPE:
                report_once(ctx, where, f"gert::Shape has no member '{member}'; use {NOT_ON_GERT_SHAPE[member]}")
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
