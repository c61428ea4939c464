"""A binary operator on class objects that a non-member operator function of the program takes.

tla (catlass's CuTe-like layout library) computes with compile-time integers as objects of `C<v>`, which also
converts to its number (`operator value_type()`):

    template <auto t, auto u> C<(t + u)> operator+(C<t>, C<u>) { return {}; }
    ... return Int<1>{} + tla::apply(t, UnpackedDepth{});     // depth(t): C<1 + max depth of the elements>

For `C<1>{} + C<2>{}` C++ considers the non-member candidates `operator+` of the program beside the built-in `+`
on the converted numbers ([over.match.oper]/3); the template deduces from the operands' own classes, an exact match
better than the user-defined conversions the built-in candidate needs ([over.match.best], [over.ics.rank]/3.3), so
the result is the object `C<3>` (a type whose `::value` tla reads: `depth_v`). Only operands that are objects reach
here; a candidate whose deduction fails (a `C<t>` parameter given a number, [temp.deduct.call]) is dropped, and
where none is left the lowering converts the objects to numbers as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascendir.lower.values import Instance, Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer


def call(lw: FunctionLowerer, e: A.Binary, lhs: Val, rhs: Val) -> Val | None:
    """`lhs op rhs` through the program's non-member `operator op` that takes both operands as they are, when one
    is an object of a class of the program; None when no such operator function takes them."""
    if not (isinstance(lhs.obj, Instance) or isinstance(rhs.obj, Instance)):
        return None
    fns = lw.scope.functions.get(f"operator{e.op}")
    if not fns:
        return None
    # (imported here: calls_overloads imports the function lowering, which imports this module's users)
    from ascendir.lower.calls_overloads import deduction_fails, explicit_types

    args = [lhs, rhs]
    viable = [f for f in fns if f.body is not None and len(f.params) == 2 and not deduction_fails(lw, f, args)
              and _takes_objects(lw, f, args)]
    if len(viable) != 1:
        return None  # none, or several the lowering cannot rank: the built-in operator on the converted numbers
    fn = viable[0]
    return lw.inline_function(fn, args, None, e, explicit_types(lw, fn, None, args))


def _takes_objects(lw: FunctionLowerer, fn: A.FunctionDecl, args: list[Val]) -> bool:
    """Whether each object operand is taken by a parameter naming its class template (`C<t>` for a C<1>), and each
    number by a parameter that is no class template's instance."""
    for param, arg in zip(fn.params, args):
        base = param.type.base
        last = base.parts[-1] if isinstance(base, A.QualifiedName) and base.parts else None
        templated = last is not None and bool(last.template_args)
        if isinstance(arg.obj, Instance):
            named = arg.obj.ctype.name.partition("<")[0].rsplit("::", 1)[-1]
            if not templated or last is None or named != last.name:
                return False
        elif templated:
            return False
    return True
