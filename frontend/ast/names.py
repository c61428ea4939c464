"""Names and written types: qualified names with their template arguments, and TypeRef, a type as the source
writes it (base, qualifiers, address space, pointers, array dimensions)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Union

from frontend.ast.node import Node

if TYPE_CHECKING:  # annotations only (strings at run time): the modules refer to each other
    from frontend.ast.expressions import Expr


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
