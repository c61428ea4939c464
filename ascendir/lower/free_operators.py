"""A binary operator on class objects that a non-member operator function of the program takes.

tla (catlass's CuTe-like layout library) computes with compile-time integers as objects of `C<v>`, which also
converts to its number (`operator value_type()`):

    template <auto t, auto u> C<(t + u)> operator+(C<t>, C<u>) { return {}; }
    ... return Int<1>{} + tla::apply(t, UnpackedDepth{});     // depth(t): C<1 + max depth of the elements>

For `C<1>{} + C<2>{}` C++ considers the non-member candidates `operator+` of the program beside the built-in `+`
on the converted numbers ([over.match.oper]/3); the template deduces from the operands' own classes, an exact match
better than the user-defined conversions the built-in candidate needs ([over.match.best], [over.ics.rank]/3.3), so
the result is the object `C<3>` (a type whose `::value` tla reads: `depth_v`). Only operands that are objects reach
here; a candidate whose deduction fails (a `C<t>` parameter given a number, [temp.deduct.call]) or whose parameter,
the deduced arguments substituted, names another class than its operand's (`C<0>` for a C<2>; `C<1>` of a plain
function for a C<4>: no conversion between two C<v> exists) is dropped, and where none is left the lowering converts
the objects to numbers as before. Of several left, C++ takes the best ([over.match.best]/2): the operands match
each exactly, so a plain function beats a template's specialisation (/2.4) and of templates the more specialised
by partial ordering (/2.5, [temp.func.order]: `operator+(C<t>, C<0>)` over `operator+(C<t>, C<u>)` for a C<0>).
Where none is best the call is ambiguous (/3): a gap (ASC103 at the expression), never the built-in `+` in its
place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascendir.lower import ctypes as C, partial_order
from ascendir.lower.errors import Unsupported
from ascendir.lower.frame import Frame
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
              and _takes_objects(lw, f, args) and _exact(lw, f, args, explicit_types(lw, f, None, args))]
    if not viable:
        return None  # the built-in operator on the converted numbers
    fn = _best(lw, viable)
    if fn is None:
        raise Unsupported(f"'{e.op}' on a {lhs.ctype} and a {rhs.ctype}: {len(viable)} operator{e.op} functions of the "
                          "program take the operands and none is better than the others (an ambiguous call, "
                          "[over.match.best]/3)", e)
    return lw.inline_function(fn, args, None, e, explicit_types(lw, fn, None, args))


def _exact(lw: FunctionLowerer, fn: A.FunctionDecl, args: list[Val], bound: dict[str, object]) -> bool:
    """Whether each object operand has the class `fn`'s parameter names once the deduced template arguments are
    substituted ([temp.deduct.call]/4: the deduced A must be identical to the argument's type; a plain function's
    `C<1>` takes no C<4>, there being no conversion between the two). A parameter whose type the lowering cannot
    resolve is taken as matching (what the name check of _takes_objects decided)."""
    lw.frames.append(Frame(fn.name.parts[-1].name, [{}], None, dict(bound), set()))
    try:
        for param, arg in zip(fn.params, args):
            if not isinstance(arg.obj, Instance):
                continue
            try:
                t = lw.param_type(param)
            except Unsupported:
                continue
            if isinstance(t, C.ClassT) and isinstance(arg.ctype, C.ClassT) and (t.name, t.args) != (
                    arg.ctype.name, arg.ctype.args):
                return False
    finally:
        lw.frames.pop()
    return True


def _best(lw: FunctionLowerer, viable: list[A.FunctionDecl]) -> A.FunctionDecl | None:
    """The best of the viable operator functions, each taking the operands exactly ([over.match.best]/2): the one
    plain function (/2.4), else the most specialised template (/2.5); None when no single one is."""
    if len(viable) == 1:
        return viable[0]
    plain = [f for f in viable if id(f) not in lw.scope.function_templates]
    if plain:
        return plain[0] if len(plain) == 1 else None
    return partial_order.more_specialised(
        [(f, partial_order.function_shapes(f.params, lw.scope.function_templates[id(f)])) for f in viable])


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
