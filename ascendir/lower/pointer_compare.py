"""`p == q` and `p != q` of two pointers neither of which is the null literal ([expr.eq]/3).

Two pointers are equal when they point to the same place: `q = p + 0`, `&a[1] == a + 1`. Before, the lowering
answered "not equal" for every such pair (the answer it gives a kernel pointer against nullptr), so `p == q`
after `q = p` was false silently. Where each kind of pointer points is known as it is held:

- a GM pointer is its simulator address and a UB pointer its UB byte address: the addresses are compared at run
  time (`p + 0` is the same address, a pointer into another buffer another);
- a pointer into a local array or to a local variable is its storage (the memref) and the element's indices:
  the same storage compares the indices, componentwise (those of one array are in bounds for a pointer the
  program may compare); different storage is different objects, which compare unequal (one past the end of one
  and the start of the next are unspecified, [expr.eq]/3.1);
- a pointer to an object the lowering holds is equal to a pointer to that object.

Any other pair (different kinds of memory, an object and a part of it, an address the lowering does not follow)
is a gap at the comparison, never a guess.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import arith
from xdsl.ir import SSAValue

from ascendir.dialects import ascendc as asc
from ascendir.lower import ctypes as C, ub_pointer
from ascendir.lower.errors import Unsupported
from ascendir.lower.values import Cell, Instance, Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

Place = tuple[SSAValue, list[SSAValue | int]]  # (the storage, the indices of the element in it)


def is_null_literal(v: Val) -> bool:
    """`nullptr`, `NULL`, `0` as a pointer operand (a pointer the lowering holds as the constant 0)."""
    return v.const == 0 and v.ssa is None and v.obj is None and isinstance(v.ctype, C.Pointer | C.Scalar)


def compare(lw: FunctionLowerer, op: str, a: Val, b: Val, node: A.Node) -> Val:
    """`a == b` / `a != b` (op) of two pointers, neither the null literal; a gap where the lowering cannot tell."""
    if _gm_address(a) and _gm_address(b):
        x, y = (_gm_word(lw, v, node) for v in (a, b))
        return lw.compare(op, x, y, node)
    if ub_pointer.is_ub_pointer(a.ctype) and ub_pointer.is_ub_pointer(b.ctype) and a.obj is None and b.obj is None:
        x, y = (ub_pointer.to_int(lw, v, C.U64, node) for v in (a, b))
        return lw.compare(op, x, y, node)
    pa, pb = _place(a), _place(b)
    if pa is not None and pb is not None:
        (ra, ia), (rb, ib) = pa, pb
        if ra is not rb:
            return Val(C.BOOL, const=int(op == "!="))  # two objects ([expr.eq]/3)
        if len(ia) == len(ib):
            return _indices_equal(lw, op, ia, ib, node)
    if isinstance(a.ctype, C.Pointer) and isinstance(b.ctype, C.Pointer) and isinstance(a.obj, Instance) \
            and a.obj is b.obj:
        return Val(C.BOOL, const=int(op == "=="))  # the same object
    raise Unsupported(f"comparison of two pointers ({a.ctype} {op} {b.ctype}): where they point is not followed "
                      "here", node)


def _gm_address(v: Val) -> bool:
    return isinstance(v.ctype, C.Pointer) and isinstance(v.ssa, SSAValue) and isinstance(v.ssa.type, asc.GmPtrType)


def _gm_word(lw: FunctionLowerer, v: Val, node: A.Node) -> Val:
    op = asc.GmPtrToIntOp.create(operands=[v.ssa], result_types=[C.scalar_ir_type(C.U64)])  # type: ignore[list-item]
    return Val(C.U64, lw.emit(op, node).results[0])


def _place(v: Val) -> Place | None:
    """Where a pointer into local memory points: an element of a local array (`&a[i]`, `a + k`, `a` itself)
    or a local variable (`&x`); None for any other value."""
    obj = v.obj
    if isinstance(v.ctype, C.ArrayT):  # an array, or a view into one, decays to its first element
        if isinstance(obj, Cell):
            return obj.ref, [*obj.at, 0]
        if isinstance(obj, tuple) and obj and obj[0] == "array_view":
            _, cell, indices = obj
            return cell.ref, [*indices, 0]
        if isinstance(obj, tuple) and obj and obj[0] == "array_offset":
            _, cell, indices, offset = obj
            return cell.ref, [*indices, offset if offset is not None else 0]
        return None
    if not isinstance(v.ctype, C.Pointer):
        return None
    if isinstance(obj, tuple) and obj and obj[0] == "array_elem":
        _, cell, indices = obj
        return cell.ref, list(indices)
    if isinstance(obj, Cell) and not isinstance(obj.ctype, C.ArrayT):
        return obj.ref, list(obj.at)  # `&x`
    return None


def _indices_equal(lw: FunctionLowerer, op: str, xs: list[SSAValue | int], ys: list[SSAValue | int],
                   node: A.Node) -> Val:
    same: list[SSAValue] = []
    for x, y in zip(xs, ys):
        cx, cy = _constant(x), _constant(y)
        if cx is not None and cy is not None:
            if cx != cy:
                return Val(C.BOOL, const=int(op == "!="))
            continue
        if x is y:
            continue
        sx, sy = (lw.index_const(c, node) if c is not None else s for c, s in ((cx, x), (cy, y)))
        same.append(lw.emit(arith.CmpiOp(sx, sy, "eq"), node).results[0])
    if not same:
        return Val(C.BOOL, const=int(op == "=="))
    result = same[0]
    for more in same[1:]:
        result = lw.emit(arith.AndIOp(result, more), node).results[0]
    if op == "!=":
        result = lw.emit(arith.XOrIOp(result, lw.const_ssa(1, C.BOOL, node)), node).results[0]
    return Val(C.BOOL, result)


def _constant(x: SSAValue | int) -> int | None:
    if isinstance(x, int):
        return x
    owner = x.owner
    if isinstance(owner, arith.ConstantOp):
        value = getattr(owner.value, "value", None)
        data = getattr(value, "data", None)
        return data if isinstance(data, int) else None
    return None
