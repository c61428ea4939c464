"""`memcpy` / `memcpy_s` of one scalar into another in host code: the bytes of a float reinterpreted as an integer.

ops-nn deep_norm's arch22 tiling stores its float attributes in uint32 tiling fields that way:
`uint32_t t; memcpy_s(&t, sizeof(float), &eps, sizeof(float)); tiling.set_eps_str(t);`. A copy of the whole object
(n equal to both sizes; memcpy_s's destination size at least n) is the bit pattern of the source read as the
destination's type; memcpy_s then returns EOK (0), memcpy its destination (not read here). Anything else (a part of
an object, objects of different sizes, arrays) is left to the caller's other forms.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import arith

from ascendir.lower import ctypes as C
from ascendir.lower.ctypes import Scalar
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer


def scalar_copy(lw: HostLowerer, e: A.Call, checked: bool) -> Val | None:
    """The copy `memcpy(&dst, &src, n)` / `memcpy_s(&dst, max, &src, n)` (`checked`) of two scalars, or None."""
    if len(e.args) != (4 if checked else 3):
        return None
    dst, src = e.args[0], e.args[2 if checked else 1]
    if not (_address_of(dst) and _address_of(src)):
        return None
    source = lw.expr(src.operand)  # type: ignore[attr-defined]
    target = lw.expr(dst.operand)  # type: ignore[attr-defined]
    if not isinstance(source.ctype, Scalar) or not isinstance(target.ctype, Scalar):
        return None
    size = source.ctype.bits // 8
    count = lw.const_eval(e.args[-1])
    room = lw.const_eval(e.args[1]) if checked else count
    if target.ctype.bits != source.ctype.bits or count != size or not isinstance(room, int) or room < size:
        return None
    value = source
    if target.ctype != source.ctype:
        cast = arith.BitcastOp(lw.ssa(source, e), C.scalar_ir_type(target.ctype))
        value = Val(target.ctype, lw.emit(cast, e).results[0])
    lw.assign(dst.operand, value, e)  # type: ignore[attr-defined]
    return Val(C.I32, const=0) if checked else Val(C.VoidT())


def _address_of(node: A.Node) -> bool:
    return isinstance(node, A.Unary) and node.op == "&"
