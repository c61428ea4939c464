"""The SIMT API's integer helpers a `__simt_vf__` thread computes indices with: the high half of a product and the
magic-number division.

asc-devkit (facts only):
- `__umulhi(x, y)`: the high 32 bits of the product of the uint32 x and y; `__mulhi` the same of int32 values;
  `__umul64hi(x, y)` the high 64 bits of the product of two uint64 values (docs/zh/api/SIMT-API/数学函数/
  整型数学库函数/__umulhi.md, __mulhi.md, __umul64hi.md);
- `Simt::UintDiv(dividend, magic, shift)` for T uint32_t or uint64_t: (dividend + mulhi(dividend, magic)) >> shift,
  the sum in T (impl/simt_api/cpp/dav_3510/kernel_simt_math_impl.h, UintDivImpl), the division by the divisor
  GetUintDivMagicAndShift made magic and shift of. The sum is T's as the impl writes it (`T sum = dividend + q`):
  for a dividend near T's top it wraps, and the quotient is not the division's; kept so.

All of it is integer arithmetic here: a 32-bit product is taken in 64 bits; the 64-bit high half from four
32-bit partial products (each fits in 64 bits), as a schoolbook multiplication does.

And the float math a thread calls (docs/zh/api/SIMT-API/数学函数/float类型数学库函数/: expf.md, logf.md, asinf.md,
rintf.md, ...): the SIMT API's own functions of float, which device code outside a SIMT thread does not have
(there `expf` is undeclared: calls_builtins.py). expf and logf are the hardware's __expf / __logf
(impl/simt_api/math_functions_impl.h: `expf(x) { return __expf(x); }`, logf scales a subnormal x by e^23
first), so the builtins are the same functions here. The pages state no error bound; each is the math dialect
op of its name, which the simulator computes in f64 and rounds once to float (correctly rounded, or within an
ulp of it: what a device result may differ by is not modelled). rintf / nearbyintf round to nearest even,
roundf half away from zero (rintf.md, roundf.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import arith, math

from ascendir.lower import ctypes as C
from ascendir.lower.errors import Unsupported
from ascendir.lower.values import Val
from frontend import ast as A

from ascendir.lower.simt_launch import thread_of

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

NAMES = frozenset({"__umulhi", "__mulhi", "__umul64hi", "UintDiv"})
# a SIMT thread's float functions: name -> the op computing it (of one float, else two)
FLOAT_MATH: dict[str, type] = {
    "expf": math.ExpOp, "__expf": math.ExpOp, "exp2f": math.Exp2Op, "expm1f": math.ExpM1Op, "logf": math.LogOp,
    "__logf": math.LogOp, "log2f": math.Log2Op, "log10f": math.Log10Op, "log1pf": math.Log1pOp,
    "sqrtf": math.SqrtOp, "rsqrtf": math.RsqrtOp, "fabsf": math.AbsFOp, "floorf": math.FloorOp,
    "__floorf": math.FloorOp, "ceilf": math.CeilOp, "roundf": math.RoundOp, "rintf": math.RoundEvenOp,
    "nearbyintf": math.RoundEvenOp, "truncf": math.TruncOp, "sinf": math.SinOp, "cosf": math.CosOp,
    "tanf": math.TanOp, "tanhf": math.TanhOp, "sinhf": math.SinhOp, "coshf": math.CoshOp, "asinf": math.AsinOp,
    "acosf": math.AcosOp, "atanf": math.AtanOp, "erff": math.ErfOp, "cbrtf": math.CbrtOp,
}  # fmt: skip
FLOAT_MATH_2: dict[str, type] = {
    "powf": math.PowFOp, "atan2f": math.Atan2Op, "copysignf": math.CopySignOp, "fmaxf": arith.MaxnumfOp,
    "fminf": arith.MinnumfOp, "__fdividef": arith.DivfOp, "fdividef": arith.DivfOp,
}  # fmt: skip


def call(lw: FunctionLowerer, e: A.Call, all_parts: list[A.NamePart], name: str,
         targs: list[A.TemplateArg] | None) -> Val | None:
    """`__umulhi(x, y)`, `__mulhi`, `__umul64hi`, `Simt::UintDiv(n, magic, shift)`, and in a SIMT thread its float
    functions (FLOAT_MATH, FLOAT_MATH_2); None for any other call."""
    if (name in FLOAT_MATH or name in FLOAT_MATH_2) and name not in lw.scope.functions and thread_of(lw) is not None:
        return _float_math(lw, e, name)
    if name not in NAMES or name in lw.scope.functions or not lw.report.api_uncatalogued:
        return None  # (the SIMT API is the 950's: simt_launch.call)
    if name == "UintDiv" and not any(p.name == "Simt" for p in all_parts[:-1]):
        return None
    want = 3 if name == "UintDiv" else 2
    if len(e.args) != want:
        raise Unsupported(f"{name} takes {want} arguments, not {len(e.args)}", e)
    args = [lw.expr(a) for a in e.args]
    if name == "__umulhi":
        return _mul_hi_32(lw, args[0], args[1], e, signed=False)
    if name == "__mulhi":
        return _mul_hi_32(lw, args[0], args[1], e, signed=True)
    if name == "__umul64hi":
        return _mul_hi_64(lw, lw.convert(args[0], C.U64, e), lw.convert(args[1], C.U64, e), e)
    t = lw._template_arg_value(targs[0]) if targs else args[0].ctype
    if t not in (C.U32, C.U64):
        raise Unsupported(f"Simt::UintDiv of {t}: the API takes uint32_t or uint64_t", e)
    n, magic, shift = (lw.convert(a, t, e) for a in args)
    high = _mul_hi_32(lw, n, magic, e, signed=False) if t == C.U32 else _mul_hi_64(lw, n, magic, e)
    return lw.arith(">>", lw.arith("+", n, high, e), shift, e)


def _float_math(lw: FunctionLowerer, e: A.Call, name: str) -> Val:
    want = 1 if name in FLOAT_MATH else 2
    if len(e.args) != want:
        raise Unsupported(f"{name} takes {want} argument{'s' if want > 1 else ''}, not {len(e.args)}", e)
    operands = [lw.ssa(lw.convert(lw.expr(a), C.F32, e), e) for a in e.args]
    op_cls = FLOAT_MATH.get(name) or FLOAT_MATH_2[name]
    return Val(C.F32, lw.emit(op_cls(*operands), e).results[0])


def _mul_hi_32(lw: FunctionLowerer, x: Val, y: Val, node: A.Node, signed: bool) -> Val:
    narrow, wide = (C.I32, C.I64) if signed else (C.U32, C.U64)
    product = lw.arith("*", lw.convert(lw.convert(x, narrow, node), wide, node),
                       lw.convert(lw.convert(y, narrow, node), wide, node), node)
    return lw.convert(lw.arith(">>", product, Val(wide, const=32), node), narrow, node)


def _mul_hi_64(lw: FunctionLowerer, x: Val, y: Val, node: A.Node) -> Val:
    def half(v: Val, high: bool) -> Val:
        return lw.arith(">>", v, Val(C.U64, const=32), node) if high else \
            lw.arith("&", v, Val(C.U64, const=0xFFFFFFFF), node)

    xl, xh, yl, yh = half(x, False), half(x, True), half(y, False), half(y, True)
    ll, lh = lw.arith("*", xl, yl, node), lw.arith("*", xl, yh, node)
    hl, hh = lw.arith("*", xh, yl, node), lw.arith("*", xh, yh, node)
    middle = lw.arith("+", lw.arith("+", half(ll, True), half(lh, False), node), half(hl, False), node)
    high = lw.arith("+", lw.arith("+", hh, half(lh, True), node), half(hl, True), node)
    return lw.arith("+", high, half(middle, True), node)
