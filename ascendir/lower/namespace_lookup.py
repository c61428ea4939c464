"""Which namespace-scope variable (or constant) a name denotes, by the C++ lookup rules.

    int32_t cnt = 5;
    namespace A { constexpr int32_t cnt = 1; int32_t Get() { return cnt + ::cnt; } }   // 1 + 5
    namespace B { constexpr int32_t cnt = 2; }
    ... A::cnt ... B::cnt ...                                                          // 1, 2

Scope.constants keys each variable by its qualified name ('cnt', 'A::cnt', 'B::cnt'); before, the bare name was
the key and the later declaration took the others' place, so every `cnt` read 2 silently.

- An unqualified name ([basic.lookup.unqual]/4) is looked up in the namespace the code is written in, then in
  each enclosing one outwards; the first that declares it (or has a using-declaration `using N::cnt;` of it)
  wins. A namespace nominated by a using-directive ([namespace.udir]/2) counts as if its members were declared
  in the nearest namespace enclosing both it and the code (the common prefix of their names: the directive's own
  namespace, which encloses the code, is not told apart).
- A qualified name `N::cnt` ([namespace.qual]) names N as seen from the code's namespace (the innermost
  enclosing reading that is a namespace of the program; `::N` the global one's) and is looked up in N, else in
  the namespaces N nominates, transitively.
- Where the rules find nothing (a namespace the lowering does not see, such as one of a vendor header, or a
  namespace alias), every declaration of the bare name is the answer, as before: one is that variable, several
  are ambiguous, which the lowering reports instead of picking one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ascendir.lower.errors import Unsupported
from ascendir.lower.header_names import TRANSPARENT_NAMESPACES
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer
    from ascendir.lower.scope import ClassInfo, Scope

Entry = tuple[A.VarDecl, A.Declarator]


def key(namespace: str, name: str) -> str:
    """The key of variable `name` declared in `namespace` ('' the global one) in Scope.constants."""
    return f"{namespace}::{name}" if namespace else name


def declares(scope: Scope, name: str) -> bool:
    """Whether some namespace of the program declares a variable or constant `name`."""
    return name in scope.variable_namespaces


def namespace_of(scope: Scope, decl: A.Declarator) -> str | None:
    """The namespace variable `decl` is declared in ('' the global one); None for a declarator not collected."""
    for ns in scope.variable_namespaces.get(decl.name, ()):
        if scope.constants[key(ns, decl.name)][1] is decl:
            return ns
    return None


def qualifier_of(qname: A.QualifiedName) -> list[str] | None:
    """The qualifier a name is written with (['A', 'B'] of `A::B::x`, [''] of `::x`), None for an unqualified
    one."""
    return [p.name for p in qname.parts[:-1]] if len(qname.parts) > 1 else None


def keys(scope: Scope, name: str, here: str = "", qualifier: Sequence[str] | None = None) -> list[str]:
    """The keys of what `name` (with `qualifier`, as written) denotes in code written in namespace `here`: one
    key, or several where the lookup is ambiguous; [] where the program declares no variable of that name."""
    return _keys(scope, scope.constants, scope.variable_namespaces, name, here, qualifier)


def _keys(scope: Scope, table: Mapping[str, object], declared_in: Mapping[str, list[str]], name: str, here: str,
          qualifier: Sequence[str] | None) -> list[str]:
    declared = declared_in.get(name)
    if not declared:
        return []
    found = _unqualified(scope, table, name, here) if qualifier is None else \
        _qualified(scope, table, name, here, list(qualifier))
    return found or [key(ns, name) for ns in declared]


def alias_homonym(scope: Scope, name: str) -> bool:
    """Whether namespace-scope aliases of `name` are declared in more than one namespace."""
    return len(scope.alias_declared_in.get(name, ())) > 1


def alias(lw: FunctionLowerer, name: str,
          qualifiers: Sequence[str]) -> tuple[A.TypeRef, list[A.TemplateParam] | None]:
    """The type alias `name` (written with `qualifiers`, [] for none) names, and its template parameters: of
    aliases of that name in several namespaces (`namespace A { using T = float; } namespace B { using T = half;
    }`), the one the lookup finds; two it finds at one level are ambiguous (Unsupported); where the rules find
    none (a namespace the lowering does not see), Scope.aliases' (the last declared), as before."""
    scope = lw.scope
    if alias_homonym(scope, name):
        here, written = namespace_here(lw), list(qualifiers) or None
        table = scope.qualified_aliases
        by_rules = _unqualified(scope, table, name, here) if written is None else \
            _qualified(scope, table, name, here, written)
        if len(by_rules) > 1:
            # two namespaces nominated at one level both declare it ([namespace.udir]/6: ill-formed), never the
            # last one declared picked silently
            raise unplaced(f"type '{name}' could be any of the aliases {', '.join(by_rules)} (the lookup from here "
                           "does not tell them apart)", None, table[by_rules[0]][0])
        found = _keys(scope, table, scope.alias_declared_in, name, here, written)
        if len(found) == 1:
            return scope.qualified_aliases[found[0]]
    return scope.aliases[name], scope.alias_templates.get(name)


def candidates(lw: FunctionLowerer, name: str, qualifier: Sequence[str] | None = None) -> list[Entry]:
    """What `name` may denote where `lw` lowers code: one declaration, several where the lookup is ambiguous."""
    if qualifier is None and lw.frames:
        qualifier = block_using(lw, name)
    return [lw.scope.constants[k] for k in keys(lw.scope, name, namespace_here(lw), qualifier)]


# the key a block-scope using-declaration of a name is kept under in the block's scope (never an identifier)
_USING = "using "


def declare_block_using(lw: FunctionLowerer, st: A.UsingDecl) -> None:
    """`using A::cnt;` in a function's block: until the block ends, `cnt` there is A::cnt, found before the
    namespaces' declarations ([namespace.udecl]/1: it declares the name in the block; [basic.lookup.unqual]: the
    block is searched first). Before, the statement was skipped and `cnt` read the global one silently."""
    for used in st.names:
        if len(used.parts) > 1 and declares(lw.scope, used.parts[-1].name):
            lw.frame.scopes[-1][_USING + used.parts[-1].name] = [p.name for p in used.parts[:-1]]  # type: ignore


def block_using(lw: FunctionLowerer, name: str) -> list[str] | None:
    """The qualifier of the innermost block-scope using-declaration of `name` in scope in this frame, if any (a
    local variable of that name declared in an inner block is found before this module is asked)."""
    for scope in reversed(lw.frame.scopes):
        used = scope.get(_USING + name)
        if isinstance(used, list):
            return used
    return None


def variable(lw: FunctionLowerer, name: str, qualifier: Sequence[str] | None = None,
             node: A.Node | None = None) -> Entry | None:
    """The namespace-scope variable `name` denotes where `lw` lowers code, or None where the program declares
    none; an ambiguous lookup is a gap at `node` (never one of the candidates picked silently)."""
    found = candidates(lw, name, qualifier)
    if len(found) > 1:
        ambiguous(lw, name, qualifier, node)
    return found[0] if found else None


def ambiguous(lw: FunctionLowerer, name: str, qualifier: Sequence[str] | None, node: A.Node | None) -> None:
    found = keys(lw.scope, name, namespace_here(lw), qualifier)
    raise unplaced(f"'{name}' could be any of the namespace-scope variables {', '.join(found)} (the lookup from "
                   "here does not tell them apart)", node, lw.scope.constants[found[0]][1])


def unplaced(message: str, node: A.Node | None, declared: A.Node) -> Unsupported:
    """An Unsupported at `node`; where the caller had none at hand (a name's lookup from lw.lookup or a type's),
    at the statement that holds it (lower_stmts reads `unplaced`), else, outside any statement (a kernel
    parameter's type), at `declared`, a declaration of the name: a place, never a report that fails."""
    exc = Unsupported(message, node if node is not None else declared)
    exc.unplaced = node is None  # type: ignore[attr-defined]
    return exc


def namespace_here(lw: FunctionLowerer) -> str:
    """The namespace the code being lowered is written in ('' the global one): that of the class whose method
    (or whose declarations) it is, else that of its function; '' outside any."""
    for frame in reversed(lw.frames):
        info = frame.this.info if frame.this is not None else None
        if info is not None:
            return class_namespace(lw.scope, info)
        if frame.namespace is not None:
            return frame.namespace
        if frame.owner is not None:
            return class_namespace(lw.scope, frame.owner)
    return ""


def class_namespace(scope: Scope, info: ClassInfo) -> str:
    """The namespace a class is declared in (a nested class: its outermost class's): where its members' bodies
    look names up after the class ([basic.lookup.unqual]/8, also for a body defined out of the class)."""
    while info.outer is not None:
        info = info.outer
    return scope.declared_in.get(id(info.decl), "")


def _split(namespace: str) -> list[str]:
    return namespace.split("::") if namespace else []


def _unqualified(scope: Scope, table: Mapping[str, object], name: str, here: str) -> list[str]:
    steps = _split(here)
    nominated = [(len(_common(_split(n), steps)), n) for n in sorted(scope.nominated(here))]
    for depth in range(len(steps), -1, -1):
        ns = "::".join(steps[:depth])
        found = [key(ns, name)] if key(ns, name) in table else []
        found += _used(scope, table, ns, name)
        found += [key(n, name) for level, n in nominated if level == depth and key(n, name) in table]
        if found:
            return list(dict.fromkeys(found))
    return []


def _qualified(scope: Scope, table: Mapping[str, object], name: str, here: str, qualifier: list[str]) -> list[str]:
    target = _namespace_named(scope, here, qualifier)
    if target is None:
        plain = [q for q in qualifier if q not in TRANSPARENT_NAMESPACES]
        target = _namespace_named(scope, here, plain) if plain != qualifier else None
        if target is None and not plain:
            target = ""  # `AscendC::x` of a variable the program declares globally: read as before
    return _members(scope, table, target, name, set()) if target is not None else []


def _namespace_named(scope: Scope, here: str, qualifier: list[str]) -> str | None:
    """The namespace `qualifier` names from code in `here`: the innermost reading that is one of the program's."""
    if qualifier and qualifier[0] == "":  # `::A::x`, `::x`
        written = "::".join(qualifier[1:])
        return written if not written or written in scope.namespace_paths else None
    if not qualifier:
        return None
    steps = _split(here)
    for depth in range(len(steps), -1, -1):
        candidate = "::".join(steps[:depth] + qualifier)
        if candidate in scope.namespace_paths:
            return candidate
    return None


def _members(scope: Scope, table: Mapping[str, object], namespace: str, name: str, seen: set[str]) -> list[str]:
    """`name` as a qualified lookup in `namespace` finds it ([namespace.qual]/2): declared there (or brought in
    by a using-declaration), else in the namespaces it nominates, theirs after them."""
    seen.add(namespace)
    if key(namespace, name) in table:
        return [key(namespace, name)]
    used = _used(scope, table, namespace, name)
    if used:
        return used
    found: list[str] = []
    for written in scope.using_directives.get(namespace, ()):
        nominated = _namespace_named(scope, namespace, written.split("::"))
        if nominated is not None and nominated not in seen:
            found += _members(scope, table, nominated, name, seen)
    return list(dict.fromkeys(found))


def _used(scope: Scope, table: Mapping[str, object], namespace: str, name: str) -> list[str]:
    """What a using-declaration `using N::name;` written in `namespace` brings in."""
    qualifier = scope.using_declarations.get(namespace, {}).get(name)
    if qualifier is None:
        return []
    target = _namespace_named(scope, namespace, qualifier)
    return _members(scope, table, target, name, {namespace}) if target is not None else []


def _common(a: list[str], b: list[str]) -> list[str]:
    n = 0
    while n < len(a) and n < len(b) and a[n] == b[n]:
        n += 1
    return a[:n]
