"""Static gert types of host expressions: which gert class (TilingContext, InferShapeContext, StorageShape,
Shape, Tensor, RuntimeAttrs) a host expression has and whether it is a pointer to it, followed through local
variables and helper parameters inside one function. What cannot be typed is None, and the rules leave it
alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from frontend import ast as A
from passes.verify.project import functions
from passes.verify.rules import CheckContext


HOST_ROLES = ("host", "header", "tiling_header")

# Context classes by the parameter type that names them.
CONTEXT_CLASSES = {"TilingContext": "tiling", "InferShapeContext": "infer", "TilingParseContext": "parse"}


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
CONTEXT_RESULTS: dict[str, dict[str, HType]] = {
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

STORAGE_RESULTS = {"GetOriginShape": HType("shape", False), "GetStorageShape": HType("shape", False),
                   "MutableOriginShape": HType("shape", False), "MutableStorageShape": HType("shape", False)}
TENSOR_RESULTS = {"GetOriginShape": HType("shape", False), "GetStorageShape": HType("shape", False),
                  "GetShape": HType("storage_shape", False)}
# Members that exist on one of the two shape classes only (what real logs show mixed up).
SHAPE_ONLY = {"GetDim", "GetDimNum", "GetShapeSize", "SetDim", "SetDimNum", "AppendDim", "IsScalar", "SetScalar"}
STORAGE_ONLY = set(STORAGE_RESULTS)
# ge::Shape members that gert::Shape lacks.
NOT_ON_GERT_SHAPE = {"GetDims": "GetDim(i) for i < GetDimNum()"}


class Typer:
    """Static types of host expressions inside one function."""

    def __init__(self, fn: A.FunctionDecl) -> None:
        self.vars: dict[str, HType | None] = {}
        for p in fn.params:
            t = declared_type(p.type)
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
            if recv.cls in CONTEXT_RESULTS:
                return CONTEXT_RESULTS[recv.cls].get(member)
            if recv.cls == "storage_shape":
                return STORAGE_RESULTS.get(member)
            if recv.cls == "tensor":
                return TENSOR_RESULTS.get(member)
        return None


def declared_type(t: A.TypeRef | None) -> HType | None:
    """The gert class a written type names (None for `auto` and anything else)."""
    if t is None or not isinstance(t.base, A.QualifiedName):
        return None
    parts = [p.name for p in t.base.parts]
    base = parts[-1]
    if len(parts) > 1 and parts[0] not in ("gert",):
        return None
    cls = {"Shape": "shape", "StorageShape": "storage_shape", "Tensor": "tensor", "RuntimeAttrs": "attrs",
           **CONTEXT_CLASSES}.get(base)
    if cls is None:
        return None
    if len(parts) == 1 and cls in ("shape", "tensor"):
        return None  # an unqualified Shape may be ge::Shape under a using-directive
    if any(p == "*" for p in t.pointers[:-1]) or t.array_dims:
        return None
    return HType(cls, bool(t.pointers) and t.pointers[-1] == "*")


def host_functions(ctx: CheckContext) -> list[A.FunctionDecl]:
    return functions(ctx, *HOST_ROLES)


def walk_typed(fn: A.FunctionDecl):  # type: ignore[no-untyped-def]
    """(node, typer) for every node of the body, with declarations seen before their uses."""
    typer = Typer(fn)
    assert fn.body is not None
    for node in fn.body.walk():
        if isinstance(node, A.VarDecl):
            for d in node.declarators:
                written = declared_type(d.type)
                init = d.init if d.init is not None else (d.ctor_args[0] if len(d.ctor_args) == 1 else None)
                if written is None and is_auto(d.type):
                    inferred = typer.type_of(init)
                    if inferred is not None:
                        ptr = inferred.ptr or bool(d.type.pointers and d.type.pointers[-1] == "*")
                        written = HType(inferred.cls, ptr if d.type.pointers != ["&"] else inferred.ptr)
                typer.declare(d.name, written)
        yield node, typer


def is_auto(t: A.TypeRef) -> bool:
    return t.name == "auto"
