"""Expression nodes: literals, names, operators, calls (kernel launches included), casts, initialiser lists,
lambdas, folds."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Union

from frontend.ast.node import Node

if TYPE_CHECKING:  # annotations only (strings at run time): the modules refer to each other
    from frontend.ast.declarations import Param
    from frontend.ast.names import QualifiedName, TemplateArg, TypeRef
    from frontend.ast.statements import Compound


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
