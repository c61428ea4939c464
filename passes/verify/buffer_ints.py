"""Integer arithmetic at a bit width, as arith's integer ops compute it: the width of a type, signed values,
comparisons, division and remainder, and the binary ops folded by the buffer state machine and footprint.py.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import Operation


def int_width(t: object) -> int | None:
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, IndexType):
        return 64
    return None


def signed_value(value: int, width: int) -> int:
    return value - (1 << width) if width > 1 and value >= 1 << (width - 1) else value


def compare_ints(predicate: int, a: int, b: int, width: int) -> int | None:
    sa, sb = signed_value(a, width), signed_value(b, width)
    table = {0: a == b, 1: a != b, 2: sa < sb, 3: sa <= sb, 4: sa > sb, 5: sa >= sb,
             6: a < b, 7: a <= b, 8: a > b, 9: a >= b}  # fmt: skip
    result = table.get(predicate)
    return None if result is None else int(result)


def _div(a: int, b: int, width: int, signed: bool, rem: bool = False) -> int | None:
    if b == 0:
        return None
    if signed:
        a, b = signed_value(a, width), signed_value(b, width)
        q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
        return a - q * b if rem else q
    return a % b if rem else a // b


BINARY_FOLDS: dict[type[Operation], Callable[[int, int, int], int | None]] = {
    arith.AddiOp: lambda a, b, w: a + b,
    arith.SubiOp: lambda a, b, w: a - b,
    arith.MuliOp: lambda a, b, w: a * b,
    arith.DivUIOp: lambda a, b, w: _div(a, b, w, False),
    arith.DivSIOp: lambda a, b, w: _div(a, b, w, True),
    arith.RemUIOp: lambda a, b, w: _div(a, b, w, False, rem=True),
    arith.RemSIOp: lambda a, b, w: _div(a, b, w, True, rem=True),
    arith.CeilDivUIOp: lambda a, b, w: None if b == 0 else -(-a // b),
    arith.ShLIOp: lambda a, b, w: a << b if b < w else None,
    arith.ShRUIOp: lambda a, b, w: a >> b if b < w else None,
    arith.AndIOp: lambda a, b, w: a & b,
    arith.OrIOp: lambda a, b, w: a | b,
    arith.XOrIOp: lambda a, b, w: a ^ b,
    arith.MinUIOp: lambda a, b, w: min(a, b),
    arith.MaxUIOp: lambda a, b, w: max(a, b),
    arith.MinSIOp: lambda a, b, w: a if signed_value(a, w) <= signed_value(b, w) else b,
    arith.MaxSIOp: lambda a, b, w: a if signed_value(a, w) >= signed_value(b, w) else b,
}
