"""The base classes of a class as C++ makes them: a pack expansion in the base list gives one base per element, and a
function template's class parameter deduces from a base of its argument's class.

tla (catlass's CuTe-like layout library) stores a tuple's elements in one base each:

    template <size_t... I, class... T>
    struct TupleBase<index_sequence<I...>, T...> : EBO<I, T>... { ... };    // EBO<0, T0>, EBO<1, T1>, ...
    template <size_t N, class T> T const& getv(EBO<N, T, false> const& x) { return x.t_; }
    template <size_t I, class... T> decltype(auto) get(tuple<T...> const& t) { return getv<I>(t); }

`EBO<I, T>...` names as many bases as the packs have elements, the k-th with every pack the pattern names taking its
k-th element (C++ [temp.variadic]/5 and /8: a pack expansion in a base-specifier-list). `getv<I>(t)` deduces T from
the one base of tuple's that is an `EBO<I, T, false>`: where P is a class template specialisation and the argument's
class is not one of that template, each base class is tried in turn, and deduction succeeds when exactly one base
deduces (C++ [temp.deduct.call]/4.3, [temp.deduct.call]/5). Each EBO base keeps its own `t_` (its members are its
own: two sibling bases declaring `t_` are two subobjects, [class.mi]); see lower_objects.instantiate.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from ascendir.lower import ctypes as C
from ascendir.lower.astwalk import rebuilt, walk
from ascendir.lower.values import Instance, Pack, Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer


def base_types(lw: FunctionLowerer, bases: list[A.TypeRef]) -> list[C.CType]:
    """The types of a class's bases, resolved in the current (class template) frame; a base written `B<I, T>...`
    is one base per element of the packs it names (all of one length), the k-th resolved with each of them bound to
    its k-th element."""
    out: list[C.CType] = []
    for ref in bases:
        if not ref.pack:
            out.append(lw.resolve_type(ref))
            continue
        types = lw.frame.types
        named = {n.name for n in walk(ref) if isinstance(n, A.NamePart)}
        packs = {name: v for name, v in types.items() if isinstance(v, Pack) and name in named}
        lengths = {len(p.items) for p in packs.values()}
        if len(lengths) != 1:
            continue  # no pack, or packs of different lengths: C++ rejects the expansion, the lowering drops it
        saved = dict(packs)
        try:
            for k in range(lengths.pop()):
                for name, pack in saved.items():
                    types[name] = pack.items[k]
                out.append(lw.resolve_type(ref))
        finally:
            types.update(saved)
    return out


def _pattern(param: A.TypeRef) -> tuple[A.TypeRef, str] | None:
    """A parameter's type as a deduction pattern, its references and cv-qualifiers dropped (`EBO<N, T, false>
    const&`), and the class template it names; None unless it names a class template specialisation."""
    if isinstance(param.base, str) or not param.base.parts or "*" in param.pointers or param.pack:
        return None
    last = param.base.parts[-1]
    if not last.template_args:
        return None
    return dataclasses.replace(param, pointers=[], qualifiers=[]), last.name


def _template_of(t: C.ClassT) -> str:
    return t.name.partition("<")[0].rsplit("::", 1)[-1]


def base_deduction(lw: FunctionLowerer, param: A.TypeRef, arg: object, names: set[str],
                   bound: dict[str, object]) -> Instance | None | bool:
    """Deduces the template parameters `names` of a parameter of class template type (`EBO<N, T, false> const&`) from
    a base of the argument's object whose class is of that template, when the object's own class is not: the one base
    part that deduces (its bindings added to `bound`), False when bases of that template exist and none (or more than
    one) deduces, as C++ then drops the candidate, None where this rule does not apply (the argument's class is of
    that template itself, no base is, or the argument is no object)."""
    found = _pattern(param)
    if found is None or not isinstance(arg, Instance):
        return None
    pattern, template = found
    if _template_of(arg.ctype) == template:
        return None
    parts = [p for p in object_parts(arg) if _template_of(p.ctype) == template]
    if not parts:
        return None
    deduced: list[tuple[Instance, dict[str, object]]] = []
    for part in parts:
        trial = dict(bound)
        if lw._match_pattern_arg(pattern, _completed(lw, part.ctype, template), names, trial):
            deduced.append((part, trial))
    if len(deduced) != 1:
        return False
    part, trial = deduced[0]
    bound.update(trial)
    return part


def _completed(lw: FunctionLowerer, t: C.ClassT, template: str) -> C.ClassT:
    """`t` with the arguments its primary template's defaults give (`EBO<0, int>` is `EBO<0, int, false>`), which a
    pattern naming all of them matches."""
    primary = lw.scope.classes.get(template) or lw.scope.declared_templates.get(template)
    if primary is None or not primary.template_params or len(t.args) >= len(primary.template_params):
        return t
    return C.ClassT(template, lw._with_defaults(primary, tuple(t.args)))


def object_parts(inst: Instance) -> list[Instance]:
    """The base-class parts of an object, depth first."""
    out: list[Instance] = []
    for b in inst.bases:
        out.append(b)
        out.extend(object_parts(b))
    return out


@contextmanager
def pack_element(lw: FunctionLowerer, k: int, nodes: Sequence[A.Node]) -> Iterator[None]:
    """Lowers the k-th element of a pack expansion (`EBO<I, T>(t)...` in a constructor's initialiser list): every
    function parameter pack and template parameter pack that `nodes` name stands for its k-th element."""
    named = {n.name for node in nodes for n in walk(node) if isinstance(n, A.NamePart)}
    frame = lw.frame
    types = frame.types
    saved = {name: v for name, v in types.items() if isinstance(v, Pack) and name in named and k < len(v.items)}
    values: dict[str, object] = {}
    for name in named:
        held = lw.lookup(name)
        if isinstance(held, Val) and isinstance(held.obj, Pack) and k < len(held.obj.items):
            values[name] = held.obj.items[k]
    frame.scopes.append(values)  # type: ignore[arg-type]
    types.update({name: pack.items[k] for name, pack in saved.items()})
    try:
        yield
    finally:
        types.update(saved)
        frame.scopes.pop()


def argument_bindings(params: Sequence[A.TemplateParam], args: Sequence[object]) -> dict[str, object]:
    """A class template's parameters bound to the arguments of one instance: a parameter pack takes the rest of the
    arguments (`template <typename T, T... Ns> struct IntegerSequence` of IntegerSequence<int, 0, 1>: Ns is 0, 1),
    or the one pack a partial specialisation's pattern deduced for it, whole. Parameters without an argument are
    left out (the caller's defaults)."""
    types: dict[str, object] = {}
    for i, p in enumerate(params):
        if p.name is None:
            continue
        if p.variadic:
            whole = i < len(args) and isinstance(args[i], Pack)
            types[p.name] = args[i] if whole else Pack(tuple(args[i:]))
            if not whole:
                break
        elif i < len(args):
            types[p.name] = args[i]
    return types


def alias_deduction(lw: FunctionLowerer, param: A.TypeRef, actual: object, names: set[str],
                    bound: dict[str, object]) -> bool:
    """Deduces from a parameter whose type names an alias template (`seq<I...>` of tla's `detail::apply(T&&, F&&,
    seq<I...>)`, given an IntegerSequence<int, 0, 1>): an alias template is the type it names, its parameters
    replaced by the arguments written (C++ [temp.alias]/2), so P is `IntegerSequence<int, I...>` and I is 0, 1.
    True when the alias's type matched (its bindings added to `bound`)."""
    found = _pattern(param)
    if found is None or not isinstance(actual, C.ClassT):
        return False
    pattern: A.TypeRef | None = found[0]
    for _ in range(4):  # (an alias of an alias: seq -> int_sequence -> IntegerSequence)
        pattern = alias_expanded(lw, pattern) if pattern is not None else None
        if pattern is None:
            return False
        last = pattern.base.parts[-1] if isinstance(pattern.base, A.QualifiedName) else None
        if last is not None and last.name not in lw.scope.alias_templates:
            trial = dict(bound)
            if not lw._match_pattern_arg(pattern, actual, names, trial):
                return False
            bound.update(trial)
            return True
    return False


def alias_expanded(lw: FunctionLowerer, ref: A.TypeRef) -> A.TypeRef | None:
    """The type an alias template names (`seq<I0, Is...>` is `IntegerSequence<int, I0, Is...>`), the arguments
    written put in place of its parameters: a parameter pack's expansion takes the arguments left, others a bare
    name each (renamed in place); None for any other type."""
    if not isinstance(ref.base, A.QualifiedName) or any(p.template_args for p in ref.base.parts[:-1]):
        return None
    last = ref.base.parts[-1]  # (`tla::index_sequence<Is...>`: the namespaces written name the same alias)
    params = lw.scope.alias_templates.get(last.name)
    target = lw.scope.aliases.get(last.name)
    if not params or target is None or not last.template_args:
        return None
    written = last.template_args
    renamed: dict[str, str] = {}
    spliced: dict[str, list[A.TemplateArg]] = {}
    for i, p in enumerate(params):
        if p.name is None:
            return None
        if p.variadic:
            spliced[p.name] = list(written[i:])
            break
        bare = _bare_name(written[i].value) if i < len(written) else None
        if bare is None or written[i].pack:
            return None
        renamed[p.name] = bare
    else:
        if len(written) != len(params):
            return None
    return _renamed(_spliced(target, spliced), renamed)  # type: ignore[return-value]


def _spliced(node: A.Node, packs: dict[str, list[A.TemplateArg]]) -> A.Node:
    """A copy of `node` with each template argument `P...` of a pack `P` in `packs` replaced by its arguments."""
    if not packs:
        return node

    def visit(n: A.Node) -> A.Node | None:
        if not (isinstance(n, A.NamePart) and n.template_args):
            return None
        items: list[A.TemplateArg] = []
        for a in n.template_args:
            name = _bare_name(a.value) if a.pack else None
            items += packs[name] if name in packs else [rebuilt(a, visit)]  # type: ignore[list-item]
        return dataclasses.replace(n, template_args=items)

    return rebuilt(node, visit)


def _bare_name(node: A.Node) -> str | None:
    if isinstance(node, A.TypeArgExpr):
        node = node.type
    qname = node.base if isinstance(node, A.TypeRef) and not node.pointers else (
        node.qname if isinstance(node, A.Name) else None)
    if not isinstance(qname, A.QualifiedName) or len(qname.parts) != 1 or qname.parts[0].template_args:
        return None
    return qname.parts[0].name


def _renamed(node: A.Node, names: dict[str, str]) -> A.Node:
    """A copy of `node` with each one-part name in `names` renamed."""

    def visit(n: A.Node) -> A.Node | None:
        if isinstance(n, A.QualifiedName) and len(n.parts) == 1 and n.parts[0].name in names \
                and not n.parts[0].template_args:
            return dataclasses.replace(n, parts=[dataclasses.replace(n.parts[0], name=names[n.parts[0].name])])
        return None

    return rebuilt(node, visit)


def pack_length(lw: FunctionLowerer, node: A.Node) -> int | None:
    """The length of the template parameter packs a pack expansion's pattern names (`Int<Is*0>...`), None when it
    names none or packs of different lengths."""
    named = {n.name for n in walk(node) if isinstance(n, A.NamePart)}
    lengths = {len(v.items) for name, v in lw.frame.types.items() if isinstance(v, Pack) and name in named}
    return lengths.pop() if len(lengths) == 1 else None
