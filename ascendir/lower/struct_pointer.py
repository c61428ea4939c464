"""Pointers to struct objects of the kernel itself, chosen at run time.

A kernel may keep several parameter structs and point at one of them per tile (NPUKernelBench's SwiGlu:
`curTileCopyParam = &baseRowTailColCopyParam;` in one branch, `= &tailRowBaseColCopyParam;` in another, then
`CopyIn(*curTileCopyParam)`). Struct cells are values to us (a memref holding the whole struct), so the pointer
cannot hold an address: it holds which of its targets it points at, an i32 in a cell of its own placed beside
the pointer's, and a read of the pointer loads every target and selects the one whose number it holds. Reads
see each target as it is at the read (a target written after the pointer was set is read as written), as the
address would. Writes through such a pointer are not modelled (the lowering reports them, as before).

Only struct objects held in cells (`SwiGluCopyParam p;` locals and members) take this path; a pointer set to
the tiling data itself keeps its own handling in FunctionLowerer.store.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import UNKNOWN_LOC, IntegerAttr, i32
from xdsl.ir import Operation, SSAValue

from ascendir.lower import ctypes as C
from ascendir.lower.values import Cell, Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer


@dataclass
class StructTargets:
    """What a pointer cell may point at: the struct cells it was set to, numbered in order of first use, and
    the i32 cell holding the number of the current one (-1: none yet, read as the first)."""

    pointee: C.TilingT | C.StructT
    index: SSAValue
    targets: list[Cell] = field(default_factory=list)


def _is_struct_cell(v: Val) -> bool:
    cell = v.obj
    return (isinstance(cell, Cell) and isinstance(cell.ctype, C.TilingT | C.StructT) and not getattr(
        cell.ctype, "path", "") and cell.ref.type.element_type == C.ir_type(cell.ctype))  # type: ignore[attr-defined]


def _untyped(cell: Cell, v: Val) -> bool:
    """`void *p = reinterpret_cast<void *>(&object);` (catlass 23's `tilingHost`, then copied to the device with
    aclrtMemcpy): a `void *` holding the address of a whole struct object, which it can only pass on, never
    read through (a field's address has no struct cell as its object: expr_Unary keeps the field's value)."""
    return isinstance(cell.ctype, C.Pointer) and isinstance(cell.ctype.pointee, C.VoidT) \
        and isinstance(v.ctype, C.Pointer) and isinstance(v.ctype.pointee, C.VoidT)


def only_target(cell: object) -> Cell | None:
    """The struct cell a pointer variable was set to, when it was set to that one only; None otherwise."""
    known = cell.points_to if isinstance(cell, Cell) else None
    return known.targets[0] if isinstance(known, StructTargets) and len(known.targets) == 1 else None


def store(lw: FunctionLowerer, cell: Cell, v: Val, node: A.Node) -> bool:
    """`ptr = &structObject;`: records the target and stores its number; False for any other store."""
    if not (isinstance(cell.ctype, C.Pointer) and isinstance(v.ctype, C.Pointer) and _is_struct_cell(v)):
        return False
    target = v.obj
    assert isinstance(target, Cell)
    if v.ctype.pointee != target.ctype and not _untyped(cell, v):  # type: ignore[union-attr]
        return False  # `&object.member`: the address of a field of the object, not of the object
    known = cell.points_to
    if known is not None and not isinstance(known, StructTargets):
        return False  # the pointer was set to something else before (the tiling data): as before
    if known is None:
        known = StructTargets(target.ctype, _index_cell(cell))  # type: ignore[arg-type]
        cell.points_to = known
    elif known.pointee != target.ctype:
        return False  # (a pointer cast between struct types: not followed)
    if not any(t.ref is target.ref for t in known.targets):
        known.targets.append(target)
    number = next(i for i, t in enumerate(known.targets) if t.ref is target.ref)
    if v.ssa is not None and not v.ssa.uses and isinstance(v.ssa.owner, Operation) \
            and v.ssa.owner.parent_block() is not None:
        v.ssa.owner.detach()  # the load `&target` made for its value: the address is the number now
        v.ssa.owner.erase()
    lw.store_element(lw.const_ssa(number, C.I32, node), known.index, [], node)
    return True


def read(lw: FunctionLowerer, cell: Cell, node: A.Node) -> Val | None:
    """The pointer as `*ptr` and `ptr->field` read it: the object whose number the cell holds; None when the
    cell is not a pointer to struct cells."""
    known = cell.points_to
    if not isinstance(known, StructTargets) or not known.targets:
        return None
    chosen = lw.load(known.targets[0], node)
    if len(known.targets) > 1:
        number = lw.emit(memref.LoadOp.create(operands=[known.index], result_types=[i32],
                                              location=UNKNOWN_LOC), node).results[0]
        for i, target in enumerate(known.targets[1:], start=1):
            here = lw.load(target, node)
            is_it = lw.emit(arith.CmpiOp(number, lw.const_ssa(i, C.I32, node), "eq"), node).results[0]
            picked = lw.emit(arith.SelectOp(is_it, here.ssa, chosen.ssa), node).results[0]  # type: ignore[arg-type]
            chosen = Val(known.pointee, picked)
    return Val(C.Pointer(known.pointee), obj=Val(known.pointee, chosen.ssa))


def _index_cell(pointer: Cell) -> SSAValue:
    """An i32 cell next to the pointer's own (so it dominates every use of the pointer), holding -1."""
    alloca = pointer.ref.owner
    assert isinstance(alloca, Operation)
    index = memref.AllocaOp.get(i32, shape=[])
    minus_one = arith.ConstantOp(IntegerAttr(-1, i32))
    init = memref.StoreOp.create(operands=[minus_one.results[0], index.results[0]], location=UNKNOWN_LOC)
    block = alloca.parent_block()
    assert block is not None
    block.insert_ops_after([index, minus_one, init], alloca)
    if pointer.name:
        index.results[0].name_hint = f"{pointer.name}_target"
    return index.results[0]
