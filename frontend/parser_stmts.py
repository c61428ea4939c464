"""AST building for statements: blocks, if / switch (with init-statements), loops, jumps, labels, the vendor's
macro conditions, try / catch.
"""

from __future__ import annotations

from typing import Any

from lark import Token

from frontend import ast as A
from frontend.parser_parts import DeclSpec, Declarator, InitStatement, nodes_of, token_of


class StatementBuilder:
    """AST building for statements: methods of AstBuilder (parser.py), which inherits them."""

    # -- statements
    def compound(self, c: list[Any]) -> A.Compound:
        return A.Compound(self.span(c), nodes_of(c))

    def if_stmt(self, c: list[Any]) -> A.If:
        is_constexpr = token_of(c[:2], "CONSTEXPR") is not None
        parts = [x for x in c if isinstance(x, A.Node)]
        cond, then = parts[0], parts[1]
        otherwise = parts[2] if len(parts) > 2 else None
        node = A.If(self.span(c), cond, then, otherwise, is_constexpr)
        init = next((x.statement for x in c if isinstance(x, InitStatement)), None)
        return node if init is None else A.Compound(node.span, [init, node])

    def init_statement(self, c: list[Any]) -> InitStatement:
        return InitStatement(c[0])

    def condition(self, c: list[Any]) -> Any:
        return c[0]

    def macro_condition(self, c: list[Any]) -> A.Call:
        return self.call([self.id_expr(c[:1]), c[1], c[2]])

    def macro_flag(self, c: list[Any]) -> A.MacroFlag:
        name = self.id_expr(c[:1])
        return A.MacroFlag(name.span, name.qname)

    def decl_condition(self, c: list[Any]) -> A.VarDecl:
        spec: DeclSpec = c[0]
        ptrs = next((x for x in c if isinstance(x, tuple) and x and x[0] == "ptrs"), None)
        name = next(x for x in c[1:] if isinstance(x, Token) and x.type in ("IDENTIFIER", "TYPE_NAME"))
        d = Declarator(name.value, list(ptrs[1]) if ptrs else [], [], [], c[-1], "=", self.span(c[1:]))
        return A.VarDecl(self.span(c), spec.specifiers, [self._declarator(spec, d)])

    def for_stmt(self, c: list[Any]) -> A.For:
        # c = [FOR, init, cond|None, step|None, body]
        return A.For(self.span(c), c[1], c[2], c[3], c[4])

    def range_for_stmt(self, c: list[Any]) -> A.RangeFor:
        spec: DeclSpec = c[1]
        ptrs = next((x for x in c if isinstance(x, tuple) and x and x[0] == "ptrs"), None)
        name = next((x for x in c[2:] if isinstance(x, Token) and x.type in ("IDENTIFIER", "TYPE_NAME")), None)
        if name is None:  # `for (auto& [key, value] : table)`: the loop variable is the unnamed element
            bound = [x for x in c if isinstance(x, Declarator)]
            d = Declarator("", list(ptrs[1]) if ptrs else [], [], [], None, "", self.span(bound))
        else:
            d = Declarator(name.value, list(ptrs[1]) if ptrs else [], [], [], None, "", self.span([name]))
        return A.RangeFor(self.span(c), self._declarator(spec, d), c[-2], c[-1])

    def while_stmt(self, c: list[Any]) -> A.While:
        return A.While(self.span(c), c[1], c[2])

    def do_stmt(self, c: list[Any]) -> A.DoWhile:
        return A.DoWhile(self.span(c), c[1], c[3])

    def switch_stmt(self, c: list[Any]) -> A.Switch:
        if isinstance(c[1], InitStatement):
            return A.Compound(self.span(c), [c[1].statement, A.Switch(self.span(c), c[2], c[3])])
        return A.Switch(self.span(c), c[1], c[2])

    def case_label(self, c: list[Any]) -> A.Case:
        return A.Case(self.span(c), c[1])

    def default_label(self, c: list[Any]) -> A.Case:
        return A.Case(self.span(c), None)

    def break_stmt(self, c: list[Any]) -> A.Break:
        return A.Break(self.span(c))

    def continue_stmt(self, c: list[Any]) -> A.Continue:
        return A.Continue(self.span(c))

    def return_stmt(self, c: list[Any]) -> A.Return:
        return A.Return(self.span(c), c[1] if len(c) > 1 else None)

    def goto_stmt(self, c: list[Any]) -> A.Goto:
        return A.Goto(self.span(c), str(c[1]))

    def label_stmt(self, c: list[Any]) -> A.Label:
        return A.Label(self.span(c), str(c[0]))

    def expr_stmt(self, c: list[Any]) -> A.ExprStmt:
        return A.ExprStmt(self.span(c), c[0])

    def null_stmt(self, c: list[Any]) -> A.NullStmt:
        return A.NullStmt(self.span(c))

    def attributed_stmt(self, c: list[Any]) -> A.Node:
        return c[-1]  # `[[likely]]` and the like say nothing the checks use

    def try_stmt(self, c: list[Any]) -> A.Try:
        return A.Try(self.span(c), c[1], nodes_of(c[2:], A.Catch))

    def handler(self, c: list[Any]) -> A.Catch:
        return A.Catch(self.span(c), c[1] if isinstance(c[1], A.Param) else None, c[-1])
