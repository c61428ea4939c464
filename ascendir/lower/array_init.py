"""The elements a brace initialiser leaves out of a C array.

`int64_t outshape[64] = {};` and `int64_t sizes[3] = {1};` value-initialise every element the list does not
give: they hold 0 (C++ aggregate initialisation), which kernels rely on (NPUKernelBench's Cross takes a running
maximum over `outshape`). The given elements are stored one by one (`store_list`, for a declared array and for
an array member of a record given a brace list); the rest are zeroed first, by one loop over the whole array
per dimension, so a large array costs a few ops, not one store per element.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import UNKNOWN_LOC, IndexType, IntegerAttr
from xdsl.ir import Block, SSAValue

from ascendir.lower import ctypes as C
from ascendir.lower.errors import Unsupported
from ascendir.lower.values import Cell, Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer


def zero_fill(lw: FunctionLowerer, ref: SSAValue, dims: list[int], elem: C.Scalar, node: A.Node,
              at: tuple[SSAValue, ...] = ()) -> None:
    """Stores 0 into every element of the array memref `ref` of shape `dims` (after position `at`: one
    element's member of an array of objects held as a structure of arrays, object_arrays.py)."""
    zero = lw.const_ssa(0, elem, node)
    _fill(lw, ref, dims, list(at), len(at), zero, node)


def _fill(lw: FunctionLowerer, ref: SSAValue, dims: list[int], indices: list[SSAValue], fixed: int, zero: SSAValue,
          node: A.Node) -> None:
    if len(indices) == fixed + len(dims):
        lw.emit(memref.StoreOp.create(operands=[zero, ref, *indices], location=UNKNOWN_LOC), node)
        return
    lb, ub, step = (lw.emit(arith.ConstantOp(IntegerAttr(v, IndexType())), node).results[0]
                    for v in (0, dims[len(indices) - fixed], 1))
    body = Block(arg_types=[IndexType()])
    loop = lw.emit(scf.ForOp(lb, ub, step, [], body), node)
    with lw.at_end_of(loop.body.block):  # type: ignore[attr-defined]
        _fill(lw, ref, dims, [*indices, body.args[0]], fixed, zero, node)
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


def store_list(lw: FunctionLowerer, cell: Cell, items: list[object], node: A.Node) -> None:
    """Stores brace list `items` (lowered values, nested lists for rows) into the array `cell` holds, the
    elements it leaves out zeroed."""
    dims, elem = C.array_shape(cell.ctype)  # type: ignore[arg-type]
    if not covers(items, dims):  # `int a[64] = {};`: the elements not given are 0
        if not isinstance(elem, C.Scalar):  # (a table of structs: ffn's {type, function pointer} pairs)
            raise Unsupported(f"an array of {elem} given fewer initialisers than elements is not modelled", node)
        zero_fill(lw, cell.ref, dims, elem, node, cell.at)
    for position, item in _flatten_init(items, dims):
        idx = [lw.index_const(i, node) for i in position]
        item = lw.convert(item, elem, node)
        lw.store_element(lw.ssa(item, node), cell.ref, [*cell.at, *idx], node)


def _flatten_init(items: list[object], dims: list[int]) -> Iterator[tuple[list[int], Val]]:
    """(index tuple, value) for a brace initialiser of an array of shape `dims` (nested or flat)."""
    flat_nested = all(isinstance(i, Val) and not isinstance(i.obj, list) for i in items)
    if len(dims) > 1 and flat_nested:  # `int a[2][2] = {1, 2, 3, 4}`
        for n, item in enumerate(items):
            position, rest = [], n
            for d in reversed(dims):
                position.insert(0, rest % d)
                rest //= d
            if rest == 0:
                yield position, item  # type: ignore[misc]
        return
    for i, item in enumerate(items[: dims[0]]):
        if len(dims) > 1 and isinstance(item, Val) and isinstance(item.obj, list):
            for position, value in _flatten_init(item.obj, dims[1:]):
                yield [i, *position], value
        elif isinstance(item, Val):
            yield [i], item
