"""Pointers into a local C array: `uint32_t *len = allMem + 2 * N;`, then `len[i]` read and written.

Host tiling functions (and kernels) carve one array into several with pointer arithmetic and hand the parts
to helpers and to `tiling.set_<arr>(ptr)`. The array lives in one memref; a pointer into it is kept as a view
of the array cell with an element offset on its innermost dimension (`("array_offset", cell, indices,
offset)`), typed as the array it points into so that it passes wherever the array itself passes. Indexing the
view indexes the array at offset + i; adding to it moves the offset.
"""

from __future__ import annotations

from xdsl.dialects import arith, memref
from xdsl.ir import SSAValue

from ascendir.lower import ctypes as C
from ascendir.lower.values import Cell, Val
from frontend import ast as A

OFFSET_VIEW = "array_offset"


def is_pointer_operand(v: Val) -> bool:
    """Whether `v` can take pointer arithmetic as an array pointer: a 1-D array of scalars (whole, or a view
    made by earlier arithmetic)."""
    t = v.ctype
    if not isinstance(t, C.ArrayT) or not isinstance(t.elem, C.Scalar):
        return False
    return isinstance(v.obj, Cell) or (isinstance(v.obj, tuple) and v.obj[0] == OFFSET_VIEW)


def offset_view(lowering: object, base: Val, n: Val, negate: bool, node: A.Node) -> Val:
    """`base + n` (or `base - n`) for an array pointer `base`: a view `n` elements further in."""
    lw = lowering
    t = base.ctype
    assert isinstance(t, C.ArrayT)
    if isinstance(base.obj, Cell):
        cell, indices, offset = base.obj, list(base.obj.at), None
    else:
        _, cell, indices, offset = base.obj  # type: ignore[misc]
    step = lw.index_value(n, node)  # type: ignore[attr-defined]
    if negate:
        step = lw.emit(arith.SubiOp(_index_const(lw, 0, node), step), node).results[0]  # type: ignore[attr-defined]
    if offset is not None:
        step = lw.emit(arith.AddiOp(offset, step), node).results[0]  # type: ignore[attr-defined]
    size = t.size
    if isinstance(n.const, int) and not isinstance(n.const, bool):
        size = max(t.size - (-n.const if negate else n.const), 0)
    return Val(C.ArrayT(t.elem, size), obj=(OFFSET_VIEW, cell, list(indices), step))


def element_address(lowering: object, e: A.Unary) -> Val | None:
    """`&arr[i]` for an array pointer `arr` (`int64_t *ss = &shape[k * 64];`): the view `i` elements in, as
    `arr + i` is; None when the operand is not an element of one (the caller lowers `&` as before)."""
    operand = e.operand
    if not isinstance(operand, A.Index) or not isinstance(operand.base, A.Name | A.Member):
        return None
    base = lowering.expr(operand.base)  # type: ignore[attr-defined]
    if not is_pointer_operand(base):
        return None
    index = lowering.expr(operand.index)  # type: ignore[attr-defined]
    if not isinstance(index.ctype, C.Scalar) or index.ctype.is_float:
        return None
    return offset_view(lowering, base, index, False, e)


def element_index(lowering: object, base: Val, index: Val, node: A.Node) -> tuple[Cell, list[SSAValue]] | None:
    """(array cell, full indices) of `view[index]` for an offset view; None for anything else."""
    if not (isinstance(base.obj, tuple) and base.obj[0] == OFFSET_VIEW):
        return None
    _, cell, indices, offset = base.obj
    i = lowering.index_value(index, node)  # type: ignore[attr-defined]
    at = lowering.emit(arith.AddiOp(offset, i), node).results[0]  # type: ignore[attr-defined]
    return cell, [*indices, at]


def _index_const(lowering: object, value: int, node: A.Node) -> SSAValue:
    return lowering.index_const(value, node)  # type: ignore[attr-defined]


def load(lowering: object, base: Val, index: Val, node: A.Node) -> Val:
    """The element `base[index]` of an array pointer (a whole array or an offset view)."""
    found = lowering.array_element(base, index, node)  # type: ignore[attr-defined]
    assert found is not None
    cell, indices, elem = found
    op = memref.LoadOp.create(operands=[cell.ref, *indices], result_types=[cell.ref.type.element_type])
    return Val(elem, lowering.emit(op, node).results[0])  # type: ignore[attr-defined]
