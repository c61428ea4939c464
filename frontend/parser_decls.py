"""AST building for declarations: namespaces, linkage, templates and their parameters, using / alias / typedef,
static_assert, classes and enums, the vendor's tiling-data and member macros.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from lark import Token

from frontend import ast as A
from frontend.parser_parts import Alignas, ClassHead, DeclSpec, Declarator, nodes_of, token_of, tokens_of


class DeclarationBuilder:
    """AST building for declarations: methods of AstBuilder (parser.py), which inherits them."""

    def empty_decl(self, c: list[Any]) -> A.EmptyDecl:
        return A.EmptyDecl(self.span(c))

    def namespace_def(self, c: list[Any]) -> A.NamespaceDecl:
        outer = [p.name for p in c[1]] if isinstance(c[1], list) else []
        names = tokens_of(c[1:3], "IDENTIFIER", "TYPE_NAME")
        name = "::".join([*outer, names[0].value]) if names else None
        return A.NamespaceDecl(self.span(c), name, nodes_of(c))

    def namespace_alias(self, c: list[Any]) -> A.NamespaceAlias:
        return A.NamespaceAlias(self.span(c), str(c[1]), c[2])

    def linkage_spec(self, c: list[Any]) -> A.LinkageSpec:
        language = str(c[1]).strip('"')
        decls = nodes_of(c)
        for d in decls:
            if isinstance(d, A.FunctionDecl):
                d.linkage = language
        return A.LinkageSpec(self.span(c), language, decls)

    def template_decl(self, c: list[Any]) -> A.TemplateDecl:
        params = nodes_of(c, A.TemplateParam)
        decl = c[-1]
        if isinstance(decl, A.FunctionDecl):
            decl.template_params = params
        return A.TemplateDecl(self.span(c), params, decl)

    member_template = template_decl

    def explicit_instantiation(self, c: list[Any]) -> A.ExplicitInstantiation:
        return A.ExplicitInstantiation(self.span(c), c[-1])

    def explicit_class_instantiation(self, c: list[Any]) -> A.ExplicitInstantiation:
        # `template struct K<2>;`: the class the instantiation names, as a declaration of it (no members)
        key = next(x for x in c if isinstance(x, Token) and x.type in ("CLASS", "STRUCT", "UNION"))
        type_ref, _ = self._elaborated_type(c[c.index(key):])
        return A.ExplicitInstantiation(self.span(c), A.ClassDecl(type_ref.span, str(key), type_ref.name, [], [], False,
                                                                 type_ref.base.parts[-1].template_args))

    def type_template_param(self, c: list[Any]) -> A.TemplateParam:
        names = tokens_of(c[1:], "IDENTIFIER", "TYPE_NAME")
        default = next((x for x in c if isinstance(x, A.TypeRef)), None)
        kind = "template" if c[0].type == "TEMPLATE" else "type"  # template <typename> class Impl
        return A.TemplateParam(self.span(c), kind, names[0].value if names else None, None, default,
                               token_of(c, "ELLIPSIS") is not None)

    def value_template_param(self, c: list[Any]) -> A.TemplateParam:
        spec: DeclSpec = c[0]
        if len(c) > 1 and isinstance(c[1], Declarator):  # `void (C::*fn)(int)`
            decl = self._declarator(spec, c[1])
            default = c[2] if len(c) > 2 and isinstance(c[2], A.Node) else None
            return A.TemplateParam(self.span(c), "value", decl.name or None, decl.type, default, False)
        names = tokens_of(c[1:], "IDENTIFIER", "TYPE_NAME")
        default = next((x for x in c[1:] if isinstance(x, A.Node)), None)
        ptrs = next((x for x in c[1:] if isinstance(x, tuple) and x and x[0] == "ptrs"), None)
        # `TriangleOp<P> *op` (a pointer to a function of an alias type) keeps its `*`: a function is its value
        t = replace(spec.type, pointers=[*spec.type.pointers, *ptrs[1]]) if ptrs else spec.type
        return A.TemplateParam(self.span(c), "value", names[0].value if names else None, t, default,
                               token_of(c, "ELLIPSIS") is not None)

    def using_directive(self, c: list[Any]) -> A.UsingDirective:
        return A.UsingDirective(self.span(c), c[-1])

    def using_decl(self, c: list[Any]) -> A.UsingDecl:
        return A.UsingDecl(self.span(c), [x for x in c if isinstance(x, A.QualifiedName)])

    def access_decl(self, c: list[Any]) -> A.UsingDecl:
        return A.UsingDecl(self.span(c), [self.using_target(c)])

    def using_target(self, c: list[Any]) -> A.QualifiedName:
        nested = next((x for x in c if isinstance(x, list)), [])
        last = c[-1]
        return A.QualifiedName(self.span(c), [*nested, A.NamePart(self.span([last]), str(last))])

    def alias_decl(self, c: list[Any]) -> A.AliasDecl:
        return A.AliasDecl(self.span(c), str(c[1]), c[-1])

    def typedef_decl(self, c: list[Any]) -> A.Node:
        if isinstance(c[1], (A.ClassDecl, A.EnumDecl)):
            # `typedef struct {...} Name;`: the struct is the declaration; it takes the typedef's name.
            decl = c[1]
            if isinstance(decl, A.ClassDecl) and decl.declarators:
                decl.name = decl.name or decl.declarators[0].name
                decl.declarators = []
            decl.span = self.span(c)
            return decl
        spec: DeclSpec = c[1]
        decls = [self._declarator(spec, d) for d in c[2:] if isinstance(d, Declarator)]
        if len(decls) == 1:
            return A.AliasDecl(self.span(c), decls[0].name, decls[0].type)
        return A.VarDecl(self.span(c), ["typedef"], decls)

    def static_assert(self, c: list[Any]) -> A.StaticAssert:
        strings = tokens_of(c, "STRING")
        message = "".join(s.value.strip('"') for s in strings) if strings else None
        return A.StaticAssert(self.span(c), c[1], message)

    # -- classes and enums
    def class_key(self, c: list[Any]) -> Token:
        return c[0]

    def class_head(self, c: list[Any]) -> ClassHead:
        names = tokens_of(c[1:], "IDENTIFIER", "TYPE_NAME", "TYPE_TEMPLATE")
        spec_args = next((x for x in c if isinstance(x, list) and x and isinstance(x[0], A.TemplateArg)), None)
        bases = next((x for x in c if isinstance(x, tuple)), ())
        aligns = [x.value for x in c if isinstance(x, Alignas)]
        return ClassHead(str(c[0]), names[0].value if names else None, spec_args, list(bases), self.span(c),
                         max(aligns) if aligns else None)

    def base_clause(self, c: list[Any]) -> tuple[A.TypeRef, ...]:
        return tuple(nodes_of(c, A.TypeRef))

    def base_spec(self, c: list[Any]) -> A.TypeRef:
        if isinstance(c[-1], Token) and c[-1].type == "ELLIPSIS":
            return replace(c[-2], pack=True, span=self.span(c))
        return c[-1]

    def class_def(self, c: list[Any]) -> A.ClassDecl:
        head: ClassHead = c[0]
        members = [m for m in c[1:] if isinstance(m, A.Node)]
        own_type = A.TypeRef(head.span, A.QualifiedName(head.span, [A.NamePart(head.span, head.name or "")]))
        spec = DeclSpec([], own_type, head.span)
        declarators = [self._declarator(spec, d) for d in c[1:] if isinstance(d, Declarator)]
        return A.ClassDecl(self.span(c), head.key, head.name, members, head.bases, True, head.spec_args, declarators,
                           head.align)

    def class_forward(self, c: list[Any]) -> A.ClassDecl:
        return A.ClassDecl(self.span(c), str(c[0]), str(c[1]), [], [], False)

    def enum_def(self, c: list[Any]) -> A.EnumDecl:
        scoped = token_of(c[1:2], "CLASS", "STRUCT") is not None
        names = [t for t in c[1:] if isinstance(t, Token) and t.type in ("IDENTIFIER", "TYPE_NAME")]
        underlying = next((x for x in c if isinstance(x, A.TypeRef)), None)
        return A.EnumDecl(self.span(c), names[0].value if names else None, scoped, underlying,
                          nodes_of(c, A.Enumerator))

    def enum_forward(self, c: list[Any]) -> A.EnumDecl:
        names = tokens_of(c[1:], "IDENTIFIER", "TYPE_NAME")
        return A.EnumDecl(self.span(c), names[0].value, token_of(c, "CLASS", "STRUCT") is not None, c[-1], [])

    def enumerator(self, c: list[Any]) -> A.Enumerator:
        return A.Enumerator(self.span(c), str(c[0]), c[1] if len(c) > 1 else None)

    def access_spec(self, c: list[Any]) -> A.AccessSpec:
        return A.AccessSpec(self.span(c), str(c[0]))

    def friend_decl(self, c: list[Any]) -> A.FriendDecl:
        return A.FriendDecl(self.span(c), c[-1])

    # -- vendor tiling macros
    def tiling_data_def(self, c: list[Any]) -> A.TilingDataDef:
        return A.TilingDataDef(self.span(c), str(c[1]), nodes_of(c, A.TilingField))

    def tiling_field(self, c: list[Any]) -> A.TilingField:
        return A.TilingField(self.span(c), "scalar", c[1], str(c[-1]))

    def tiling_field_arr(self, c: list[Any]) -> A.TilingField:
        return A.TilingField(self.span(c), "array", c[1], str(c[-1]), c[2])

    def tiling_field_struct(self, c: list[Any]) -> A.TilingField:
        return A.TilingField(self.span(c), "struct", c[1], str(c[-1]))

    def register_tiling_class(self, c: list[Any]) -> A.RegisterTilingData:
        names = tokens_of(c, "IDENTIFIER", "TYPE_NAME")
        return A.RegisterTilingData(self.span(c), names[0].value, names[1].value)

    def macro_decl(self, c: list[Any]) -> A.MacroDecl:
        args = c[1] if isinstance(c[1], list) else []
        self._forgive_missing_args(args)
        body = c[-1] if isinstance(c[-1], A.Compound) else None
        return A.MacroDecl(self.span(c), str(c[0]), args, body, nodes_of(c, A.Call))

    def macro_chain(self, c: list[Any]) -> A.Call:
        name, targs = c[1]
        callee = A.Name(self.span(c[1:2] or c), A.QualifiedName(self.span(c), [A.NamePart(self.span(c), name, targs)]))
        return A.Call(self.span(c), callee, c[2] if len(c) > 2 and isinstance(c[2], list) else [])

    def return_arg(self, c: list[Any]) -> A.ReturnArg:
        return A.ReturnArg(self.span(c), c[1] if len(c) > 1 else None)

    def _elaborated_type(self, c: list[Any]) -> tuple[A.TypeRef, int]:
        """`struct ns::Name` (or `struct ns::Name<T>`, a template's type) at c[0:]: the type and the index just
        after it."""
        nested = c[1] if isinstance(c[1], list) else []
        i = 2 if nested else 1
        targs = c[i + 1] if i + 1 < len(c) and isinstance(c[i + 1], list) else None
        end = i + 2 if targs is not None else i + 1
        head = c[:end]
        qn = A.QualifiedName(self.span(head), [*nested, A.NamePart(self.span(c[i:end]), str(c[i]), targs)])
        return A.TypeRef(self.span(head), qn), end

    def elaborated_var_decl(self, c: list[Any]) -> A.VarDecl:
        type_ref, after = self._elaborated_type(c)
        spec = DeclSpec([str(c[0])], type_ref, type_ref.span)  # type: ignore[arg-type]
        return A.VarDecl(self.span(c), spec.specifiers, [self._declarator(spec, d) for d in c[after:] if isinstance(d, Declarator)])

    def alias_function_type(self, c: list[Any]) -> A.AliasDecl:
        # `using Op = void (const LocalTensor<T>&, int32_t);`: a function type; kept as its return type with
        # a "(...)" marker, which is all later stages need of these callback aliases.
        spec: DeclSpec = c[2]
        return A.AliasDecl(self.span(c), str(c[1]), replace(spec.type, pointers=[*spec.type.pointers, "()"]))

    def alias_elaborated(self, c: list[Any]) -> A.AliasDecl:
        type_ref, _ = self._elaborated_type(c[2:])
        return A.AliasDecl(self.span(c), str(c[1]), type_ref)

    def alias_class(self, c: list[Any]) -> A.ClassDecl:
        # `using X = struct _ {...};`: the struct is the declaration, under the alias's name (a `const` before
        # it only qualifies the alias).
        decl: A.ClassDecl = c[-1]
        decl.name = str(c[1])
        decl.span = self.span(c)
        return decl

    def placement_new_expr(self, c: list[Any]) -> A.New:
        placement = c[1]
        node = self.new_expr([c[0], *c[2:]])
        node.args = [*placement, *node.args]
        node.span = self.span(c)
        return node
