"""The AscendC abstract syntax tree: typed dataclasses, every node with its source span.

The tree keeps C++ structure (declarations, statements, expressions, types) and adds nodes for the
vendor constructs that carry meaning downstream: kernel-function qualifiers, kernel launches,
tiling-data definitions and their registration. Spans point into the user's original files.

The nodes live in one module per kind (node.py: the base and the walks; names.py, expressions.py, statements.py,
declarations.py); this package's namespace holds them all, so `from frontend import ast as A` then `A.Call` and
`from frontend.ast import Call` work as they did when the tree was one module.
"""

from __future__ import annotations

from frontend.ast.node import DATA_FIELD_TYPES, Node, child_list, dump, field_names
from frontend.ast.names import (
    NamePart, QualifiedName, TypeRef, TemplateArg,
)
from frontend.ast.expressions import (
    Expr, IntLit, FloatLit, StringLit, CharLit, BoolLit, NullLit, This, Name, MacroFlag, Unary, IncDec,
    Binary, Assign, Conditional, Comma, Call, KernelLaunch, Member, Index, Cast, SizeOf, Noexcept, InitList,
    DesignatedInit, New, Delete, Lambda, Throw, TypeArgExpr, ReturnArg, PackExpansion, Fold,
)
from frontend.ast.statements import (
    BLOCK_LOCAL, Stmt, Compound, ExprStmt, Declarator, VarDecl, If, For, RangeFor, While, DoWhile, Switch, Case, Try,
    Catch, Break, Continue, Return, Goto, Label, NullStmt,
)
from frontend.ast.declarations import (
    Decl, Param, MemberInit, FunctionDecl, TemplateParam, TemplateDecl, AccessSpec, ClassDecl, Enumerator,
    EnumDecl, NamespaceDecl, NamespaceAlias, LinkageSpec, UsingDirective, UsingDecl, AliasDecl, StaticAssert,
    FriendDecl, ExplicitInstantiation, TilingField, TilingDataDef, RegisterTilingData, MacroDecl, EmptyDecl,
    TranslationUnit,
)

__all__ = [
    "DATA_FIELD_TYPES", "Node", "child_list", "dump", "field_names", "NamePart", "QualifiedName", "TypeRef",
    "TemplateArg", "Expr", "IntLit", "FloatLit", "StringLit", "CharLit", "BoolLit", "NullLit", "This", "Name",
    "MacroFlag", "Unary", "IncDec", "Binary", "Assign", "Conditional", "Comma", "Call", "KernelLaunch",
    "Member", "Index", "Cast", "SizeOf", "Noexcept", "InitList", "DesignatedInit", "New", "Delete", "Lambda",
    "Throw", "TypeArgExpr", "ReturnArg", "PackExpansion", "Fold", "Stmt", "Compound", "ExprStmt",
    "Declarator", "VarDecl", "If", "For", "RangeFor", "While", "DoWhile", "Switch", "Case", "Try", "Catch",
    "Break", "Continue", "Return", "Goto", "Label", "NullStmt", "Decl", "Param", "MemberInit", "FunctionDecl",
    "TemplateParam", "TemplateDecl", "AccessSpec", "ClassDecl", "Enumerator", "EnumDecl", "NamespaceDecl",
    "NamespaceAlias", "LinkageSpec", "UsingDirective", "UsingDecl", "AliasDecl", "StaticAssert", "FriendDecl",
    "ExplicitInstantiation", "TilingField", "TilingDataDef", "RegisterTilingData", "MacroDecl", "EmptyDecl",
    "TranslationUnit",
]
