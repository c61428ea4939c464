"""The C++ library's number functions a host program's code calls (<cmath>, <numeric>), which device code has not.

A host program's main is lowered as device code is (host_program.py), and the device compiler has no libm: only
`sqrt` and `abs` are modelled there (calls_builtins.SCALAR_MATH). The host's code calls more: catlass 19_mla's
tiling (mla_tiling.cpp) picks a tile with `std::ceil(std::log2(tokenNum))` and splits the work with
`std::lcm(decoderBatch, blockDim)`. In a host program:

- ceil, floor, round, trunc, log, log2, log10, exp, exp2, pow, fabs are the math dialect's operations on double (C++
  calls the double overload for integer arguments), folded when their arguments are constants;
- std::gcd and std::lcm are Euclid's loop, lowered from a definition of ours (parsed once, below) as the program's
  own functions are, unless the program defines a function of that name.
"""

from __future__ import annotations

import math as pymath
from typing import TYPE_CHECKING

from xdsl.dialects import math

from ascendir.lower import ctypes as C
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

DOUBLE = C.Scalar("double")
# name -> (math op, Python's function for constant arguments, argument count)
_MATH = {
    "ceil": (math.CeilOp, pymath.ceil, 1), "floor": (math.FloorOp, pymath.floor, 1),
    "round": (math.RoundOp, lambda x: pymath.floor(abs(x) + 0.5) * (1 if x >= 0 else -1), 1),
    "trunc": (math.TruncOp, pymath.trunc, 1), "log": (math.LogOp, pymath.log, 1),
    "log2": (math.Log2Op, pymath.log2, 1), "log10": (math.Log10Op, pymath.log10, 1),
    "exp": (math.ExpOp, pymath.exp, 1), "exp2": (math.Exp2Op, lambda x: 2.0 ** x, 1),
    "pow": (math.PowFOp, pymath.pow, 2), "fabs": (math.AbsFOp, abs, 1),
}  # fmt: skip

_SOURCE = """\
template <class T, class U>
T gcd(T a, U b)
{
    T x = a < 0 ? -a : a;
    T y = b < 0 ? -b : b;
    while (y != 0) {
        T r = x % y;
        x = y;
        y = r;
    }
    return x;
}

template <class T, class U>
T lcm(T a, U b)
{
    if (a == 0 || b == 0) {
        return 0;
    }
    T x = a < 0 ? -a : a;
    T y = b < 0 ? -b : b;
    return x / gcd(x, y) * y;
}
"""
_PARSED: list[A.TemplateDecl] = []


def declare(lw: FunctionLowerer) -> None:
    """Adds std::gcd / std::lcm to the functions main's code may call, where the program defines none of that
    name."""
    if not _PARSED:
        from frontend.parser import get_parser

        unit = get_parser().parse(_SOURCE, "<host numeric>").unit
        _PARSED.extend(d for d in unit.decls if isinstance(d, A.TemplateDecl) and isinstance(d.decl, A.FunctionDecl))
    for d in _PARSED:
        fn = d.decl
        assert isinstance(fn, A.FunctionDecl)
        name = fn.name.parts[-1].name
        if not lw.scope.functions.get(name):
            lw.scope.functions[name] = [fn]
            lw.scope.function_templates[id(fn)] = d.params


def call(lw: FunctionLowerer, e: A.Call, name: str) -> Val | None:
    """ceil, log2, pow, ... of a host program (see the module's docstring); None for any other call, and for a
    function of that name the program defines."""
    found = _MATH.get(name)
    if found is None or len(e.args) != found[2] or lw.scope.functions.get(name):
        return None
    op_cls, fold, _ = found
    args = [lw.convert(lw.expr(a), DOUBLE, e) for a in e.args]
    if all(isinstance(a.const, int | float) for a in args):
        try:
            return Val(DOUBLE, const=float(fold(*[float(a.const) for a in args])))  # type: ignore[arg-type]
        except (ValueError, OverflowError):
            pass  # (log2 of 0: the operation's own result, as the host's)
    return Val(DOUBLE, lw.emit(op_cls(*[lw.ssa(a, e) for a in args]), e).results[0])
