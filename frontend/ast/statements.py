"""Statement nodes: blocks, variable declarations and their declarators, control flow, try/catch, jumps."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from frontend.ast.node import Node

if TYPE_CHECKING:  # annotations only (strings at run time): the modules refer to each other
    from frontend.ast.declarations import Param
    from frontend.ast.expressions import Expr, InitList
    from frontend.ast.names import TypeRef


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


# The specifier word of a variable each core has its own copy of: asc-devkit kernel_macros.h's `__BLOCK_LOCAL__`,
# the compiler's `[[block_local]]` (ops-nn's Matmul callbacks keep their state in such a namespace-scope struct).
BLOCK_LOCAL = "[[block_local]]"


@dataclass(slots=True)
class VarDecl(Stmt):
    specifiers: list[str]  # storage and function specifiers, and BLOCK_LOCAL
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
