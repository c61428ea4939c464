"""AST building for types and declarators: declaration specifiers and attributes, type names (builtin, named,
template, dependent, decltype), pointer operators, declarators and initialisers, variable declarations,
structured bindings, qualified names and template arguments.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from lark import Token

from frontend import ast as A
from frontend.diagnostics import LazySpan
from frontend.parser_keywords import KEYWORD_GROUPS
from frontend.parser_parts import Alignas, DeclSpec, Declarator, Prefixes


class TypeBuilder:
    """AST building for types and declarators: methods of AstBuilder (parser.py), which inherits them."""

    # -- types
    def decl_specifiers(self, c: list[Any]) -> DeclSpec:
        specs: list[str] = []
        quals: list[str] = []
        space: str | None = None
        base: A.TypeRef | None = None
        for item in c:
            if isinstance(item, A.TypeRef):
                base = item
            elif isinstance(item, Prefixes):
                for p in item.words:
                    if p in ("const", "volatile", "__restrict__", "__restrict"):
                        quals.append(p)
                    elif p.startswith("__") and p.endswith("__") and p in _ADDRESS_SPACES:
                        space = p
                    else:
                        specs.append(p)
            elif isinstance(item, Token):
                if item.type == "ADDRESS_SPACE":
                    space = item.value
                elif item.type in ("STORAGE", "CONSTEXPR", "FN_SPECIFIER"):
                    specs.append(item.value)
                else:
                    quals.append(item.value)
        assert base is not None
        if quals or space:
            base = replace(base, qualifiers=base.qualifiers + quals, address_space=space or base.address_space)
        if "constexpr" in specs and "const" not in base.qualifiers:
            base = replace(base, qualifiers=[*base.qualifiers, "const"])
        return DeclSpec(specs, base, self.span(c))

    def elaborated_specifiers(self, c: list[Any]) -> DeclSpec:
        # `__gm__ struct KernelInfo::TilingInfo*`: rebuild as ordinary specifiers around the named type.
        type_ref, after = self._elaborated_type(c[1:])
        return self.decl_specifiers([c[0], type_ref, *c[1 + after :]])

    def enum_specifiers(self, c: list[Any]) -> DeclSpec:
        # C-style `enum Mode mode`: the enum type itself.
        type_ref, after = self._elaborated_type(c)
        return self.decl_specifiers([None, type_ref, *c[after:]])

    def param_elaborated_specifiers(self, c: list[Any]) -> DeclSpec:
        return self.enum_specifiers(c)  # `struct TensorInfo& info`: the key word adds nothing to the type

    def decl_prefixes(self, c: list[Any]) -> Prefixes:
        return Prefixes([str(x) for x in c if x is not None and not isinstance(x, Alignas)], self.span(c))

    def decl_suffix(self, c: list[Any]) -> Token:
        return c[0]

    def fn_specifier(self, c: list[Any]) -> Token:
        if len(c) == 1:
            if c[0].value.startswith("["):  # the checks know the compiler's `[aicore]` by its macro's name
                return Token.new_borrow_pos("FN_SPECIFIER", "__aicore__", c[0])
            return c[0]
        # `__mix__(1, 2)` becomes one specifier word, keeping the keyword's position for spans.
        args = c[1] if len(c) > 1 and isinstance(c[1], list) else []
        text = f"{c[0]}({','.join(_arg_text(a) for a in args)})"
        return Token.new_borrow_pos("FN_SPECIFIER", text, c[0])

    def attribute(self, c: list[Any]) -> Alignas | str | None:
        # `alignas(8)` with a literal: a class head keeps it (the struct's alignment sizes tiling data: ops-nn
        # mat_mul_v3's `struct alignas(8) MatmulTilingData`); `[[block_local]]` stays among a declaration's
        # specifiers (A.BLOCK_LOCAL: each core has its own copy of the variable); every other attribute means
        # nothing here
        if c and isinstance(c[0], Token) and c[0].type == "ALIGNAS" and len(c) > 1 and isinstance(c[1], A.IntLit):
            return Alignas(c[1].value)
        if "block_local" in c:
            return A.BLOCK_LOCAL
        return None

    def attribute_gnu(self, c: list[Any]) -> None:
        return None

    def member_macro(self, c: list[Any]) -> A.MacroDecl:
        args = next((x for x in c if isinstance(x, list)), [])
        self._forgive_missing_args(args)
        return A.MacroDecl(self.span(c), str(c[0]), args)

    def attribute_item(self, c: list[Any]) -> str | None:
        # the name of an attribute without a namespace or arguments (`block_local`, `likely`), which attribute reads
        return str(c[0]) if len(c) == 1 and isinstance(c[0], Token) else None

    def simple_type(self, c: list[Any]) -> A.TypeRef:
        return c[0]

    def builtin_type(self, c: list[Any]) -> A.TypeRef:
        return A.TypeRef(self.span(c), " ".join(str(t) for t in c))

    def named_type(self, c: list[Any]) -> A.TypeRef:
        if len(c) == 1:  # a plain type name: one span for the type, its name and the name's part
            name = c[0]
            span = LazySpan(name.start_pos, name.end_pos, self._origin)
            return A.TypeRef(span, A.QualifiedName(span, [A.NamePart(span, str(name))]))
        span = self.span(c)
        qn = A.QualifiedName(span, [*c[0], A.NamePart(self.span(c[-1:]), str(c[-1]))])
        return A.TypeRef(span, qn)

    def template_type(self, c: list[Any]) -> A.TypeRef:
        nested = c[0] if isinstance(c[0], list) else []
        rest = c[1:] if nested else c
        qn = A.QualifiedName(self.span(c), [*nested, A.NamePart(self.span(rest), str(rest[0]), rest[1])])
        return A.TypeRef(self.span(c), qn)

    def dependent_type(self, c: list[Any]) -> A.TypeRef:
        nested = next(x for x in c if isinstance(x, list) and (not x or isinstance(x[0], A.NamePart)))
        targs = c[-1] if isinstance(c[-1], list) and c[-1] is not nested else None
        name_tok = [t for t in c if isinstance(t, Token) and t.type in ("IDENTIFIER", "TYPE_NAME", "TYPE_TEMPLATE", "TEMPLATE_NAME")][-1]
        qn = A.QualifiedName(self.span(c), [*nested, A.NamePart(self.span([name_tok]), name_tok.value, targs)])
        return A.TypeRef(self.span(c), qn, dependent=True)

    def decltype_type(self, c: list[Any]) -> A.TypeRef:
        if isinstance(c[1], Token):
            return A.TypeRef(self.span(c), f"decltype({c[1]})")
        return A.TypeRef(self.span(c), "decltype", decltype_expr=c[1])

    def type_id(self, c: list[Any]) -> A.TypeRef:
        spec: DeclSpec = c[0]
        if len(c) > 1 and isinstance(c[1], Declarator):
            return self._declarator(spec, c[1]).type
        return replace(spec.type, span=self.span(c))

    def ptr_ops(self, c: list[Any]) -> tuple[str, list[str], list[str]]:
        return ("ptrs", [p[0] for p in c], [q for p in c for q in p[1]])

    def pointer(self, c: list[Any]) -> tuple[str, list[str]]:
        return ("*", [str(x) for x in c[1:]])

    def reference(self, c: list[Any]) -> tuple[str, list[str]]:
        return ("&", [])

    def rvalue_reference(self, c: list[Any]) -> tuple[str, list[str]]:
        return ("&&", [])

    def _raw_declarator(self, c: list[Any]) -> Declarator:
        ptrs = next((x for x in c if isinstance(x, tuple) and x and x[0] == "ptrs"), None)
        name = next(x for x in c if isinstance(x, Token) and x.type in ("IDENTIFIER", "TYPE_NAME"))
        dims = next((x for x in c if isinstance(x, tuple) and x and x[0] == "dims"), ("dims", []))
        init = next((x for x in c if isinstance(x, tuple) and x and x[0] == "init"), None)
        return Declarator(name.value, list(ptrs[1]) if ptrs else [], list(ptrs[2]) if ptrs else [], list(dims[1]),
                           init[2] if init else None, init[1] if init else "", self.span(c),
                           list(init[3]) if init and len(init) > 3 else [])

    declarator = _raw_declarator

    block_declarator = _raw_declarator

    def paren_declarator(self, c: list[Any]) -> Declarator:
        # `T (*p)[N]` keeps the pointer after the dims, which is how types are read (dims first, then
        # pointers: a pointer to an array); `T (*fn)(A)` is a pointer to a function, marked "()" as in
        # alias_function_type. A member pointer `(C::*fn)` is kept as a plain pointer.
        ptrs = next(x for x in c if isinstance(x, tuple) and x and x[0] == "ptrs")
        name = next((x for x in c if isinstance(x, Token) and x.type in ("IDENTIFIER", "TYPE_NAME")), None)
        dims = next((x for x in c if isinstance(x, tuple) and x and x[0] == "dims"), None)
        pointers = list(ptrs[1]) if dims is not None else ["()", *ptrs[1]]
        return Declarator(name.value if name is not None else "", pointers, list(ptrs[2]),
                           list(dims[1]) if dims is not None else [], None, "", self.span(c),
                           pointers_to_array=len(ptrs[1]) if dims is not None else 0)

    def paren_abstract_declarator(self, c: list[Any]) -> Declarator:
        return c[0]

    def paren_declarator_init(self, c: list[Any]) -> Declarator:
        d: Declarator = c[0]
        init = c[1] if len(c) > 1 else None
        if init is None:
            return d
        return replace(d, init=init[2], style=init[1], span=self.span(c))

    def array_dims(self, c: list[Any]) -> tuple[str, list[Any]]:
        return ("dims", list(c))

    def array_dim(self, c: list[Any]) -> Any:
        return c[0] if c else None

    def initializer(self, c: list[Any]) -> tuple[Any, ...]:
        if isinstance(c[0], Token) and c[0].type == "ASSIGN":
            return ("init", "=", c[1])
        return ("init", "{}", c[0])

    def paren_initializer(self, c: list[Any]) -> tuple[Any, ...]:
        args = c[0] if c and isinstance(c[0], list) else []
        return ("init", "()", None, args)

    def _declarator(self, spec: DeclSpec, d: Declarator) -> A.Declarator:
        t = spec.type
        if d.pointers or d.dims or d.pointer_quals:
            t = replace(t, pointers=t.pointers + d.pointers, array_dims=t.array_dims + d.dims,
                        qualifiers=t.qualifiers + [q for q in d.pointer_quals if q not in _ADDRESS_SPACES],
                        address_space=next((q for q in d.pointer_quals if q in _ADDRESS_SPACES), t.address_space),
                        pointers_to_array=d.pointers_to_array or t.pointers_to_array)
        return A.Declarator(d.span, d.name, t, d.init, d.style, d.ctor_args)

    def var_decl(self, c: list[Any]) -> A.VarDecl:
        spec: DeclSpec = c[0]
        return A.VarDecl(self.span(c), spec.specifiers, [self._declarator(spec, d) for d in c[1:] if isinstance(d, Declarator)])

    block_var_decl = var_decl

    def bit_field(self, c: list[Any]) -> A.VarDecl:
        spec: DeclSpec = c[0]
        names = [x for x in c[1:] if isinstance(x, Token) and x.type == "IDENTIFIER"]
        declarators = [Declarator(names[0].value, [], [], [], None, "", self.span(names))] if names else []
        return A.VarDecl(self.span(c), spec.specifiers, [self._declarator(spec, d) for d in declarators])

    def binding_name(self, c: list[Any]) -> Declarator:
        return Declarator(c[0].value, [], [], [], None, "", self.span(c))

    def structured_binding(self, c: list[Any]) -> A.VarDecl:
        # As C++ has it: an unnamed object holds the initializer, and each name is one of its elements
        # (whose values the AST does not say).
        spec: DeclSpec = c[0]
        ptrs = next((x for x in c if isinstance(x, tuple) and x and x[0] == "ptrs"), None)
        _, style, init = next(x for x in c if isinstance(x, tuple) and x and x[0] == "init")
        names = [d for d in c if isinstance(d, Declarator)]
        hidden = Declarator("", list(ptrs[1]) if ptrs else [], [], [], init, style, self.span(c))
        return A.VarDecl(self.span(c), spec.specifiers, [self._declarator(spec, d) for d in (hidden, *names)])

    # -- names
    def nested(self, c: list[Any]) -> list[A.NamePart]:
        if isinstance(c[0], list):
            return [*c[0], c[1]]
        return [c[0]]

    def nested_template(self, c: list[Any]) -> list[A.NamePart]:
        # `P::template Rebind<T>::`: the keyword only says that a template's name follows
        return [*c[0], A.NamePart(self.span(c[2:]), str(c[2]), c[3])]

    def nested_part(self, c: list[Any]) -> A.NamePart:
        if isinstance(c[0], Token) and c[0].type == "DECLTYPE":
            return A.NamePart(self.span(c), "decltype", [A.TemplateArg(c[1].span, c[1])])
        targs = c[1] if len(c) > 1 else None
        return A.NamePart(self.span(c), str(c[0]), targs)

    def qualified_name(self, c: list[Any]) -> A.QualifiedName:
        nested = c[0] if isinstance(c[0], list) else []
        return A.QualifiedName(self.span(c), [*nested, A.NamePart(self.span(c[-1:]), str(c[-1]))])

    def template_args(self, c: list[Any]) -> list[A.TemplateArg]:
        return [x for x in c if isinstance(x, A.TemplateArg)]

    def template_arg(self, c: list[Any]) -> A.TemplateArg:
        return A.TemplateArg(self.span(c), c[0], len(c) > 1 and c[1] is not None)


_ADDRESS_SPACES = frozenset(KEYWORD_GROUPS["ADDRESS_SPACE"])


def _arg_text(node: Any) -> str:
    """Short text of a qualifier argument (`__mix__(1, 2)` -> "1"), for the specifier string."""
    if isinstance(node, A.IntLit):
        return node.text
    if isinstance(node, A.Name):
        return node.qname.text
    return type(node).__name__
