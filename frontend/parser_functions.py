"""AST building for functions: definitions and declarations, function declarators, constructors and
destructors with their initialisers, parameters, declarator names, conversion functions and operators.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from lark import Token

from frontend import ast as A
from frontend.parser_parts import DeclSpec, Declarator, FnDeclarator, Prefixes, nodes_of, token_of, tokens_of


class FunctionBuilder:
    """AST building for functions: methods of AstBuilder (parser.py), which inherits them."""

    # -- functions
    def function_def(self, c: list[Any]) -> A.FunctionDecl:
        spec: DeclSpec = c[0]
        fn: FnDeclarator = c[1]
        inits = next((x for x in c if isinstance(x, tuple)), ())
        body = c[-1]
        return self._function(c, spec, fn, body, list(inits))

    def function_decl(self, c: list[Any]) -> A.FunctionDecl:
        return self._function(c, c[0], c[1], None, [])

    def _function(self, c: list[Any], spec: DeclSpec, fn: FnDeclarator, body: Any, inits: list[Any]) -> A.FunctionDecl:
        ret = spec.type
        if fn.pointers:
            ret = replace(ret, pointers=ret.pointers + fn.pointers)
        if fn.trailing_return is not None:
            ret = fn.trailing_return
        return A.FunctionDecl(self.span(c), fn.name, ret, fn.params, body, spec.specifiers, fn.kind,
                              inits, fn.qualifiers)

    def fn_declarator(self, c: list[Any]) -> FnDeclarator:
        ptrs = next((x for x in c if isinstance(x, tuple) and x and x[0] == "ptrs"), None)
        name: A.QualifiedName = next(x for x in c if isinstance(x, A.QualifiedName))
        params = next((x for x in c if isinstance(x, list)), [])
        quals = [str(x) for x in c if isinstance(x, Token) and x.type in ("CV", "NOEXCEPT", "OVERRIDE", "FINAL")]
        trailing = next((x for x in c if isinstance(x, A.TypeRef)), None)
        kind = "operator" if name.name.startswith("operator") else "function"
        return FnDeclarator(name, list(ptrs[1]) if ptrs else [], params, quals, trailing, self.span(c), kind)

    def fn_suffix(self, c: list[Any]) -> Token:
        return c[0]

    def _ctor(self, c: list[Any], kind: str) -> A.FunctionDecl:
        prefixes = next((x for x in c if isinstance(x, Prefixes)), None)
        name = next(x for x in c if isinstance(x, A.QualifiedName))
        params = next((x for x in c if isinstance(x, list)), [])
        inits = next((list(x) for x in c if isinstance(x, tuple) and (not x or isinstance(x[0], A.MemberInit))), [])
        body = c[-1] if isinstance(c[-1], A.Compound) else None
        return A.FunctionDecl(self.span(c), name, None, params, body, prefixes.words if prefixes else [], kind, inits)

    def ctor_def(self, c: list[Any]) -> A.FunctionDecl:
        return self._ctor(c, "constructor")

    ctor_decl = ctor_def

    def dtor_def(self, c: list[Any]) -> A.FunctionDecl:
        return self._ctor(c, "destructor")

    def ctor_name(self, c: list[Any]) -> A.QualifiedName:
        nested = c[0] if isinstance(c[0], list) else []
        if isinstance(c[-1], list):  # the class's template arguments, which name the class itself
            return A.QualifiedName(self.span(c), [*nested, A.NamePart(self.span(c[-2:-1]), str(c[-2]))])
        return A.QualifiedName(self.span(c), [*nested, A.NamePart(self.span(c[-1:]), str(c[-1]))])

    def dtor_name(self, c: list[Any]) -> A.QualifiedName:
        nested = c[0] if isinstance(c[0], list) else []
        return A.QualifiedName(self.span(c), [*nested, A.NamePart(self.span(c[-2:]), "~" + str(c[-1]))])

    def ctor_initializer(self, c: list[Any]) -> tuple[A.MemberInit, ...]:
        return tuple(c)

    def mem_initializer(self, c: list[Any]) -> A.MemberInit:
        target = c[0]
        name = target.value if isinstance(target, Token) else target.name
        pack = isinstance(c[-1], Token) and c[-1].type == "ELLIPSIS"
        if pack:
            c = c[:-1]
        args = c[1] if len(c) > 1 and isinstance(c[1], list) else ([c[1]] if len(c) > 1 and c[1] is not None else [])
        return A.MemberInit(self.span(c), name, args, pack)

    def params(self, c: list[Any]) -> list[A.Param]:
        out = nodes_of(c, A.Param)
        if token_of(c, "ELLIPSIS") is not None:
            out.append(A.Param(self.span(c[-1:]), A.TypeRef(self.span(c[-1:]), "..."), None, None, True))
        return out

    def param(self, c: list[Any]) -> A.Param:
        spec: DeclSpec = c[0]
        decl = next((x for x in c[1:] if isinstance(x, Declarator)), None)
        default = c[-1] if len(c) > 1 and isinstance(c[-1], A.Node) else None
        if decl is None:
            return A.Param(self.span(c), spec.type, None, default)
        full = self._declarator(spec, decl)
        return A.Param(self.span(c), full.type, decl.name or None, default, decl.style == "...")

    def param_declarator(self, c: list[Any]) -> Declarator:
        if len(c) == 1 and isinstance(c[0], Declarator):
            return c[0]
        ptrs = next((x for x in c if isinstance(x, tuple) and x and x[0] == "ptrs"), None)
        names = tokens_of(c, "IDENTIFIER", "TYPE_NAME")
        dims = next((x for x in c if isinstance(x, tuple) and x and x[0] == "dims"), ("dims", []))
        style = "..." if token_of(c, "ELLIPSIS") is not None else ""
        return Declarator(names[0].value if names else "", list(ptrs[1]) if ptrs else [],
                           list(ptrs[2]) if ptrs else [], list(dims[1]), None, style, self.span(c))

    def abstract_declarator(self, c: list[Any]) -> Declarator:
        ptrs = next((x for x in c if isinstance(x, tuple) and x[0] == "ptrs"), None)
        dims = next((x for x in c if isinstance(x, tuple) and x[0] == "dims"), ("dims", []))
        return Declarator("", list(ptrs[1]) if ptrs else [], list(ptrs[2]) if ptrs else [], list(dims[1]),
                           None, "", self.span(c))

    def declarator_name(self, c: list[Any]) -> A.QualifiedName:
        nested: list[A.NamePart] = c[0] if isinstance(c[0], list) else []
        rest = c[1:] if nested else c
        if rest and isinstance(rest[0], Token) and rest[0].type == "OPERATOR":
            targs = rest[2] if len(rest) > 2 and isinstance(rest[2], list) else None
            part = A.NamePart(self.span(rest), "operator" + str(rest[1]), targs)
        else:
            targs = rest[1] if len(rest) > 1 and isinstance(rest[1], list) else None
            part = A.NamePart(self.span(rest), str(rest[0]), targs)
        return A.QualifiedName(self.span(c), [*nested, part])

    def conversion_fn(self, c: list[Any]) -> A.FunctionDecl:
        prefixes = next((x for x in c if isinstance(x, Prefixes)), None)
        target: A.TypeRef = next(x for x in c if isinstance(x, A.TypeRef))
        keyword = next(x for x in c if isinstance(x, Token) and x.type == "OPERATOR")
        name = A.QualifiedName(self.span([keyword]), [A.NamePart(self.span([keyword]), "operator" + target.name)])
        quals = [str(x) for x in c if isinstance(x, Token) and x.type in ("CV", "NOEXCEPT", "OVERRIDE", "FINAL")]
        body = c[-1] if isinstance(c[-1], A.Compound) else None
        return A.FunctionDecl(self.span(c), name, target, [], body, prefixes.words if prefixes else [], "operator",
                              [], quals)

    def operator_symbol(self, c: list[Any]) -> str:
        return "".join(x.name if isinstance(x, A.TypeRef) else str(x) for x in c)
