"""The source side the API-misuse rules (ASC5xx) share: one walk of the program's syntax trees collects the
calls, casts, unqualified AscendC names, declarations, namespaces and classes they look at (SourceIndex, built
once per run by source_index); spans are resolved only on demand.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from frontend import ast as A
from frontend.diagnostics import as_span
from passes.verify.ast_index import ast_index
from passes.verify.rules import CheckContext


@dataclass
class SourceIndex:
    """The AST nodes the API rules look at, collected in one walk; spans are resolved only on demand."""

    calls: list[A.Call] = field(default_factory=list)
    unqualified_calls: list[A.Call] = field(default_factory=list)  # `Name(...)` outside namespace AscendC
    unqualified_types: list[A.TypeRef] = field(default_factory=list)  # `LocalTensor<T>` outside namespace AscendC
    casts: list[A.Cast] = field(default_factory=list)
    ascendc_event_names: list[A.Name] = field(default_factory=list)  # `AscendC::EVENT_IDn`
    using_namespaces: set[str] = field(default_factory=set)
    own_namespaces: set[str] = field(default_factory=set)
    declared: set[str] = field(default_factory=set)  # functions, using-declarations, variables
    named: set[str] = field(default_factory=set)  # names of classes, structs and tiling definitions
    classes: list[A.ClassDecl] = field(default_factory=list)
    out_of_class_const: list[A.FunctionDecl] = field(default_factory=list)
    _calls_at: dict[tuple[str, int, int], A.Call] | None = None
    _casts_at: set[tuple[str, int, int]] | None = None

    def calls_at(self) -> dict[tuple[str, int, int], A.Call]:
        if self._calls_at is None:
            self._calls_at = {}
            for node in self.calls:
                span = as_span(node.span)
                self._calls_at.setdefault((span.file, span.line, span.col), node)
        return self._calls_at

    def casts_at(self) -> set[tuple[str, int, int]]:
        if self._casts_at is None:
            self._casts_at = set()
            for node in self.casts:
                span = as_span(node.span)
                self._casts_at.add((span.file, span.line, span.col))
        return self._casts_at


# the node kinds _ast_index tells apart, in the order it tests them; looked up once per node class
_INDEXED: tuple[type, ...] = (A.Call, A.Cast, A.Name, A.Declarator, A.FunctionDecl, A.UsingDecl, A.UsingDirective,
                              A.NamespaceDecl, A.ClassDecl, A.Param, A.TypeRef)
# Types kernel_operator.h declares in namespace AscendC only (TPosition and RoundMode are left out: host code
# has matmul_tiling's TPosition, and a project may name its own RoundMode).
_ASCENDC_TYPES = frozenset({
    "TPipe", "TQue", "TQueBind", "TBuf", "LocalTensor", "GlobalTensor", "HardEvent", "QuePosition",
    "DataCopyParams", "DataCopyExtParams", "DataCopyPadExtParams", "UnaryRepeatParams", "BinaryRepeatParams",
    "LocalMemAllocator",
})
_INDEX_KINDS: dict[type, int] = {}


def source_index(ctx: CheckContext) -> SourceIndex:
    program = ctx.program
    if program is None:
        return SourceIndex()
    store: dict[object, object] = ctx.__dict__.setdefault("_project_cache", {})
    hit = store.get("api_misuse.ast_index")
    if hit is not None:
        return hit  # type: ignore[return-value]
    index = SourceIndex()
    kinds = _INDEX_KINDS
    for node, in_ascendc in ast_index(ctx).api_order:  # the shared walk, in the order this index always used
        kind = kinds.get(type(node))
        if kind is None:
            kind = kinds[type(node)] = next((i for i, k in enumerate(_INDEXED) if isinstance(node, k)), len(_INDEXED))
        if kind == 0:  # A.Call
            index.calls.append(node)
            callee = node.callee
            if not in_ascendc and isinstance(callee, A.Name) and len(callee.qname.parts) == 1:
                index.unqualified_calls.append(node)
        elif kind == 1:  # A.Cast
            index.casts.append(node)
        elif kind == 2:  # A.Name
            parts = node.qname.parts
            if len(parts) == 2 and parts[0].name == "AscendC" and parts[1].name.startswith(_GLOBAL_ENUMERATOR_PREFIXES):
                index.ascendc_event_names.append(node)
        elif kind == 3:  # A.Declarator
            index.declared.add(node.name)
        elif kind == 4:  # A.FunctionDecl
            index.declared.add(node.name.parts[-1].name)
            if len(node.name.parts) >= 2 and "const" in node.qualifiers and node.body is not None:
                index.out_of_class_const.append(node)
        elif kind == 5:  # A.UsingDecl
            index.declared.update(name.parts[-1].name for name in node.names)
        elif kind == 6:  # A.UsingDirective
            index.using_namespaces.add(node.namespace.name)
        elif kind == 7:  # A.NamespaceDecl
            if node.name and node.name != "AscendC":
                index.own_namespaces.add(node.name)
        elif kind == 8:  # A.ClassDecl
            index.classes.append(node)
            if node.name:
                index.named.add(node.name)
        elif kind == 9:  # A.Param: nothing
            pass
        elif kind == 10:  # A.TypeRef
            base = node.base
            if (not in_ascendc and isinstance(base, A.QualifiedName) and len(base.parts) == 1
                    and base.parts[0].name in _ASCENDC_TYPES):
                index.unqualified_types.append(node)
        elif isinstance(node, A.Decl):  # a definition (tiling struct, enum, alias): not a mere use of a name
            name = getattr(node, "name", None)
            if isinstance(name, str):
                index.named.add(name)
    store["api_misuse.ast_index"] = index
    return index


# Unscoped enumerators the toolchain declares at global scope, not in namespace AscendC.
_GLOBAL_ENUMERATOR_PREFIXES = ("EVENT_ID",)
