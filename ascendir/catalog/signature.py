"""The catalog's signature language: a small C++-like notation, tokenized and parsed by hand.

    signature  := [ "<" tparam ("," tparam)* ">" ] "(" [ param ("," param)* ] ")" [ "->" type ]
    tparam     := NAME [ ":" CTYPE ] [ "=" DEFAULT ]        # no ":" means typename
    param      := NAME ":" type [ "=" DEFAULT ]
    type       := [ "__gm__" ] NAME [ "<" type ("," type)* ">" ] [ "*" ] [ "[" [INT] "]" ] [ "@" positions ]
    positions  := "VEC" | "Q" | TPOSITION | "{" TPOSITION ("," TPOSITION)* "}"

`@VEC` is VECIN|VECOUT|VECCALC; `@Q` is "the receiver's position" (a queue's, a buffer's or a tensor's).
Default values are kept as raw text. See README.md for the kinds a type maps to.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NoReturn

from ascendir.catalog.model import VEC_POSITIONS, Param, TypeParam

__all__ = ["SignatureError", "TypeContext", "parse_signature", "parse_type_params"]

_TOKEN = re.compile(
    r"\s*(?:(?P<arrow>->)|(?P<name>[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*)|(?P<number>-?\d+(?:\.\d+)?[A-Za-z]*)|(?P<punct>\S))"
)
_TENSOR_CLASSES = {"LocalTensor": "local_tensor", "GlobalTensor": "global_tensor"}


class SignatureError(ValueError):
    """A signature text that does not parse or names an unknown type."""


@dataclass(frozen=True)
class TypeContext:
    """The names a signature may use, supplied by the loader."""

    canonical_type: Callable[[str], str | None]  # element-type spelling -> canonical name, None if not one
    structs: Mapping[str, tuple[str, ...]]  # struct name -> its type parameters
    enums: frozenset[str]
    classes: frozenset[str]
    positions: frozenset[str]


@dataclass(slots=True)
class _Tok:
    kind: str
    text: str
    start: int
    end: int


@dataclass
class _TypeExpr:
    name: str
    args: list[_TypeExpr]
    pointer: bool = False
    array_len: int | None = None  # -1 for `[]`
    gm: bool = False
    positions: frozenset[str] | None = None
    receiver_position: bool = False
    output: bool = False

    def text(self) -> str:
        out = ("__gm__ " if self.gm else "") + self.name
        if self.args:
            out += "<" + ", ".join(arg.text() for arg in self.args) + ">"
        if self.pointer:
            out += "*"
        if self.array_len is not None:
            out += f"[{self.array_len}]" if self.array_len >= 0 else "[]"
        return out


def _tokenize(text: str) -> list[_Tok]:
    tokens = []
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup or "punct"
        tokens.append(_Tok(kind, match.group(kind), match.start(kind), match.end()))
    tokens.append(_Tok("eof", "", len(text), len(text)))
    return tokens


class _Parser:
    def __init__(self, text: str, ctx: TypeContext, outer_type_vars: frozenset[str]) -> None:
        self.text = text
        self.ctx = ctx
        self.tokens = _tokenize(text)
        self.i = 0
        self.type_vars = set(outer_type_vars)
        self.value_params: set[str] = set()

    # -- tokens

    def peek(self) -> _Tok:
        return self.tokens[self.i]

    def next(self) -> _Tok:
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def accept(self, text: str) -> bool:
        if self.peek().text == text and self.peek().kind != "eof":
            self.i += 1
            return True
        return False

    def expect(self, text: str) -> None:
        if not self.accept(text):
            self.fail(f"expected '{text}'")

    def name(self) -> str:
        tok = self.next()
        if tok.kind != "name":
            self.i -= 1
            self.fail("expected a name")
        return tok.text

    def fail(self, message: str) -> NoReturn:
        tok = self.peek()
        found = tok.text or "end of text"
        raise SignatureError(f"{message} at column {tok.start + 1} (found '{found}') in '{self.text}'")

    def default(self, closers: str) -> str:
        """Raw text up to the next `,` or closer at bracket depth 0."""
        depth = 0
        start = self.peek().start
        while True:
            tok = self.peek()
            if tok.kind == "eof":
                self.fail("unterminated default value")
            if depth == 0 and (tok.text == "," or tok.text in closers):
                break
            if tok.text in "({<[":
                depth += 1
            elif tok.text in ")}>]":
                depth -= 1
            self.i += 1
        text = self.text[start : self.tokens[self.i - 1].end].strip()
        if not text:
            self.fail("empty default value")
        return text

    # -- grammar

    def type_params(self) -> tuple[TypeParam, ...]:
        params: list[TypeParam] = []
        if not self.accept("<"):
            return ()
        if self.accept(">"):
            return ()
        while True:
            name = self.name()
            kind = "typename"
            if self.accept(":"):
                kind = self.name()
                self.check_value_kind(kind)
            default = self.default(">") if self.accept("=") else None
            if any(p.name == name for p in params):
                self.fail(f"template parameter '{name}' declared twice")
            params.append(TypeParam(name, kind, default))
            (self.type_vars if kind == "typename" else self.value_params).add(name)
            if not self.accept(","):
                break
        self.expect(">")
        return tuple(params)

    def check_value_kind(self, kind: str) -> None:
        if kind in {"typename", "auto"} or kind in self.ctx.enums or kind in self.ctx.structs:
            return
        if self.ctx.canonical_type(kind) is None:
            self.fail(f"unknown non-type template parameter type '{kind}'")

    def type_expr(self) -> _TypeExpr:
        gm = False
        if self.peek().text == "__gm__":
            self.next()
            gm = True
        name = self.name()
        args: list[_TypeExpr] = []
        if self.accept("<"):
            while True:
                args.append(self.type_expr())
                if not self.accept(","):
                    break
            self.expect(">")
        expr = _TypeExpr(name, args, gm=gm)
        expr.pointer = self.accept("*")
        expr.output = self.accept("&")
        if self.accept("["):
            expr.array_len = -1
            if self.peek().kind == "number":
                expr.array_len = int(self.next().text)
            self.expect("]")
        if self.accept("@"):
            if self.accept("{"):
                names = [self.position()]
                while self.accept(","):
                    names.append(self.position())
                self.expect("}")
                expr.positions = frozenset(names)
            elif self.peek().text == "Q":
                self.next()
                expr.receiver_position = True
            elif self.peek().text == "VEC":
                self.next()
                expr.positions = VEC_POSITIONS
            else:
                expr.positions = frozenset({self.position()})
        return expr

    def position(self) -> str:
        name = self.name()
        if name not in self.ctx.positions:
            self.i -= 1
            self.fail(f"unknown TPosition '{name}'")
        return name

    def elem_of(self, expr: _TypeExpr, what: str) -> str:
        """A type variable or canonical element type, from a type used as an element type."""
        if expr.args or expr.pointer or expr.array_len is not None:
            self.fail(f"{what} must be a type variable or an element type, not '{expr.text()}'")
        if expr.name in self.type_vars:
            return expr.name
        canonical = self.ctx.canonical_type(expr.name)
        if canonical is None:
            self.fail(f"{what} '{expr.name}' is neither a declared type variable nor an element type")
        return canonical

    def make_param(self, name: str, expr: _TypeExpr, default: str | None) -> Param:
        kind, elem, type_name = self.classify(expr)
        if (expr.positions is not None or expr.receiver_position) and kind != "local_tensor":
            self.fail(f"positions only apply to LocalTensor, not '{expr.text()}'")
        if expr.output and kind != "scalar":
            self.fail(f"only scalars are marked as outputs ('&'), not '{expr.text()}'")
        array_len = expr.array_len if expr.array_len is not None and expr.array_len >= 0 else None
        return Param(
            name=name,
            type_text=expr.text(),
            kind=kind,
            elem=elem,
            positions=expr.positions,
            default=default,
            type_name=type_name,
            array_len=array_len,
            receiver_position=expr.receiver_position,
            output=expr.output,
        )

    def classify(self, expr: _TypeExpr) -> tuple[str, str | None, str | None]:
        if expr.name in self.value_params:
            self.fail(f"'{expr.name}' is a non-type template parameter, not a type")
        base = _TypeExpr(expr.name, expr.args)
        if expr.array_len is not None:
            if expr.name in self.ctx.structs or expr.name in self.ctx.classes:
                return "pointer", None, expr.name
            elem = self.elem_of(base, "array element type")
            return ("mask_array" if elem == "uint64_t" else "pointer"), elem, None
        if expr.pointer:
            if expr.name in self.ctx.structs or expr.name in self.ctx.classes:
                return "pointer", None, expr.name
            return "pointer", self.elem_of(base, "pointee"), None
        if expr.name in _TENSOR_CLASSES:
            if len(expr.args) != 1:
                self.fail(f"{expr.name} takes one element type")
            return _TENSOR_CLASSES[expr.name], self.elem_of(expr.args[0], "tensor element type"), None
        if expr.name in self.ctx.structs:
            wanted = self.ctx.structs[expr.name]
            if len(expr.args) != len(wanted):
                self.fail(f"struct {expr.name} takes {len(wanted)} template argument(s)")
            struct_elem = self.elem_of(expr.args[0], "struct template argument") if expr.args else None
            return "struct", struct_elem, expr.name
        if expr.args:
            self.fail(f"'{expr.name}' takes no template arguments")
        if expr.name in self.ctx.enums:
            return "enum", None, expr.name
        if expr.name in self.ctx.classes:
            return "object", None, expr.name
        if expr.name in self.type_vars:
            return "scalar", expr.name, None
        canonical = self.ctx.canonical_type(expr.name)
        if canonical is None:
            self.fail(f"unknown type '{expr.name}'")
        return "scalar", canonical, None

    def signature(self) -> tuple[tuple[TypeParam, ...], tuple[Param, ...], Param | None]:
        tparams = self.type_params()
        self.expect("(")
        params: list[Param] = []
        if not self.accept(")"):
            while True:
                name = self.name()
                self.expect(":")
                expr = self.type_expr()
                default = self.default(")") if self.accept("=") else None
                if any(p.name == name for p in params):
                    self.fail(f"parameter '{name}' declared twice")
                if default is None and params and params[-1].default is not None:
                    self.fail(f"parameter '{name}' without a default follows one with a default")
                params.append(self.make_param(name, expr, default))
                if not self.accept(","):
                    break
            self.expect(")")
        returns = None
        if self.peek().kind == "arrow":
            self.next()
            returns = self.make_param("return", self.type_expr(), None)
        if self.peek().kind != "eof":
            self.fail("unexpected text after the signature")
        return tparams, tuple(params), returns


def parse_signature(
    text: str, ctx: TypeContext, outer_type_vars: frozenset[str] = frozenset()
) -> tuple[tuple[TypeParam, ...], tuple[Param, ...], Param | None]:
    """Template parameters, parameters and return type of a signature. `outer_type_vars` are the
    receiving class's type variables (GlobalTensor's `T`), usable without being declared."""
    return _Parser(text, ctx, outer_type_vars).signature()


def parse_type_params(text: str, ctx: TypeContext) -> tuple[TypeParam, ...]:
    """A bare template-parameter list such as `<pos: TPosition, depth: int32_t>` (empty text -> ())."""
    if not text.strip():
        return ()
    parser = _Parser(text, ctx, frozenset())
    params = parser.type_params()
    if parser.peek().kind != "eof":
        parser.fail("unexpected text after the template parameters")
    return params
