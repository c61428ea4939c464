"""The operand type T of ops-base's integer helpers (`Ops::Base::CeilDiv / CeilAlign / FloorDiv / FloorAlign`),
one rule for the kernel-side (ops_base_kernel.py) and the host-side (host_math_util.py) models.

Both headers declare them as `template <typename T> T F(T a, T b)`: an explicit `<T>` is T; otherwise C++ deduces T
from the operands and accepts the call only when both have one type, which is then T itself (two uint16_t operands
make T = uint16_t, not the int that arithmetic on them would promote to). Where the lowering's types of the two
differ (a constant it typed otherwise than the compiler deduced) their common type stands in. None for a float T:
the helpers are modelled for integers only."""

from __future__ import annotations

from typing import Any

from ascendir.lower import ctypes as C
from ascendir.lower.ctypes import Scalar
from ascendir.lower.values import Val
from frontend import ast as A


def operand_type(lw: Any, a: Val, b: Val, targs: list[A.TemplateArg] | None) -> Scalar | None:
    """T for a call with operands `a`, `b` and template arguments `targs`, by the lowerer `lw` (kernel or host)."""
    if targs:
        explicit = lw._template_arg_value(targs[0])
        if isinstance(explicit, Scalar) and not explicit.is_float:
            return explicit
    if not isinstance(a.ctype, Scalar) or not isinstance(b.ctype, Scalar):
        return None
    t = a.ctype if a.ctype == b.ctype else C.common_type(a.ctype, b.ctype)
    return None if t.is_float else t
