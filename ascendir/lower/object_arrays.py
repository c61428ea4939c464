"""Arrays of user-class objects indexed at run time, held as a structure of arrays.

`LayoutA layoutAList[32]` in catlass's grouped kernels is read as `params.layoutAList[groupIdx]`, and
`CrossCoreFlag flagList[STAGES]` as `flagList[stageId].id`: which element is only known while the kernel runs.
A class object is modelled as an Instance whose data members are cells, so such an array is held as one memref
per scalar field with the element as its leading dimension (a `uint32_t idx[3]` of a Coord becomes a
`memref<32x3xi32>`), and `a[i]` is a view: an Instance of the same shape whose cells are those memrefs at
position i (Cell.at). Reads, writes, member calls and copies of the element then go through the ordinary
object model.

Only classes whose data are plain values are held this way (aggregates.plain: scalars, arrays of scalars,
nested objects of such classes, constants); an element holding a tensor, a queue or a pointer keeps the
one-object-per-element model of small arrays (lower_objects.py), which only a constant index selects.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, SSAValue

from ascendir.lower import aggregates, ctypes as C
from ascendir.lower.errors import Unsupported
from ascendir.lower.fast_ops import erase_ops, name_hint
from ascendir.lower.values import Cell, Instance, Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

# the most elements an array is held for (one memref per field, each this long)
MAX_ELEMENTS = 4096


@dataclass(eq=False)
class ObjectArray:
    """The objects of `T name[size]`: `fields` is an element whose cells hold that field of every element."""

    elem: C.ClassT
    size: int
    fields: Instance


class _NotPlain(Exception):
    """An element holds something other than plain values."""


def declare(lw: FunctionLowerer, t: C.ArrayT, name: str, node: A.Node) -> Val | None:
    """`T name[size];` for a user class T whose data are plain values, default-constructed element by element;
    None for any other array (the caller models it as before)."""
    elem = t.elem
    if isinstance(elem, C.TilingT) and not elem.path and elem.name in lw.scope.classes:
        # a plain struct of the kernel's own (`SplitExtraInfo extraInfo[3]` read as extraInfo[taskId % 3]): its
        # elements are objects of that class, as a class with the same members would be
        elem = C.ClassT(elem.name)
    if not (isinstance(elem, C.ClassT) and elem.name in lw.scope.classes and 0 < t.size <= MAX_ELEMENTS):
        return None
    # an element built apart, to learn its fields and whether constructing one does anything
    scratch = Block()
    try:
        with lw.detached(scratch):
            sample = lw.instantiate(elem, name, node)
            if not aggregates.plain(sample):
                raise _NotPlain
            _rebuild(sample, lambda c: c)  # (an element holding an array of objects itself is not spread either)
            constructs = any(isinstance(op, memref.StoreOp) or op.regions or op.dialect_name() == "ascendc"
                             for op in scratch.ops)
    except (Unsupported, _NotPlain):
        return None
    finally:
        erase_ops(scratch)

    def spread(cell: Cell) -> Cell:
        t_ref = cell.ref.type
        assert isinstance(t_ref, MemRefType)
        shape = [t.size, *(int(d) for d in t_ref.get_shape())]
        ref = lw.emit(memref.AllocaOp.get(t_ref.element_type, shape=shape), node).results[0]
        ref.name_hint = name_hint(f"{name}.{cell.name}")
        return Cell(cell.ctype, ref, cell.name)

    array = ObjectArray(elem, t.size, _rebuild(sample, spread))
    if constructs:
        each_element(lw, array, node, lambda at: lw._copy_members(
            _view(array, at), lw.instantiate(elem, name, node), node))
    return Val(t, obj=array)


def element(lw: FunctionLowerer, array: ObjectArray, index: Val, node: A.Node) -> Val:
    """`a[index]`: the element's view."""
    # (a new view at every use, also for a constant position: a view keeps its position's SSA value, which a
    # use in another block, after an `if` that made it, could not see; the memory is the same for all views)
    fixed = index.const if isinstance(index.const, int) and not isinstance(index.const, bool) else None
    if fixed is not None and not 0 <= fixed < array.size:
        raise Unsupported(f"element {index.const} of an array of {array.size} objects", node)
    return Val(array.elem, obj=_view(array, lw.index_value(index, node)))


def copy(lw: FunctionLowerer, dst: ObjectArray, src: ObjectArray, node: A.Node) -> None:
    """An array member copied with the object holding it: element by element."""
    if dst.elem != src.elem or dst.size != src.size:
        raise Unsupported(f"copying an array of {src.size} {src.elem} into one of {dst.size} {dst.elem}",
                          node)
    each_element(lw, dst, node, lambda at: lw._copy_members(_view(dst, at), _view(src, at), node))


def each_element(lw: FunctionLowerer, array: ObjectArray, node: A.Node,
                 body: Callable[[SSAValue], None]) -> None:
    """Runs `body` on each element's position (an index value), in one scf.for over them."""
    counter = C.I32
    lb, ub, step = (lw.const_ssa(n, counter, node) for n in (0, array.size, 1))
    block = Block(arg_types=[C.scalar_ir_type(counter)])
    loop = lw.emit(scf.ForOp(lb, ub, step, [], block), node)
    with lw.at_end_of(loop.body.block):
        body(lw.index_value(Val(counter, loop.body.block.args[0]), node))
        lw.emit(scf.YieldOp(), node)


def _view(array: ObjectArray, position: SSAValue) -> Instance:
    return _rebuild(array.fields, lambda c: Cell(c.ctype, c.ref, c.name, at=(position,)))


def _rebuild(inst: Instance, cell: Callable[[Cell], Cell]) -> Instance:
    """An object shaped as `inst` (base parts sharing its members), each cell replaced by `cell(c)`."""
    whole = inst.outermost()
    members: dict[str, Any] = {}
    for name, b in whole.members.items():
        if isinstance(b, Cell):
            members[name] = cell(b)
        elif isinstance(b, Instance):
            members[name] = _rebuild(b, cell)
        elif isinstance(b, Val) and isinstance(b.ctype, C.Scalar) and b.const is not None:
            members[name] = b  # a constant member: the same in every element
        else:
            raise _NotPlain
    return _with_members(whole, members, None)  # type: ignore[arg-type]


def _with_members(part: Instance, members: dict[str, Any], whole: Instance | None) -> Instance:
    made = Instance(part.info, part.ctype, part.types, members, part.name, [], whole)
    made.bases = [_with_members(b, members, made) for b in part.bases]
    return made
