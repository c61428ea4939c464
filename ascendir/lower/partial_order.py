"""Partial ordering of class template partial specialisations ([temp.class.order]): where several partial
specialisations match one argument list, C++ takes the most specialised, the one whose pattern every other
matching pattern also matches, not the first declared. CATLASS-style libraries rely on it:

    template <class Arch, class E> struct CopyL1ToL0B<Arch, GemmType<E, zZ, B1>, GemmType<E, nZ, B2>>
    template <class Arch> struct CopyL1ToL0B<Arch, GemmType<float, zZ, B1>, GemmType<float, nZ, B2>>

For float operands both match; the second, written for float (LoadDataWithTranspose, since the transposing
LoadData moves 16-bit types only), is the one compiled.

The ordering is decided on the patterns' syntax: pattern P is at least as specialised as Q when Q's parameters
can be bound to parts of P (P's own parameters taken as opaque, unique types) so that Q becomes P. Arguments are
compared by their written shape: the last name of a qualified name and its template arguments, pointers and
array bounds, literals by their text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from frontend import ast as A

# a pattern argument as a tree: ("param", name) | ("pack", name) (`T...`, last of its list) | ("node", text,
# children)
Shape = tuple

_Candidate = TypeVar("_Candidate")


def shape_of(node: object, params: set[str]) -> Shape:
    """The written shape of one argument of a partial specialisation's pattern."""
    if isinstance(node, A.TypeArgExpr):
        return shape_of(node.type, params)
    if isinstance(node, A.TypeRef):
        suffix = "".join(node.pointers) + "".join("[]" for _ in (node.array_dims or []))
        if isinstance(node.base, A.QualifiedName):
            inner = _qualified_shape(node.base, params)
            return inner if not suffix else ("node", suffix, (inner,))
        return ("node", f"{node.base}{suffix}", ())
    if isinstance(node, A.Name):
        return _qualified_shape(node.qname, params)
    if isinstance(node, A.IntLit):
        return ("node", str(node.value), ())
    if isinstance(node, A.BoolLit):
        return ("node", "1" if node.value else "0", ())
    return ("node", f"<{type(node).__name__}@{getattr(node, 'span', '')}>", ())  # compares equal only to itself


def _qualified_shape(qname: A.QualifiedName, params: set[str]) -> Shape:
    last = qname.parts[-1]
    if len(qname.parts) == 1 and not last.template_args and last.name in params:
        return ("param", last.name)
    args = tuple(_packed(shape_of(a.value, params)) if a.pack else shape_of(a.value, params)
                 for a in last.template_args or [])
    return ("node", last.name, args)


def _packed(shape: Shape) -> Shape:
    """`T...` of a parameter pack T: a pack (anything else expanded is compared as written)."""
    return ("pack", shape[1]) if shape[0] == "param" else shape


def _binds(general: Shape, special: Shape, bound: dict[str, Shape]) -> bool:
    """Whether `general` (a pattern whose parameters may take any argument) becomes `special` with the
    bindings `bound`, extended as it goes."""
    if general[0] == "param":
        name = general[1]
        if name in bound:
            return bound[name] == special
        bound[name] = special
        return True
    if special[0] in ("param", "pack"):
        return False  # a concrete part of the general pattern against an arbitrary type (or any number)
    if general[1] != special[1]:
        return False
    inner, given = general[2], special[2]
    if inner and inner[-1][0] == "pack":
        # `tuple<T...>` becomes `tuple<T, U, T>` with the pack standing for the arguments its prefix leaves
        # (a pack of the special pattern is matched by a pack only: it may be any number of arguments)
        *fixed, pack = inner
        if len(given) < len(fixed):
            return False
        rest = ("node", "...", tuple(given[len(fixed):]))
        if pack[1] in bound and bound[pack[1]] != rest:
            return False
        bound[pack[1]] = rest
        return all(_binds(g, s, bound) for g, s in zip(fixed, given))
    if len(inner) != len(given):
        return False
    return all(_binds(g, s, bound) for g, s in zip(inner, given))


def at_least_as_specialised(special: Sequence[Shape], general: Sequence[Shape]) -> bool:
    """Whether the pattern `special` is at least as specialised as `general` (compared over the arguments both
    write; the rest are the primary's defaults in both)."""
    bound: dict[str, Shape] = {}
    return all(_binds(g, s, bound) for g, s in zip(general, special))


def pattern_shapes(pattern: Sequence[A.TemplateArg], params: Sequence[A.TemplateParam]) -> tuple[Shape, ...]:
    names = {p.name for p in params if p.name}
    # a parameter's name is local to its specialisation: tagging it keeps `T` of one pattern from being
    # mistaken for `T` of another
    return tuple(_tag(shape_of(a.value, names), id(params)) for a in pattern)


def _tag(shape: Shape, owner: int) -> Shape:
    if shape[0] in ("param", "pack"):
        return (shape[0], f"{shape[1]}#{owner}")
    return ("node", shape[1], tuple(_tag(s, owner) for s in shape[2]))


def most_specialised(matches: Sequence[tuple[_Candidate, tuple[Shape, ...]]]) -> _Candidate:
    """The candidate at least as specialised as every other matching one; the first declared when no single
    one is (C++ calls that ambiguous)."""
    for candidate, shapes in matches:
        if all(other is shapes or at_least_as_specialised(shapes, other) for _, other in matches):
            return candidate
    return matches[0][0]


def function_shapes(params: Sequence[A.Param], template_params: Sequence[A.TemplateParam]) -> tuple[Shape, ...]:
    """The written shapes of a function template's parameter types, for partial ordering ([temp.func.order]): a
    reference and the cv-qualifiers around the type are left out ([temp.deduct.partial]/5, /7)."""
    names = {p.name for p in template_params if p.name}
    shapes = []
    for p in params:
        t = p.type
        kept = [q for q in t.pointers if q not in ("&", "&&")]
        shapes.append(_tag(shape_of(A.TypeRef(t.span, t.base, pointers=kept, array_dims=t.array_dims), names),
                           id(template_params)))
    return tuple(shapes)


def more_specialised(matches: Sequence[tuple[_Candidate, tuple[Shape, ...]]]) -> _Candidate | None:
    """The candidate more specialised than every other ([temp.func.order]/2: at least as specialised as each, and
    no other at least as specialised as it); None when there is none (C++ calls the call ambiguous,
    [over.match.best]/3)."""
    for candidate, shapes in matches:
        if all(other is shapes or (at_least_as_specialised(shapes, other) and
                                   not at_least_as_specialised(other, shapes)) for _, other in matches):
            return candidate
    return None
