"""C's arithmetic on constants, as the function lowering folds it: values wrapped to their type's width,
constant conversions, binary operators folded, and the largest finite value of each float type.

A module of its own because it is pure C semantics on Python numbers, with no IR in it.
"""

from __future__ import annotations

import math

from ascendir.lower.ctypes import Scalar


FLOAT_MAX = {"half": 65504.0, "bfloat16_t": 3.3895313892515355e38, "float": 3.4028234663852886e38}


def wrap_to_type(value: float, t: Scalar) -> int | float:
    if t.is_float or isinstance(value, float):
        return float(value) if t.is_float else value
    bits = t.bits
    value &= (1 << bits) - 1
    if t.kind == "int" and value >= 1 << (bits - 1):
        value -= 1 << bits
    return value


def convert_const(v: float, s: Scalar, t: Scalar) -> int | float:
    if t.kind == "bool":
        return int(bool(v))
    if t.is_float:
        return float(v)
    if isinstance(v, float):
        v = int(v)  # C truncates toward zero
    return wrap_to_type(v, t)


def fold_binary(op: str, x: float, y: float, t: Scalar) -> int | float | None:
    try:
        if op == "+":
            r = x + y
        elif op == "-":
            r = x - y
        elif op == "*":
            r = x * y
        elif op == "/":
            if y == 0 and t.is_float:
                # IEEE: `0.0 / 0.0` is how vendor code writes a NaN constant, folded by the compiler
                r = math.nan if x == 0 or x != x else math.copysign(math.inf, x) * math.copysign(1.0, y)
                return wrap_to_type(r, t)
            if y == 0:
                return None
            r = x / y if t.is_float else int(x / y) if (x < 0) != (y < 0) else x // y  # type: ignore[operator]
        elif op == "%":
            if y == 0 or t.is_float:
                return None
            r = x - int(x / y) * y  # type: ignore[operator]
        elif op == "<<":
            r = int(x) << int(y)
        elif op == ">>":
            r = int(x) >> int(y)
        elif op == "&":
            r = int(x) & int(y)
        elif op == "|":
            r = int(x) | int(y)
        elif op == "^":
            r = int(x) ^ int(y)
        else:
            return None
    except (OverflowError, ValueError):
        return None
    return wrap_to_type(r, t)
