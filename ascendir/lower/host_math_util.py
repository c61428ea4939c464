"""The ops repositories' integer helpers `Ops::Base::FloorDiv / FloorAlign / CeilDiv / CeilAlign` in host code.

They live in ops-base (hicann/opbase include/op_common/op_host/util/math_util.h), which an op folder read alone
does not reach. Modelled as that header defines them (commit 6604d3c), the zero cases included, since a tiling
reads the results in checks (deep_norm: `rowPerCore = CeilDiv(numRow, coreNum)` then `rowPerCore <= 0`):

* FloorDiv(x, y) (math_util.h:31): x / y, truncating as C does; x itself when y is 0.
* FloorAlign(x, a) (:40): x / a * a; 0 when a is 0.
* CeilDiv(x, y) (:49 signed, :63 unsigned): x itself when y or x is 0; otherwise the truncating quotient, plus
  one when there is a remainder and (signed T) x and y have the same sign, i.e. rounding toward +infinity.
* CeilAlign(x, a) (:77): 0 when a is 0; CeilDiv(x, a) * a, or the largest T when that product would pass it.

The header's templates take one T for both operands: T by the rule of ops_base_operands.py, which the kernel-side
model shares (two uint16_t operands are a uint16_t T, so CeilAlign saturates at 65535). A program's own function of one of
these names is called instead (host_calls.py hands those to the base lowering first).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascendir.lower import ctypes as C
from ascendir.lower.ctypes import Scalar
from ascendir.lower.function import Unsupported
from ascendir.lower.host_select import select as _select
from ascendir.lower.ops_base_operands import operand_type
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer

FUNCTIONS = frozenset({"FloorDiv", "FloorAlign", "CeilDiv", "CeilAlign"})


def call(lw: HostLowerer, e: A.Call, name: str, targs: list[A.TemplateArg] | None) -> Val:
    if len(e.args) != 2:
        raise Unsupported(f"'{name}' with {len(e.args)} arguments is not modelled (Ops::Base takes two)", e)
    x, y = (lw.expr(a) for a in e.args)
    t = operand_type(lw, x, y, targs)
    if t is None:
        raise Unsupported(f"'{name}' of non-integer operands is not modelled (Ops::Base's are integral)", e)
    x, y = lw.convert(x, t, e.args[0]), lw.convert(y, t, e.args[1])
    if name == "FloorDiv":
        return _select(lw, _is_zero(lw, y, e), x, _arith(lw, "/", x, _divisor(lw, y, e), e), e)
    if name == "FloorAlign":
        aligned = _arith(lw, "*", _arith(lw, "/", x, _divisor(lw, y, e), e), y, e)
        return _select(lw, _is_zero(lw, y, e), Val(t, const=0), aligned, e)
    if name == "CeilDiv":
        return _ceil_div(lw, x, y, e)
    return _ceil_align(lw, x, y, e)


def _arith(lw: HostLowerer, op: str, a: Val, b: Val, e: A.Call) -> Val:
    """`a op b` as a value of T (the operands' type): C promotes a T narrower than int to int for the operation,
    and the header's expressions are converted back to T where they are stored or returned."""
    return lw.convert(lw.arith(op, a, b, e), a.ctype, e)


def _ceil_div(lw: HostLowerer, x: Val, y: Val, e: A.Call) -> Val:
    t = x.ctype
    assert isinstance(t, Scalar)
    zero = Val(t, const=0)
    d = _divisor(lw, y, e)
    quotient = _arith(lw, "/", x, d, e)
    bump = lw.compare("!=", _arith(lw, "%", x, d, e), zero, e)
    if t.is_signed:  # only a positive exact quotient rounds up: (x ^ y) >= 0
        same_sign = lw.compare(">=", _arith(lw, "^", x, y, e), zero, e)
        bump = _select(lw, bump, same_sign, Val(C.BOOL, const=0), e)
    rounded = _select(lw, bump, _arith(lw, "+", quotient, Val(t, const=1), e), quotient, e)
    either_zero = _select(lw, _is_zero(lw, y, e), Val(C.BOOL, const=1), _is_zero(lw, x, e), e)
    return _select(lw, either_zero, x, rounded, e)


def _ceil_align(lw: HostLowerer, x: Val, align: Val, e: A.Call) -> Val:
    t = x.ctype
    assert isinstance(t, Scalar)
    d = _divisor(lw, align, e)
    quotient = _ceil_div(lw, x, d, e)
    largest = Val(t, const=(1 << (t.bits - 1)) - 1 if t.is_signed else (1 << t.bits) - 1)
    overflows = lw.compare(">", quotient, _arith(lw, "/", largest, d, e), e)
    aligned = _select(lw, overflows, largest, _arith(lw, "*", quotient, d, e), e)
    return _select(lw, _is_zero(lw, align, e), Val(t, const=0), aligned, e)


def _is_zero(lw: HostLowerer, v: Val, e: A.Call) -> Val:
    return lw.compare("==", v, Val(v.ctype, const=0), e)


def _divisor(lw: HostLowerer, v: Val, e: A.Call) -> Val:
    """`v`, or 1 where it is 0: both arms of a select are evaluated, and the header never divides by 0."""
    return _select(lw, _is_zero(lw, v, e), Val(v.ctype, const=1), v, e)
