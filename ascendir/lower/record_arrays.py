"""C array members of a kernel's own plain struct held in a local variable: `TilingParam p = {.n = td.n};` then
`p.shape[i] = td.shape[i]` in a loop (NPUKernelBench Lerp copies its tiling into such a record).

A plain struct of the program is lowered as a struct value (struct_init / struct_set), which holds scalars: an
element store into one of its arrays had nowhere to go (the statement was left out, ASC103) and an element read
became a read of the host's tiling data of that name (`tiling.missing`, ASC958 "which the host tiling did not
set"). Here a variable declared with a brace initialiser gets a local array per C array member, zeroed as
aggregate initialisation zeroes the members it does not name, and `p.shape` is that array: its element stores and
reads, and a pointer set to it (`this->shape = p.shape;`), use it. Through a reference parameter the callee sees
the caller's arrays, as the object is the same.

Not covered (reads stay the tiling-field reads they were, which stop the run as unmodelled): a variable declared
without an initialiser (a copy of the tiling data may be written into it, whose arrays these would hide), and one
assigned as a whole (`p = other;` forgets its arrays from there on in program order). A copy of the struct shares
the arrays instead of copying them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import memref
from xdsl.ir import SSAValue

from ascendir.dialects import ascendc as asc
from ascendir.lower import ctypes as C, array_init
from ascendir.lower.values import Cell, Val

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer
    from frontend import ast as A


def _registry(lw: FunctionLowerer) -> dict[SSAValue, dict[str, Cell]]:
    found: dict[SSAValue, dict[str, Cell]] | None = getattr(lw, "_record_arrays", None)
    if found is None:
        found = {}
        lw._record_arrays = found  # type: ignore[attr-defined]
    return found


def declare(lw: FunctionLowerer, name: str, t: C.CType, init: Val | None, held: object, node: A.Node) -> None:
    """After `name` of plain struct type `t` is bound to `held` (its cell, or its value) from brace-list
    initialiser `init`: local arrays for its C array members of scalars."""
    if not isinstance(t, C.TilingT) or t.path or init is None or init.ssa is None \
            or not isinstance(init.ssa.owner, asc.StructInitOp):
        return
    if not (isinstance(held, Cell) and held.ref is not None or isinstance(held, Val) and held.ssa is not None):
        return
    info = lw.scope.classes.get(t.name)
    if info is None or not info.is_plain_struct:
        return
    given = {a.data for a in init.ssa.owner.fields.data}
    arrays: dict[str, Cell] = {}
    for _, decl in info.fields:
        ftype = lw.tiling_field_type(t.name, decl.name)
        if not isinstance(ftype, C.ArrayT) or decl.name in given:
            continue
        dims, elem = C.array_shape(ftype)
        if not isinstance(elem, C.Scalar):
            continue
        cell = lw.new_array(ftype, f"{name}.{decl.name}", node, None)
        array_init.zero_fill(lw, cell.ref, dims, elem, node)
        arrays[decl.name] = cell
    if arrays:
        _registry(lw)[held.ref if isinstance(held, Cell) else held.ssa] = arrays  # type: ignore[index]


def member(lw: FunctionLowerer, record: Val, field_name: str) -> Val | None:
    """`p.shape` of a variable `declare` gave arrays: that array (None for any other struct value)."""
    registry = getattr(lw, "_record_arrays", None)
    if not registry:
        return None
    arrays = None
    if isinstance(record.obj, Cell):
        arrays = registry.get(record.obj.ref)
    if arrays is None and record.ssa is not None:
        arrays = registry.get(record.ssa)
        owner = record.ssa.owner
        if arrays is None and isinstance(owner, memref.LoadOp):
            arrays = registry.get(owner.operands[0])  # the variable's value loaded from its cell
    cell = arrays.get(field_name) if arrays else None
    return Val(cell.ctype, obj=cell) if cell is not None else None


def forget(lw: FunctionLowerer, cell: Cell) -> None:
    """`p = other;`: the whole struct replaced, its arrays no longer the ones `declare` made."""
    registry = getattr(lw, "_record_arrays", None)
    if registry:
        registry.pop(cell.ref, None)
