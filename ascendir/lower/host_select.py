"""The small uint32 / bool helpers the host formulas of library tiling functions share (host_tiling_api.py,
host_norm_tiling.py, host_tiling_args.py, host_softmax_flash_size.py, host_softmax_flash_v1_size.py,
host_math_util.py, host_topk_tiling.py): a constant-folding select, the boolean AND made of it, a uint32 constant and
a divisor that is never 0. One definition, so that every formula folds and emits alike."""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import arith

from ascendir.lower import ctypes as C
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer


def u32(n: int) -> Val:
    return Val(C.U32, const=n)


def select(lw: HostLowerer, cond: Val, a: Val, b: Val, node: A.Node) -> Val:
    """`cond ? a : b` of two values of one type, folded when cond is a constant."""
    if cond.const is not None:
        return a if cond.const else b
    op = arith.SelectOp(lw.ssa(cond, node), lw.ssa(a, node), lw.ssa(b, node))
    return Val(a.ctype, lw.emit(op, node).results[0])


def both(lw: HostLowerer, a: Val, b: Val, node: A.Node) -> Val:
    """`a && b` of two bools (a select, so a constant side folds)."""
    return select(lw, a, b, Val(C.BOOL, const=0), node)


def nonzero(lw: HostLowerer, v: Val, node: A.Node) -> Val:
    """A uint32 divisor: 1 where `v` is 0 (the library writes nothing there, asserts first, or divides by zero
    itself; both arms of a select are evaluated)."""
    return select(lw, lw.compare("==", v, u32(0), node), u32(1), v, node)
