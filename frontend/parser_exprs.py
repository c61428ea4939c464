"""AST building for expressions: operators (binary chains by precedence), casts, sizeof / noexcept, new /
delete, calls (the empty arguments macros allow), kernel launches, members, folds and pack expansions,
literals, names, lambdas and braced initialisers.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from lark import Token

from frontend import ast as A
from frontend.diagnostics import LazySpan
from frontend.parser_parts import Declarator, nodes_of, parse_float, parse_int, token_of


_MACRO_NAME_RE = re.compile(r"[A-Z][A-Z0-9_]*")  # a callee named so is taken for a macro


class ExpressionBuilder:
    """AST building for expressions: methods of AstBuilder (parser.py), which inherits them."""

    # -- expressions
    def comma_expr(self, c: list[Any]) -> A.Comma:
        return A.Comma(self.span(c), c[0], c[1])

    def assign(self, c: list[Any]) -> A.Assign:
        op = str(c[1])
        return A.Assign(self.span(c), _ALTERNATIVE_ASSIGN.get(op, op), c[0], c[2])

    def throw_expr(self, c: list[Any]) -> A.Throw:
        return A.Throw(self.span(c), c[1] if len(c) > 1 else None)

    def conditional(self, c: list[Any]) -> A.Conditional:
        return A.Conditional(self.span(c), c[0], c[1], c[2])

    def binary_expr(self, c: list[Any]) -> A.Expr:
        """Group `a op b op c ...` by C++ precedence (all binary operators here associate to the left)."""
        operands: list[A.Expr] = c[0::2]
        # Spelled by token type, so that `and` is `&&` (and no slower than str(op)).
        operators: list[str] = [_OPERATOR_TEXT[op.type] for op in c[1::2]]
        position = 0

        def climb(min_prec: int) -> A.Expr:
            nonlocal position
            lhs = operands[position]
            while position < len(operators) and _PRECEDENCE[operators[position]] >= min_prec:
                op = operators[position]
                position += 1
                rhs = climb(_PRECEDENCE[op] + 1)
                lhs = A.Binary(lhs.span.cover(rhs.span), op, lhs, rhs)
            return lhs

        return climb(0)

    targ_binary = binary_expr

    def c_cast(self, c: list[Any]) -> A.Cast:
        return A.Cast(self.span(c), "c", c[1], c[2])

    def compound_literal(self, c: list[Any]) -> A.Cast:
        # `(T){0}` builds a T from the braces, as `T{0}` does: the same node.
        return A.Cast(self.span(c), "functional", c[1], c[2], [c[2]])

    def pre_incdec(self, c: list[Any]) -> A.IncDec:
        return A.IncDec(self.span(c), str(c[0]), c[1], True)

    def post_incdec(self, c: list[Any]) -> A.IncDec:
        return A.IncDec(self.span(c), str(c[1]), c[0], False)

    def unary(self, c: list[Any]) -> A.Unary:
        return A.Unary(self.span(c), _OPERATOR_TEXT[c[0].type], c[1])

    def sizeof_expr(self, c: list[Any]) -> A.SizeOf:
        return A.SizeOf(self.span(c), c[1])

    def sizeof_type(self, c: list[Any]) -> A.SizeOf:
        return A.SizeOf(self.span(c), c[1], str(c[0]))

    def sizeof_elaborated(self, c: list[Any]) -> A.SizeOf:
        type_ref, _ = self._elaborated_type(c[1:])  # `sizeof(struct Name)`
        return A.SizeOf(self.span(c), type_ref, str(c[0]))

    def noexcept_expr(self, c: list[Any]) -> A.Noexcept:
        return A.Noexcept(self.span(c), c[1])

    def sizeof_pack(self, c: list[Any]) -> A.SizeOf:
        return A.SizeOf(self.span(c), A.Name(self.span(c[-1:]), A.QualifiedName(self.span(c[-1:]), [A.NamePart(self.span(c[-1:]), str(c[-1]))])), "sizeof...")

    def new_expr(self, c: list[Any]) -> A.New:
        t: A.TypeRef = c[1]
        d = next((x for x in c if isinstance(x, Declarator)), None)
        if d is not None:
            t = replace(t, pointers=t.pointers + d.pointers, array_dims=t.array_dims + d.dims)
        args = next((x for x in c[2:] if isinstance(x, list)), [])
        init = next((x for x in c[2:] if isinstance(x, A.InitList)), None)
        return A.New(self.span(c), t, [init] if init else args)

    def delete_expr(self, c: list[Any]) -> A.Delete:
        return A.Delete(self.span(c), c[-1], len(c) > 2)

    def index(self, c: list[Any]) -> A.Index:
        return A.Index(self.span(c), c[0], c[1])

    def call(self, c: list[Any]) -> A.Call:
        args = c[1] if isinstance(c[1], list) else []
        callee = c[0]
        if isinstance(callee, A.Name) and _MACRO_NAME_RE.fullmatch(callee.name):
            self._forgive_missing_args(args)
        return A.Call(self.span(c), callee, args)

    def kernel_launch(self, c: list[Any]) -> A.KernelLaunch:
        config = c[2]
        args = c[4] if isinstance(c[4], list) else []
        return A.KernelLaunch(self.span(c), c[0], config, args)

    def member(self, c: list[Any]) -> A.Member:
        name, targs = c[2]
        return A.Member(self.span(c), c[0], name, str(c[1]) == "->", targs)

    def qualified_member(self, c: list[Any]) -> A.Node:
        # `this->Base<T>::Init(a)` calls the base's Init, as `Base<T>::Init(a)` does; on another object the
        # qualifier only picks the base whose member is meant, which later stages do not tell apart
        name, targs = c[3]
        if isinstance(c[0], A.This):
            span = self.span(c)
            return A.Name(span, A.QualifiedName(span, [*c[2], A.NamePart(span, name, targs)]))
        return A.Member(self.span(c), c[0], name, str(c[1]) == "->", targs)

    def member_name(self, c: list[Any]) -> tuple[str, list[A.TemplateArg] | None]:
        if isinstance(c[0], Token) and c[0].type == "TILDE":
            return ("~" + str(c[1]), None)
        toks = [x for x in c if isinstance(x, Token) and x.type != "TEMPLATE"]
        targs = next((x for x in c if isinstance(x, list)), None)
        if toks[0].type == "OPERATOR":  # `x.operator[](0)`: the operator's name, as its declaration has it
            return ("operator" + next(x for x in c if isinstance(x, str) and not isinstance(x, Token)), targs)
        return (str(toks[0]), targs)

    def named_cast(self, c: list[Any]) -> A.Cast:
        return A.Cast(self.span(c), str(c[0]), c[2], c[4])

    def functional_cast(self, c: list[Any]) -> A.Cast:
        t: A.TypeRef = c[0]
        if isinstance(c[1], A.InitList):
            return A.Cast(self.span(c), "functional", t, c[1], [c[1]])
        args = c[1] if isinstance(c[1], list) else []
        return A.Cast(self.span(c), "functional", t, args[0] if len(args) == 1 else None, args)

    def call_args(self, c: list[Any]) -> list[Any]:
        args = [x for x in c if not isinstance(x, Token)]
        if len(args) * 2 - 1 != len(c):
            # A comma with no argument after it, or a lone `;` (an empty statement handed to a macro).
            missing = [tok.start_pos if tok.type == "EMPTY_STATEMENT_ARG" else tok.end_pos for i, tok in enumerate(c)
                       if isinstance(tok, Token) and (tok.type == "EMPTY_STATEMENT_ARG" or i + 1 == len(c)
                                                      or (isinstance(c[i + 1], Token) and c[i + 1].type == "COMMA"))]
            self.missing_args.extend(missing)
            self._last_missing = (args, missing)
        return args

    def _forgive_missing_args(self, args: Any) -> None:
        """A macro's arguments may be empty: take back what call_args reported for `args`. (The LALR parser
        reduces an argument list right before the call or macro that holds it, so the last list call_args
        built is this one's when it is `args`.)"""
        if self._last_missing is not None and self._last_missing[0] is args:
            for offset in self._last_missing[1]:
                self.missing_args.remove(offset)
            self._last_missing = None

    def fold_expr(self, c: list[Any]) -> A.Fold:
        # c: LPAR, then `... op e` or `e op ... [op e]`, then RPAR
        inner = c[1:-1]
        if isinstance(inner[0], Token) and inner[0].type == "ELLIPSIS":
            return A.Fold(self.span(c), _fold_operator(inner[1]), None, inner[2])
        rhs = inner[4] if len(inner) > 4 else None
        return A.Fold(self.span(c), _fold_operator(inner[1]), inner[0], rhs)

    def pack_expansion(self, c: list[Any]) -> A.PackExpansion:
        return A.PackExpansion(self.span(c), c[0])

    def type_arg(self, c: list[Any]) -> A.TypeArgExpr:
        return A.TypeArgExpr(self.span(c), c[0])

    def int_lit(self, c: list[Any]) -> A.IntLit:
        return A.IntLit(self.span(c), c[0].value, parse_int(c[0].value))

    def float_lit(self, c: list[Any]) -> A.FloatLit:
        return A.FloatLit(self.span(c), c[0].value, parse_float(c[0].value))

    def string_lit(self, c: list[Any]) -> A.StringLit:
        return A.StringLit(self.span(c), "".join(_unquote(t.value) for t in c))

    def char_lit(self, c: list[Any]) -> A.CharLit:
        return A.CharLit(self.span(c), c[0].value)

    def bool_lit(self, c: list[Any]) -> A.BoolLit:
        return A.BoolLit(self.span(c), c[0].value == "true")

    def nullptr_lit(self, c: list[Any]) -> A.NullLit:
        return A.NullLit(self.span(c))

    def this_expr(self, c: list[Any]) -> A.This:
        return A.This(self.span(c))

    def paren(self, c: list[Any]) -> Any:
        return c[1]

    def global_id_expr(self, c: list[Any]) -> A.Name:
        nested = c[0] if isinstance(c[0], list) else []
        if isinstance(c[-1], list):  # a template's name and its arguments
            last = A.NamePart(self.span(c[-2:]), str(c[-2]), c[-1])
        else:
            last = A.NamePart(self.span(c[-1:]), str(c[-1]))
        parts = [A.NamePart(self.span(c), "", None), *nested, last]
        return A.Name(self.span(c), A.QualifiedName(self.span(c), parts))

    def id_expr(self, c: list[Any]) -> A.Name:
        if len(c) == 1:
            # A plain name, most expressions' leaves: the name, its one part and the expression share
            # one span (spans are never changed in place, so nodes may share them).
            name = c[0]
            span = LazySpan(name.start_pos, name.end_pos, self._origin)
            return A.Name(span, A.QualifiedName(span, [A.NamePart(span, str(name), None)]))
        nested: list[A.NamePart] = c[0] if isinstance(c[0], list) else []
        rest = [x for x in (c[1:] if nested else c) if not (isinstance(x, Token) and x.type == "TEMPLATE")]
        if isinstance(rest[0], Token) and rest[0].type == "OPERATOR":
            targs = rest[2] if len(rest) > 2 and isinstance(rest[2], list) else None
            part = A.NamePart(self.span(rest), "operator" + str(rest[1]), targs)
        else:
            targs = rest[1] if len(rest) > 1 else None
            part = A.NamePart(self.span(rest), str(rest[0]), targs)
        span = self.span(c)
        return A.Name(span, A.QualifiedName(span, [*nested, part]))

    def lambda_(self, c: list[Any]) -> A.Lambda:
        captures = [x for x in c if isinstance(x, str) and not isinstance(x, Token)]
        returns = nodes_of(c, A.TypeRef)  # (parameter types are inside their Params)
        return A.Lambda(self.span(c), captures, nodes_of(c, A.Param), c[-1], returns[0] if returns else None)

    def lambda_param(self, c: list[Any]) -> A.Param:
        variadic = token_of(c, "ELLIPSIS") is not None
        name = next((x for x in c[1:] if isinstance(x, Token) and x.type != "ELLIPSIS"), None)
        return A.Param(self.span(c), c[0], str(name) if name is not None else None, None, variadic)

    def lambda_capture(self, c: list[Any]) -> str:
        return "".join(str(x) for x in c if isinstance(x, Token)) or "="

    def braced_init(self, c: list[Any]) -> A.InitList:
        return A.InitList(self.span(c), [x for x in c if isinstance(x, A.Node)])

    def designated_init(self, c: list[Any]) -> A.DesignatedInit:
        return A.DesignatedInit(self.span(c), str(c[0]), c[-1])


# The operator tokens by terminal name: C++'s alternative spellings (`and`, `not` ...) are keywords that
# the post-lexer gives the same terminals (see _ALTERNATIVE_TOKENS), and the AST spells them as usual.
_OPERATOR_TEXT = {"OROR": "||", "ANDAND": "&&", "BAR": "|", "CARET": "^", "AMP": "&", "EQEQ": "==", "NE": "!=",
                  "LT": "<", "GT": ">", "LE": "<=", "GE": ">=", "SHL": "<<", "SHR": ">>", "PLUS": "+", "MINUS": "-",
                  "STAR": "*", "SLASH": "/", "PERCENT": "%", "BANG": "!", "TILDE": "~", "ARROW_STAR": "->*",
                  "DOT_STAR": ".*"}
_ALTERNATIVE_ASSIGN = {"and_eq": "&=", "or_eq": "|=", "xor_eq": "^="}
_PRECEDENCE = {"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6, "<": 7, ">": 7, "<=": 7, ">=": 7,
               "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10, "->*": 11, ".*": 11}


def _fold_operator(tok: Token) -> str:
    """A fold's operator as written (FOLD_COMMA and FOLD_ASSIGN are the operator's text)."""
    return _OPERATOR_TEXT.get(tok.type) or _ALTERNATIVE_ASSIGN.get(tok.value, tok.value)


def _unquote(literal: str) -> str:
    start = literal.index('"')
    body = literal[start + 1 : -1]
    if literal[:start].endswith("R"):
        return body[body.index("(") + 1 : body.rindex(")")]
    return body
