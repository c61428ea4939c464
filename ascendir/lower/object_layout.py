"""The bytes of a plain class object, as C lays them out: `sizeof(T)` of a user class, and words written into an
array of such objects through a pointer of another type.

catlass's grouped kernels receive their per-group problem shapes and layouts as raw bytes the host copied from a
std::vector<GemmCoord> / std::vector<layout::RowMajor>, and unpack them into local object arrays a 64-bit word at a
time:

    GemmCoord problemShapeList[MAX_TENSOR_COUNT];
    for (uint32_t i = 0; i * sizeof(uint64_t) < len * sizeof(T); ++i) {
        reinterpret_cast<uint64_t *>(dst)[i] = reinterpret_cast<__gm__ uint64_t *>(src)[i];
    }

An object is a set of cells here (object_arrays.py holds an array of them as one memref per field), not bytes, so
both need the object's C layout: its scalar data members in declaration order (base classes first, nested
objects in place, arrays element by element), each at the next offset aligned to its size, the object's size
rounded up to its largest alignment (the Itanium C++ ABI's rule for standard-layout classes, which the host and
device compilers follow; static members take no room). A word written at byte B of the array updates every
scalar slot it overlaps: the slot's element and field are computed from B, its bytes replaced by the word's.
Only classes whose data are plain numbers have a layout here; an array of numbers (`float alphaList[N]`, unpacked
the same way) is written so too, an element a slot. Reading such an array through another pointer type is not
modelled (a gap, not a value).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType, i64
from xdsl.ir import Block, SSAValue

from ascendir.lower import ctypes as C
from ascendir.lower.errors import Unsupported
from ascendir.lower.fast_ops import erase_ops, load_op
from ascendir.lower.values import Cell, Instance, Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer


@dataclass(frozen=True)
class Slot:
    """One scalar of the object: the cell holding it, its position in that cell (an array member's element),
    its byte offset in the object and its type."""

    cell: Cell
    position: tuple[int, ...]
    offset: int
    ctype: C.Scalar


@dataclass(frozen=True)
class Layout:
    size: int
    align: int
    slots: tuple[Slot, ...]


def _round_up(n: int, a: int) -> int:
    return -(-n // a) * a


def layout_of(inst: Instance) -> Layout | None:
    """The C layout of object `inst` (its cells as they are: an element view's or an array's fields); None when
    it holds anything but numbers."""
    offset, align, slots = 0, 1, []
    parts: list[tuple[Layout, int]] = []
    for base in inst.bases:
        held = layout_of(base)
        if held is None:
            return None
        if held.slots:  # (an empty base takes no room in a derived object: the empty base optimisation)
            parts.append((held, 0))
    for vd, d in inst.info.fields:
        if "static" in vd.specifiers:
            continue
        member = inst.members.get(d.name)
        held = _member_layout(member)
        if held is None:
            return None
        parts.append((held, 0))
    for held, _ in parts:
        offset = _round_up(offset, held.align)
        slots.extend(Slot(s.cell, s.position, s.offset + offset, s.ctype) for s in held.slots)
        offset += held.size
        align = max(align, held.align)
    return Layout(max(_round_up(offset, align), 1), align, tuple(slots))


def _member_layout(member: object) -> Layout | None:
    if isinstance(member, Instance):
        return layout_of(member)
    if not isinstance(member, Cell) or member.points_to is not None:
        return None
    t = member.ctype
    if isinstance(t, C.Scalar):
        return Layout(t.size, t.size, (Slot(member, (), 0, t),))
    if isinstance(t, C.ArrayT):
        dims, elem = C.array_shape(t)
        if not isinstance(elem, C.Scalar):
            return None
        positions: list[tuple[int, ...]] = [()]
        for n in dims:
            positions = [p + (i,) for p in positions for i in range(n)]
        slots = tuple(Slot(member, p, k * elem.size, elem) for k, p in enumerate(positions))
        return Layout(max(elem.size * len(positions), 1), elem.size, slots)
    return None


def size_of(lw: FunctionLowerer, t: C.ClassT | C.TilingT, node: A.Node) -> int | None:
    """`sizeof(T)` of a user class whose data are numbers (an object built apart, then dropped); None for any
    other class."""
    if isinstance(t, C.TilingT):  # a plain struct of the program's own, read as tiling data elsewhere
        if t.path or t.name not in lw.scope.classes:
            return None
        t = C.ClassT(t.name)
    if t.name not in lw.scope.classes:
        return None
    scratch = Block()
    try:
        with lw.detached(scratch):
            sample = lw.instantiate(t, "sizeof", node, construct=False)
            held = layout_of(sample)
    except Unsupported:
        return None
    finally:
        erase_ops(scratch)
    return held.size if held is not None else None


def reinterpreted_array(lw: FunctionLowerer, e: A.Node) -> tuple[object, C.Scalar] | None:
    """`reinterpret_cast<uint64_t *>(dst)` (or a C cast) of an array of objects held as a structure of arrays: the
    array (object_arrays.ObjectArray) and the scalar type it is viewed as; None for anything else."""
    from ascendir.lower import object_arrays

    if not isinstance(e, A.Cast) or e.expr is None or e.kind not in ("reinterpret_cast", "c", "static_cast"):
        return None
    if not isinstance(e.type, A.TypeRef) or e.type.pointers != ["*"]:
        return None
    mark = lw._mark()
    try:
        source = lw.expr(e.expr)
    except Unsupported:
        lw._rollback(mark)
        return None
    plain = isinstance(source.ctype, C.ArrayT) and isinstance(source.ctype.elem, C.Scalar) and \
        isinstance(source.obj, Cell) and len(C.array_shape(source.ctype)[0]) == 1
    if not isinstance(source.obj, object_arrays.ObjectArray) and not plain:
        lw._rollback(mark)
        return None
    from dataclasses import replace

    viewed = lw.resolve_type(replace(e.type, pointers=[]), e)
    if plain and viewed == source.ctype.elem:  # type: ignore[union-attr]
        lw._rollback(mark)
        return None  # the array's own element type: an ordinary pointer to it
    if not isinstance(viewed, C.Scalar) or viewed.is_float or viewed.size not in (1, 2, 4, 8):
        raise Unsupported(f"an array of {source.ctype} viewed as {viewed} through a pointer", e)
    return source.obj, viewed


def store_word(lw: FunctionLowerer, array: object, viewed: C.Scalar, index: Val, value: Val, node: A.Node) -> None:
    """`reinterpret_cast<U *>(objects)[index] = value`: the slots the word's bytes overlap take those bytes."""
    from ascendir.lower.object_arrays import ObjectArray

    if isinstance(array, Cell):  # an array of numbers (`ElementScalar alphaList[N]`): an element a slot
        assert isinstance(array.ctype, C.ArrayT) and isinstance(array.ctype.elem, C.Scalar)
        elem = array.ctype.elem
        held, count = Layout(elem.size, elem.size, (Slot(array, (), 0, elem),)), array.ctype.size
    else:
        assert isinstance(array, ObjectArray)
        found = layout_of(array.fields)
        if found is None:
            raise Unsupported(f"writing the bytes of {array.elem}, which holds more than numbers", node)
        held, count = found, array.size
    width = viewed.size
    word = to_i64(lw, lw.ssa(lw.convert(value, viewed, node), node), viewed, node)
    start = _mul(lw, to_i64(lw, lw.ssa(index, node), index.ctype, node), _c(lw, width, node), node)  # byte B
    size = held.size
    for slot in held.slots:
        w = slot.ctype.size
        # the elements whose copy of this slot overlaps [B, B + width): from ceil((B - w + 1 - offset) / size)
        first = _op(lw, arith.DivUIOp, _add(lw, start, _c(lw, size - w - slot.offset, node), node),
                    _c(lw, size, node), node)
        for k in range(-(-(width + w - 1) // size) + 1):
            element = _add(lw, first, _c(lw, k, node), node) if k else first
            _merge_slot(lw, count, slot, element, start, width, word, size, node)


def _merge_slot(lw: FunctionLowerer, count: int, slot: Slot, element: SSAValue, start: SSAValue, width: int,
                word: SSAValue, size: int, node: A.Node) -> None:
    w = slot.ctype.size
    begin = _add(lw, _mul(lw, element, _c(lw, size, node), node), _c(lw, slot.offset, node), node)
    shift = _op(lw, arith.SubiOp, begin, start, node)  # where the slot starts, in the word's bytes (signed)
    overlaps = _and(lw, _cmp(lw, "slt", shift, _c(lw, width, node), node),
                    _cmp(lw, "sgt", shift, _c(lw, -w, node), node), node)
    inside = _and(lw, overlaps, _cmp(lw, "ult", element, _c(lw, count, node), node), node)
    zero = _c(lw, 0, node)
    # the word's bytes as the slot's: shifted down when the slot starts inside the word, up when before it
    down = _op(lw, arith.ShRUIOp, word, _mul(lw, _op(lw, arith.MaxSIOp, shift, zero, node), _c(lw, 8, node), node),
               node)
    up_by = _mul(lw, _op(lw, arith.MaxSIOp, _op(lw, arith.SubiOp, zero, shift, node), zero, node), _c(lw, 8, node),
                 node)
    piece = _op(lw, arith.ShLIOp, down, up_by, node)
    # which of the slot's bytes the word covers: [max(0, -shift), min(w, width - shift))
    low = _op(lw, arith.MaxSIOp, _op(lw, arith.SubiOp, zero, shift, node), zero, node)
    high = _op(lw, arith.MinSIOp, _c(lw, w, node), _op(lw, arith.SubiOp, _c(lw, width, node), shift, node), node)
    covered = _op(lw, arith.MaxSIOp, _op(lw, arith.SubiOp, high, low, node), _c(lw, 1, node), node)
    ones = _op(lw, arith.ShRUIOp, _c(lw, -1, node), _op(lw, arith.SubiOp, _c(lw, 64, node),
                                                       _mul(lw, covered, _c(lw, 8, node), node), node), node)
    mask = _op(lw, arith.ShLIOp, ones, _mul(lw, low, _c(lw, 8, node), node), node)
    # (an element past the array is clamped to its last, which then keeps its value)
    at = lw.index_value(Val(C.I64, _op(lw, arith.MinUIOp, element, _c(lw, count - 1, node), node)), node)
    indices = [at, *(lw.index_value(Val(C.I64, const=p), node) for p in slot.position)]
    old_raw = lw.emit(load_op(slot.cell.ref, indices), node).results[0]
    old = to_i64(lw, old_raw, slot.ctype, node)
    merged = _op(lw, arith.OrIOp, _op(lw, arith.AndIOp, old, _op(lw, arith.XOrIOp, mask, _c(lw, -1, node), node),
                                      node), _op(lw, arith.AndIOp, piece, mask, node), node)
    new = lw.emit(arith.SelectOp(inside, merged, old), node).results[0]
    lw.store_element(from_i64(lw, new, slot.ctype, node), slot.cell.ref, indices, node)


def _c(lw: FunctionLowerer, n: int, node: A.Node) -> SSAValue:
    return lw.const_ssa(n, C.I64, node)


def _op(lw: FunctionLowerer, cls: type, a: SSAValue, b: SSAValue, node: A.Node) -> SSAValue:
    return lw.emit(cls(a, b), node).results[0]


def _add(lw: FunctionLowerer, a: SSAValue, b: SSAValue, node: A.Node) -> SSAValue:
    return _op(lw, arith.AddiOp, a, b, node)


def _mul(lw: FunctionLowerer, a: SSAValue, b: SSAValue, node: A.Node) -> SSAValue:
    return _op(lw, arith.MuliOp, a, b, node)


def _and(lw: FunctionLowerer, a: SSAValue, b: SSAValue, node: A.Node) -> SSAValue:
    return _op(lw, arith.AndIOp, a, b, node)


def _cmp(lw: FunctionLowerer, predicate: str, a: SSAValue, b: SSAValue, node: A.Node) -> SSAValue:
    return lw.emit(arith.CmpiOp(a, b, predicate), node).results[0]


def to_i64(lw: FunctionLowerer, v: SSAValue, t: object, node: A.Node) -> SSAValue:
    """A value's bits, zero-extended to i64 (a float's as the integer of its width)."""
    if isinstance(t, C.Scalar) and t.is_float:
        v = lw.emit(arith.BitcastOp(v, IntegerType(t.bits)), node).results[0]
    width = v.type.width.data if isinstance(v.type, IntegerType) else None
    if width is None:
        raise Unsupported(f"the bytes of a {t} value", node)
    if width == 64:
        return v
    return lw.emit(arith.ExtUIOp(v, i64), node).results[0]


def from_i64(lw: FunctionLowerer, v: SSAValue, t: C.Scalar, node: A.Node) -> SSAValue:
    target = C.scalar_ir_type(t)
    bits = IntegerType(t.bits)
    if bits.width.data != 64:
        v = lw.emit(arith.TruncIOp(v, bits), node).results[0]
    if not isinstance(target, IntegerType):
        v = lw.emit(arith.BitcastOp(v, target), node).results[0]  # a float member: those bits
    return v
