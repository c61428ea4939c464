"""The AscendC abstract syntax tree: typed dataclasses, every node with its source span.

The tree keeps C++ structure (declarations, statements, expressions, types) and adds nodes for the
vendor constructs that carry meaning downstream: kernel-function qualifiers, kernel launches,
tiling-data definitions and their registration. Spans point into the user's original files.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Iterator, Union

from frontend.diagnostics import LazySpan, Span


@dataclass(slots=True)
class Node:
    span: Span | LazySpan  # lazy for nodes built by the parser: resolved on first read

    def children(self) -> Iterator["Node"]:
        """Direct child nodes, in source order."""
        return iter(child_list(self))

    def walk(self) -> Iterator["Node"]:
        """This node and all its descendants, pre-order."""
        stack: list[Node] = [self]
        pop = stack.pop
        extend = stack.extend
        while stack:
            node = pop()
            yield node
            kids = child_list(node)
            if kids:
                kids.reverse()
                extend(kids)


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """The dataclass fields of a node class other than `span`, in declaration order (computed once per class)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls) if f.name != "span")
    return names


# Field types declared as plain data: such a field never holds a node. A kernel's tree has many of them
# (operator spellings, literal texts, specifier and qualifier lists), so child walks do not look into them.
DATA_FIELD_TYPES = frozenset({"str", "str | None", "bool", "int", "float", "list[str]"})
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def _child_field_names(cls: type) -> tuple[str, ...]:
    """The fields of a node class that may hold nodes, in declaration order (annotations are strings here:
    `from __future__ import annotations`)."""
    names = _CHILD_FIELDS.get(cls)
    if names is None:
        names = _CHILD_FIELDS[cls] = tuple(f.name for f in fields(cls)
                                           if f.name != "span" and f.type not in DATA_FIELD_TYPES)
    return names


def child_list(node: Node) -> list[Node]:
    """Node.children as a list: the node-valued fields, and the nodes in list- or tuple-valued fields."""
    out: list[Node] = []
    names = _CHILD_FIELDS.get(node.__class__)
    if names is None:
        names = _child_field_names(node.__class__)
    for name in names:
        value = getattr(node, name)
        if isinstance(value, Node):
            out.append(value)
        elif isinstance(value, (list, tuple)):
            for item in value:
                if isinstance(item, Node):
                    out.append(item)
    return out


# ------------------------------------------------------------------ names and types


@dataclass(slots=True)
class NamePart(Node):
    name: str
    template_args: list["TemplateArg"] | None = None


@dataclass(slots=True)
class QualifiedName(Node):
    """`AscendC::TPosition::VECIN`, `std::is_same<T, half>::value`, `x`."""

    parts: list[NamePart]

    @property
    def name(self) -> str:
        return self.parts[-1].name

    @property
    def text(self) -> str:
        return "::".join(p.name for p in self.parts)


@dataclass(slots=True)
class TypeRef(Node):
    """A written type: base name, template arguments, qualifiers, pointers/references, array dims.

    `base` is a QualifiedName for named types or a string for builtin types ("unsigned int").
    `pointers` lists '*', '&' or '&&' from the innermost outward; `address_space` is `__gm__` etc.
    """

    base: Union[QualifiedName, str]
    qualifiers: list[str] = field(default_factory=list)
    address_space: str | None = None
    pointers: list[str] = field(default_factory=list)
    array_dims: list["Expr | None"] = field(default_factory=list)
    dependent: bool = False
    decltype_expr: "Expr | None" = None
    pack: bool = False  # `T...` in a base clause: one type per element of the pack
    # of `pointers`, how many (the last ones) a parenthesised declarator binds to the array as a whole:
    # 1 for `T (*p)[N]` (a pointer to an array) and `T (&a)[N]`, 0 for `T *p[N]` (an array of pointers)
    pointers_to_array: int = 0


    @property
    def name(self) -> str:
        return self.base if isinstance(self.base, str) else self.base.text


@dataclass(slots=True)
class TemplateArg(Node):
    value: Union[TypeRef, "Expr"]
    pack: bool = False  # `Ts...`, `I...`: a pack expansion, standing for any number of arguments


# ------------------------------------------------------------------ expressions


@dataclass(slots=True)
class Expr(Node):
    pass


@dataclass(slots=True)
class IntLit(Expr):
    text: str
    value: int


@dataclass(slots=True)
class FloatLit(Expr):
    text: str
    value: float


@dataclass(slots=True)
class StringLit(Expr):
    value: str


@dataclass(slots=True)
class CharLit(Expr):
    text: str


@dataclass(slots=True)
class BoolLit(Expr):
    value: bool


@dataclass(slots=True)
class NullLit(Expr):
    pass


@dataclass(slots=True)
class This(Expr):
    pass


@dataclass(slots=True)
class Name(Expr):
    qname: QualifiedName

    @property
    def name(self) -> str:
        return self.qname.name


@dataclass(slots=True)
class MacroFlag(Name):
    """`if ASCEND_IS_AIC_CONV {`: a macro, defined in a header out of reach, that expands to a whole
    `constexpr (...)` condition; its value is unknown."""


@dataclass(slots=True)
class Unary(Expr):
    op: str
    operand: Expr


@dataclass(slots=True)
class IncDec(Expr):
    op: str  # '++' or '--'
    operand: Expr
    prefix: bool


@dataclass(slots=True)
class Binary(Expr):
    op: str
    lhs: Expr
    rhs: Expr


@dataclass(slots=True)
class Assign(Expr):
    op: str  # '=', '+=', ...
    target: Expr
    value: Union[Expr, "InitList"]


@dataclass(slots=True)
class Conditional(Expr):
    cond: Expr
    then: Expr
    otherwise: Expr


@dataclass(slots=True)
class Comma(Expr):
    lhs: Expr
    rhs: Expr


@dataclass(slots=True)
class Call(Expr):
    callee: Expr
    args: list[Node]  # expressions, InitLists, or TypeRefs (macro-style calls such as REGISTER_TILING_DEFAULT(T))

    @property
    def callee_name(self) -> str | None:
        """The called function's unqualified name, also for member calls (`que.AllocTensor<T>()`)."""
        callee = self.callee
        if isinstance(callee, Name):
            return callee.name
        if isinstance(callee, Member):
            return callee.member
        return None


@dataclass(slots=True)
class KernelLaunch(Expr):
    """`kernel<<<blockDim, l2ctrl, stream>>>(args)`."""

    kernel: Expr
    config: list[Node]
    args: list[Node]


@dataclass(slots=True)
class Member(Expr):
    obj: Expr
    member: str
    arrow: bool
    template_args: list[TemplateArg] | None = None


@dataclass(slots=True)
class Index(Expr):
    base: Expr
    index: Expr


@dataclass(slots=True)
class Cast(Expr):
    kind: str  # 'c', 'static_cast', 'reinterpret_cast', 'const_cast', 'dynamic_cast', 'functional'
    type: TypeRef
    expr: Node | None  # None for `T()`; an InitList for `T{...}`
    args: list[Node] = field(default_factory=list)  # functional casts / constructor calls with several args


@dataclass(slots=True)
class SizeOf(Expr):
    operand: Union[TypeRef, Expr]
    kind: str = "sizeof"


@dataclass(slots=True)
class Noexcept(Expr):
    """`noexcept(e)`: whether evaluating `e` can throw, a constant (device code throws nothing)."""

    operand: Expr


@dataclass(slots=True)
class InitList(Expr):
    items: list[Node]


@dataclass(slots=True)
class DesignatedInit(Expr):
    field_name: str
    value: Node


@dataclass(slots=True)
class New(Expr):
    type: TypeRef
    args: list[Node]


@dataclass(slots=True)
class Delete(Expr):
    operand: Expr
    array: bool


@dataclass(slots=True)
class Lambda(Expr):
    captures: list[str]
    params: list["Param"]
    body: "Compound"
    return_type: "TypeRef | None" = None  # `-> T`


@dataclass(slots=True)
class Throw(Expr):
    operand: Expr | None


@dataclass(slots=True)
class TypeArgExpr(Expr):
    """A type where a macro-style call takes one (`GET_TILING_DATA_WITH_STRUCT(T, td, tiling)`)."""

    type: TypeRef


@dataclass(slots=True)
class ReturnArg(Expr):
    """`return x` passed to a checking macro: OP_CHECK(cond, LOG(...), return ge::GRAPH_FAILED)."""

    value: Expr | None


@dataclass(slots=True)
class PackExpansion(Expr):
    expr: Expr


@dataclass(slots=True)
class Fold(Expr):
    """A C++17 fold expression: `(... + v)` (lhs None), `(v + ...)` (rhs None), `(0 + ... + v)` (both)."""

    op: str
    lhs: Expr | None
    rhs: Expr | None


# ------------------------------------------------------------------ statements


@dataclass(slots=True)
class Stmt(Node):
    pass


@dataclass(slots=True)
class Compound(Stmt):
    body: list[Node]


@dataclass(slots=True)
class ExprStmt(Stmt):
    expr: Expr


@dataclass(slots=True)
class Declarator(Node):
    name: str
    type: TypeRef  # the full type: specifiers' type plus this declarator's pointers and array dims
    init: Node | None = None  # Expr or InitList
    init_style: str = ""  # '=', '{}', '()'
    ctor_args: list[Node] = field(default_factory=list)


@dataclass(slots=True)
class VarDecl(Stmt):
    specifiers: list[str]
    declarators: list[Declarator]


@dataclass(slots=True)
class If(Stmt):
    cond: Node
    then: Node
    otherwise: Node | None
    is_constexpr: bool = False


@dataclass(slots=True)
class For(Stmt):
    init: Node | None
    cond: Expr | None
    step: Expr | None
    body: Node


@dataclass(slots=True)
class RangeFor(Stmt):
    var: Declarator
    range: Node
    body: Node


@dataclass(slots=True)
class While(Stmt):
    cond: Node
    body: Node


@dataclass(slots=True)
class DoWhile(Stmt):
    body: Node
    cond: Expr


@dataclass(slots=True)
class Switch(Stmt):
    cond: Node
    body: Node


@dataclass(slots=True)
class Case(Stmt):
    value: Expr | None  # None for `default:`


@dataclass(slots=True)
class Try(Stmt):
    body: "Compound"
    handlers: list["Catch"]


@dataclass(slots=True)
class Catch(Stmt):
    param: "Param | None"  # None for catch (...)
    body: "Compound"


@dataclass(slots=True)
class Break(Stmt):
    pass


@dataclass(slots=True)
class Continue(Stmt):
    pass


@dataclass(slots=True)
class Return(Stmt):
    value: Node | None


@dataclass(slots=True)
class Goto(Stmt):
    label: str


@dataclass(slots=True)
class Label(Stmt):
    name: str


@dataclass(slots=True)
class NullStmt(Stmt):
    pass


# ------------------------------------------------------------------ declarations


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


def dump(node: object, indent: int = 0, with_spans: bool = True) -> str:
    """A readable, stable text form of a tree (what `ascendc-check --dump-ast` prints)."""
    pad = "  " * indent
    if isinstance(node, Node):
        where = f" @{node.span.line}:{node.span.col}-{node.span.end_line}:{node.span.end_col}" if with_spans else ""
        head = f"{pad}{type(node).__name__}{where}"
        scalars: list[str] = []
        nested: list[str] = []
        for f in fields(node):
            if f.name == "span":
                continue
            value = getattr(node, f.name)
            if isinstance(value, Node):
                nested.append(f"{pad}  {f.name}:\n{dump(value, indent + 2, with_spans)}")
            elif isinstance(value, list) and any(isinstance(v, Node) for v in value):
                items = "\n".join(dump(v, indent + 2, with_spans) for v in value)
                nested.append(f"{pad}  {f.name}:\n{items}")
            elif value not in (None, [], "", False):
                scalars.append(f"{f.name}={value!r}")
        line = head + (" " + " ".join(scalars) if scalars else "")
        return "\n".join([line, *nested])
    return f"{pad}{node!r}"
