"""The AST builder's intermediate values (declaration specifiers, declarators, class heads, ...), the
origin-map type, and helpers on a rule's children and literal text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from lark import Token

from frontend import ast as A
from frontend.diagnostics import Span


OriginFn = Callable[[int], tuple[str, int, int]]


@dataclass
class Prefixes:
    words: list[str]
    span: Span


@dataclass
class Alignas:
    """`alignas(8)` among a class head's attributes: the alignment, an integer constant."""

    value: int


@dataclass
class ClassHead:
    key: str
    name: str | None
    spec_args: list[A.TemplateArg] | None
    bases: list[A.TypeRef]
    span: Span
    align: int | None = None


@dataclass
class DeclSpec:
    specifiers: list[str]
    type: A.TypeRef
    span: Span


@dataclass
class Declarator:
    name: str
    pointers: list[str]
    pointer_quals: list[str]
    dims: list[Any]
    init: Any
    style: str
    span: Span
    ctor_args: list[Any] = field(default_factory=list)
    pointers_to_array: int = 0  # `(*p)[N]`: the pointers bind to the array (TypeRef.pointers_to_array)


@dataclass
class InitStatement:
    """The init-statement of `if (init; cond)` / `switch (init; cond)`, told apart from the condition. The AST
    holds such a statement as C++ defines it: `{ init; if (cond) ... }`, a block around the two."""

    statement: Any


@dataclass
class FnDeclarator:
    name: A.QualifiedName
    pointers: list[str]
    params: list[A.Param]
    qualifiers: list[str]
    trailing_return: A.TypeRef | None
    span: Span
    kind: str = "function"


def tokens_of(children: Sequence[Any], *types: str) -> list[Token]:
    return [c for c in children if isinstance(c, Token) and c.type in types]


def token_of(children: Sequence[Any], *types: str) -> Token | None:
    for c in children:
        if isinstance(c, Token) and c.type in types:
            return c
    return None


def nodes_of(children: Sequence[Any], cls: type = A.Node) -> list[Any]:
    return [c for c in children if isinstance(c, cls)]


def parse_int(text: str) -> int:
    digits = text.replace("'", "").rstrip("uUlLzZ")
    try:
        if digits[:2] in ("0x", "0X"):
            return int(digits[2:], 16)
        if digits[:2] in ("0b", "0B"):
            return int(digits[2:], 2)
        if len(digits) > 1 and digits[0] == "0":
            return int(digits, 8)
        return int(digits)
    except ValueError:
        return 0


def parse_float(text: str) -> float:
    t = text.rstrip("fFlL") if not text.lower().startswith("0x") else text.rstrip("lL")
    try:
        return float.fromhex(t) if t.lower().startswith("0x") else float(t)
    except (ValueError, OverflowError):
        return float("inf")  # `0x1p1024` overflows double; the verifier can flag the literal
