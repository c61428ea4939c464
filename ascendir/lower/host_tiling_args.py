"""The argument reading and output writing the host formulas of library tiling functions share
(host_tiling_api.py, host_norm_tiling.py, host_topk_tiling.py): a shape argument and its dims and rank, a bool
flag that may be left out, rounding up to a multiple, maxValue / minValue written only where the library gets that
far, and host operations run only where a condition holds (a tiling block the library fills or leaves)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from xdsl.dialects import scf
from xdsl.ir import Block, Region, SSAValue

from ascendir.dialects import host as hd
from ascendir.lower import ctypes as C
from ascendir.lower.function import Unsupported
from ascendir.lower.host_select import select as _select
from ascendir.lower.host_select import u32 as _u32
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer


def shape(lw: HostLowerer, node: A.Node) -> SSAValue:
    from ascendir.lower.host import HostT

    v = lw.expr(node)
    if not isinstance(v.ctype, HostT) or v.ctype.kind not in ("shape", "shape_buffer"):
        raise Unsupported(f"a tiling API shape of {v.ctype} is not modelled", node)
    return lw._shape_value(v, node)


def dim(lw: HostLowerer, shape: SSAValue, index: int | Val, node: A.Node) -> Val:
    at = Val(C.U64, const=index) if isinstance(index, int) else index
    return lw.convert(Val(C.I64, lw.emit(hd.ShapeDimOp(shape, lw.ssa(lw.convert(at, C.I64, node), node)),
                                         node).results[0]), C.U32, node)


def rank(lw: HostLowerer, shape: SSAValue, node: A.Node) -> Val:
    return Val(C.U64, lw.emit(hd.ShapeDimNumOp(shape), node).results[0])


def flag(lw: HostLowerer, e: A.Call, at: int) -> Val:
    return lw.to_bool(lw.expr(e.args[at]), e) if len(e.args) > at else Val(C.BOOL, const=0)


def align(lw: HostLowerer, n: Val, unit: int, node: A.Node) -> Val:
    return lw.arith("*", lw.arith("/", lw.arith("+", n, _u32(unit - 1), node), _u32(unit), node), _u32(unit), node)


def assign_if(lw: HostLowerer, ok: Val, outs: list[A.Node], values: tuple[Val, Val], e: A.Call) -> None:
    """maxValue / minValue written where the library gets that far (its host asserts return early otherwise)."""
    for target, value in zip(outs, values):
        old = lw.convert(lw.expr(target), C.U32, e)
        lw.assign(target, _select(lw, ok, value, old, e), e)


def when(lw: HostLowerer, cond: Val, body: Callable[[], None], e: A.Node) -> None:
    """`body`'s host operations run where `cond` holds (inline when it is a constant)."""
    if cond.const is not None:
        if cond.const:
            body()
        return
    then, otherwise = Block(), Block()
    with lw.at_end_of(then):
        body()
        lw.emit(scf.YieldOp(), e)
    with lw.at_end_of(otherwise):
        lw.emit(scf.YieldOp(), e)
    lw.emit(scf.IfOp(lw.ssa(cond, e), [], Region(then), Region(otherwise)), e)
