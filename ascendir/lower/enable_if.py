"""Overloads a call never sees: a function template whose return type is `std::enable_if_t<cond, R>` (or
`typename std::enable_if<cond, R>::type`) where `cond` is false for the template arguments the call gives or the
parameters' defaults. C++ drops such a candidate (substitution failure); the overload picker, which goes by
arity and argument kinds, would otherwise take the first of several that differ only in that condition.

catlass's BlockMmad with prologues declares `Prologue(...)` three times, one per combination of a void PrologueA
or PrologueB (`template <class T = PrologueA, class U = PrologueB> std::enable_if_t<std::is_void_v<T> &&
!std::is_void_v<U>, void> Prologue(gmSrcB, ...)`), two of them with five parameters.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ascendir.lower.errors import Unsupported
from ascendir.lower.frame import Frame
from ascendir.lower.values import Instance
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer


def _condition(fn: A.FunctionDecl) -> A.TemplateArg | None:
    """The condition of `fn`'s enable_if return type, None when it has none."""
    found = parts_of(fn.return_type)
    return found[0] if found is not None else None


def parts_of(t: A.Node | None) -> tuple[A.TemplateArg, A.TemplateArg | None] | None:
    """The condition and the type (None: void) of `std::enable_if_t<cond, T>` or `typename std::enable_if<cond,
    T>::type`; None for any other node. Also what selects a partial specialisation by a defaulted `class Enable =
    void` parameter (catlass's tla TileCopyTla<Arch, TensorSrc, TensorDst, enable_if_t<isRowMajor<L>::value>>)."""
    if isinstance(t, A.TypeArgExpr):
        t = t.type
    if not isinstance(t, A.TypeRef) or not isinstance(t.base, A.QualifiedName) or t.pointers:
        return None
    parts = t.base.parts
    last = parts[-1]
    args = None
    if last.name == "enable_if_t":
        args = last.template_args
    elif last.name == "type" and len(parts) >= 2 and parts[-2].name == "enable_if":
        args = parts[-2].template_args
    if not args:
        return None
    return args[0], args[1] if len(args) > 1 else None


def disabled(lw: FunctionLowerer, fn: A.FunctionDecl, owner: Instance | None,
             targs: Sequence[A.TemplateArg] | None) -> bool:
    """Whether the enable_if of `fn`'s return type is false for the call's template arguments `targs` and the
    defaults of the rest (in the terms of `owner`'s class for a method). A condition that does not fold (a
    parameter deduced from the arguments) keeps the candidate."""
    cond = _condition(fn)
    params = lw.scope.function_templates.get(id(fn))
    if cond is None or not params or "enable_if" in lw.scope.classes or "enable_if_t" in lw.scope.classes:
        return False
    pushed = owner is not None
    if owner is not None:
        lw.frames.append(Frame(owner.info.name, [{}], owner, dict(owner.types), set()))
    try:
        given = [lw._template_arg_value(a) for a in targs or ()]
        if any(p.default is None and p.name for p in params[len(given):]):
            return False  # deduced from the arguments: not decided here
        with lw._template_frame(fn.name.parts[-1].name, params, given):
            value = lw._template_arg_value(cond)
    except Unsupported:
        return False
    finally:
        if pushed:
            lw.frames.pop()
    return isinstance(value, bool | int) and not value


def enabled(lw: FunctionLowerer, fns: Sequence[A.FunctionDecl], owner: Instance | None,
            targs: Sequence[A.TemplateArg] | None) -> list[A.FunctionDecl]:
    """`fns` less the overloads whose enable_if is false (all of them when that would leave none)."""
    if len(fns) < 2:
        return list(fns)
    kept = [fn for fn in fns if not disabled(lw, fn, owner, targs)]
    return kept or list(fns)


def fails_for(lw: FunctionLowerer, fn: A.FunctionDecl, bound: dict[str, object]) -> bool:
    """Whether an enable_if condition of the function template `fn` is false for the template arguments `bound`
    (given and deduced): its return type's, or a defaulted parameter's of the `typename std::enable_if<cond>::type*
    = nullptr` form (tla's TLA_REQUIRES(is_integral<T>::value) on `get<I>(T&& t)`, which a tuple argument drops,
    as C++ does by substitution failure, [temp.deduct]/8). A condition naming a parameter not bound, or that does
    not fold, decides nothing."""
    params = lw.scope.function_templates.get(id(fn))
    if not params or "enable_if" in lw.scope.classes or "enable_if_t" in lw.scope.classes:
        return False
    conditions = [c for c in [_condition(fn)] if c is not None]
    for p in params:
        if p.kind == "value" and p.type is not None and p.type.pointers == ["*"] and p.default is not None:
            found = parts_of(dataclasses.replace(p.type, pointers=[]))
            if found is not None:
                conditions.append(found[0])
    if not conditions or any(p.name and p.name not in bound and p.default is None for p in params):
        return False
    given = [bound.get(p.name or "", None) for p in params]
    if any(v is None for v, p in zip(given, params) if p.default is None):
        return False
    try:
        with lw._template_frame(fn.name.parts[-1].name, params, [v for v in given if v is not None]):
            for p in params:
                if p.name and p.name in bound:
                    lw.frame.types[p.name] = bound[p.name]
            values = [lw._template_arg_value(c) for c in conditions]
    except Unsupported:
        return False
    return any(isinstance(v, bool | int) and not v for v in values)
