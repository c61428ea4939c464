"""Declaration nodes: functions, templates, classes, enums, namespaces, using and aliases, the vendor's tiling
data definitions and op macros, and TranslationUnit, the root of a file's tree."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator

from frontend.ast.node import Node

if TYPE_CHECKING:  # annotations only (strings at run time): the modules refer to each other
    from frontend.ast.expressions import Call, Expr
    from frontend.ast.names import QualifiedName, TemplateArg, TypeRef
    from frontend.ast.statements import Compound, Declarator


@dataclass(slots=True)
class Decl(Node):
    pass


@dataclass(slots=True)
class Param(Node):
    type: TypeRef
    name: str | None
    default: Node | None = None
    variadic: bool = False


@dataclass(slots=True)
class MemberInit(Node):
    target: str
    args: list[Node]
    pack: bool = False  # `Base<I>(t)...`: initialises each base of a pack expansion


@dataclass(slots=True)
class FunctionDecl(Decl):
    """A function, method, constructor or destructor, declared or defined.

    `specifiers` holds storage and AscendC qualifiers in source order: 'static', 'inline', '__global__',
    '__aicore__', '__vector__', '__cube__', '__mix__(1,2)', ...; `linkage` is 'C' inside `extern "C"`.
    """

    name: QualifiedName
    return_type: TypeRef | None
    params: list[Param]
    body: Compound | None
    specifiers: list[str] = field(default_factory=list)
    kind: str = "function"  # 'function', 'constructor', 'destructor', 'operator'
    init_list: list[MemberInit] = field(default_factory=list)
    qualifiers: list[str] = field(default_factory=list)
    linkage: str | None = None
    template_params: list["TemplateParam"] | None = None

    @property
    def is_kernel(self) -> bool:
        """A device entry point: `__global__` (with `__aicore__`, `__vector__`, `__cube__` or `__mix__`)."""
        return "__global__" in self.specifiers


@dataclass(slots=True)
class TemplateParam(Node):
    kind: str  # 'type' or 'value'
    name: str | None
    type: TypeRef | None = None  # for value parameters
    default: Node | None = None
    variadic: bool = False


@dataclass(slots=True)
class TemplateDecl(Decl):
    params: list[TemplateParam]
    decl: Node


@dataclass(slots=True)
class AccessSpec(Decl):
    access: str


@dataclass(slots=True)
class ClassDecl(Decl):
    key: str  # 'class', 'struct', 'union'
    name: str | None
    members: list[Node]
    bases: list[TypeRef] = field(default_factory=list)
    is_definition: bool = True
    specialization_args: list[TemplateArg] | None = None
    declarators: list[Declarator] = field(default_factory=list)
    align: int | None = None  # `struct alignas(8) S {...}`: the alignment it asks for (a constant), else None


@dataclass(slots=True)
class Enumerator(Node):
    name: str
    value: Expr | None


@dataclass(slots=True)
class EnumDecl(Decl):
    name: str | None
    scoped: bool
    underlying: TypeRef | None
    enumerators: list[Enumerator]


@dataclass(slots=True)
class NamespaceDecl(Decl):
    name: str | None
    decls: list[Node]


@dataclass(slots=True)
class NamespaceAlias(Decl):
    name: str
    target: QualifiedName


@dataclass(slots=True)
class LinkageSpec(Decl):
    language: str
    decls: list[Node]


@dataclass(slots=True)
class UsingDirective(Decl):
    namespace: QualifiedName


@dataclass(slots=True)
class UsingDecl(Decl):
    """`using AscendC::TPipe;`; C++17 names several at once: `using Reg::Add, Reg::Sub;`."""

    names: list[QualifiedName]


@dataclass(slots=True)
class AliasDecl(Decl):
    """`using T = float;` and `typedef float T;`."""

    name: str
    type: TypeRef


@dataclass(slots=True)
class StaticAssert(Decl):
    cond: Expr
    message: str | None


@dataclass(slots=True)
class FriendDecl(Decl):
    target: Node


@dataclass(slots=True)
class ExplicitInstantiation(Decl):
    decl: Node


@dataclass(slots=True)
class TilingField(Node):
    """One TILING_DATA_FIELD_DEF(_ARR/_STRUCT) entry."""

    kind: str  # 'scalar', 'array', 'struct'
    type: TypeRef
    name: str
    count: Expr | None = None


@dataclass(slots=True)
class TilingDataDef(Decl):
    """BEGIN_TILING_DATA_DEF(name) ... END_TILING_DATA_DEF;"""

    name: str
    fields: list[TilingField]


@dataclass(slots=True)
class RegisterTilingData(Decl):
    """REGISTER_TILING_DATA_CLASS(OpType, TilingDataName)"""

    op_type: str
    struct_name: str


@dataclass(slots=True)
class MacroDecl(Decl):
    """A macro invocation used as a declaration: OP_ADD(AddCustom); PYBIND11_MODULE(m, x) {...}."""

    name: str
    args: list[Node]
    body: Compound | None = None
    chain: list["Call"] = field(default_factory=list)  # `.Tiling(f).TilingParse<T>(g)` after the macro


@dataclass(slots=True)
class EmptyDecl(Decl):
    pass


@dataclass(slots=True)
class TranslationUnit(Node):
    file: str
    decls: list[Node]

    def functions(self) -> Iterator[FunctionDecl]:
        """Every function declaration or definition, at any depth (namespaces, classes, templates)."""
        for node in self.walk():
            if isinstance(node, FunctionDecl):
                yield node

    def kernels(self) -> Iterator[FunctionDecl]:
        return (f for f in self.functions() if f.is_kernel and f.body is not None)
