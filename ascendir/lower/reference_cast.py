"""A cast of a scalar variable to a reference to another scalar type: `reinterpret_cast<int32_t&>(f)`,
`(int32_t&)f`. C++ ([expr.reinterpret.cast] p11) reads the object through a glvalue of the target type: its
bytes as that type, no conversion. Kernels read an index or flag that a vector instruction left in a float's bits
this way (ops-transformer moe_compute_expert_tokens: ReduceMax's index, `reinterpret_cast<int32_t&>(index)`).

Only reads are modelled: the cast's value is a new SSA value of the target type (a write through the reference,
`reinterpret_cast<int32_t&>(f) = 3`, is not an lvalue here and stays unsupported, with its diagnostic).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import arith

from ascendir.lower import ctypes as C
from ascendir.lower.ctypes import Scalar
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer


def scalar_reference_cast(lw: FunctionLowerer, e: A.Cast, t: C.CType, v: Val) -> Val | None:
    """The value of `e` when it casts the scalar `v` to a reference to the scalar type `t` names; None for any
    other cast (the caller's conversions apply)."""
    pointers = getattr(e.type, "pointers", None) or []
    if not pointers or pointers[-1] not in ("&", "&&") or "*" in pointers:
        return None
    target = t.pointee if isinstance(t, C.Pointer) else t
    if not isinstance(target, Scalar) or not isinstance(v.ctype, Scalar):
        return None
    if target == v.ctype:
        return v  # `static_cast<float&>(f)`: the object itself
    if e.kind not in ("reinterpret_cast", "c") or target.bits != v.ctype.bits:
        return None  # a size mismatch reads other bytes than the object's: not modelled
    if v.const is not None and v.ssa is None and not target.is_float and not v.ctype.is_float:
        return lw.convert(v, target, e)  # integers of one width: the same bits, the value of the target type
    value = lw.ssa(v, e)
    if C.scalar_ir_type(target) == value.type:
        return Val(target, value)  # int32_t <-> uint32_t: the same signless IR value
    return Val(target, lw.emit(arith.BitcastOp(value, C.scalar_ir_type(target)), e).results[0])
