"""The elements a brace initialiser leaves out of a C array.

`int64_t outshape[64] = {};` and `int64_t sizes[3] = {1};` value-initialise every element the list does not
give: they hold 0 (C++ aggregate initialisation), which kernels rely on (NPUKernelBench's Cross takes a running
maximum over `outshape`). The given elements are stored one by one (FunctionLowerer.new_array); the rest are
zeroed first, by one loop over the whole array per dimension, so a large array costs a few ops, not one store
per element.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import UNKNOWN_LOC, IndexType, IntegerAttr
from xdsl.ir import Block, SSAValue

from ascendir.lower import ctypes as C
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer


def zero_fill(lw: FunctionLowerer, ref: SSAValue, dims: list[int], elem: C.Scalar, node: A.Node) -> None:
    """Stores 0 into every element of the array memref `ref` of shape `dims`."""
    zero = lw.const_ssa(0, elem, node)
    _fill(lw, ref, dims, [], zero, node)


def _fill(lw: FunctionLowerer, ref: SSAValue, dims: list[int], indices: list[SSAValue], zero: SSAValue,
          node: A.Node) -> None:
    if len(indices) == len(dims):
        lw.emit(memref.StoreOp.create(operands=[zero, ref, *indices], location=UNKNOWN_LOC), node)
        return
    lb, ub, step = (lw.emit(arith.ConstantOp(IntegerAttr(v, IndexType())), node).results[0]
                    for v in (0, dims[len(indices)], 1))
    body = Block(arg_types=[IndexType()])
    loop = lw.emit(scf.ForOp(lb, ub, step, [], body), node)
    with lw.at_end_of(loop.body.block):  # type: ignore[attr-defined]
        _fill(lw, ref, dims, [*indices, body.args[0]], zero, node)
        lw.emit(scf.YieldOp(), node)


def covers(items: list[object], dims: list[int]) -> bool:
    """Whether a brace list gives every element of an array of shape `dims` (flat, `{1, 2, 3, 4}` for [2][2],
    or row by row)."""
    total = 1
    for d in dims:
        total *= d
    rows = [getattr(item, "obj", None) for item in items]
    if not any(isinstance(r, list) for r in rows):
        return len(items) >= total
    return len(items) >= dims[0] and len(dims) > 1 and all(isinstance(r, list) and covers(r, dims[1:]) for r in rows)
