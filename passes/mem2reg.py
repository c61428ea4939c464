"""mem2reg: forwards stored values to loads of rank-0 memref cells, and drops cells nobody reads.

The lowering keeps mutable C++ locals in `memref.alloca` cells. A cell whose stores all sit in the block
that allocates it (none inside an scf region) holds, at every point, the value of the last store before
that point in the block; every load (also one nested in a region below) can use that value directly.
Cells written inside loops or branches stay: turning them into SSA would need loop-carried values.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass


@dataclass(frozen=True)
class Mem2RegPass(ModulePass):
    name = "mem2reg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        cells = [o for o in op.walk() if isinstance(o, memref.AllocaOp) and _is_cell(o)]
        for cell in cells:
            _promote(cell)


def _is_cell(op: memref.AllocaOp) -> bool:
    t = op.memref.type
    if not isinstance(t, MemRefType) or t.get_shape():
        return False
    for use in op.memref.uses:
        user = use.operation
        if isinstance(user, memref.LoadOp):
            continue
        if isinstance(user, memref.StoreOp) and user.memref is op.memref and user.value is not op.memref:
            continue
        return False
    return True


def _promote(cell: memref.AllocaOp) -> None:
    block = cell.parent_block()
    if block is None:
        return
    ref = cell.memref
    users = [u.operation for u in ref.uses]
    if any(isinstance(u, memref.StoreOp) and u.parent_block() is not block for u in users):
        return
    loads_by_top: dict[Operation, list[memref.LoadOp]] = {}
    for u in users:
        if isinstance(u, memref.LoadOp):
            top = _ancestor_in(u, block)
            if top is not None:
                loads_by_top.setdefault(top, []).append(u)
    current: SSAValue | None = None
    op = cell.next_op
    while op is not None:
        nxt = op.next_op
        if isinstance(op, memref.StoreOp) and op.memref is ref:
            current = op.value
        for load in loads_by_top.get(op, ()):
            if current is not None:
                load.res.replace_all_uses_with(current)
                load.detach()
                load.erase()
        op = nxt
    if not any(isinstance(u.operation, memref.LoadOp) for u in ref.uses):
        for u in list(ref.uses):
            user = u.operation
            user.detach()
            user.erase()
        cell.detach()
        cell.erase()


def _ancestor_in(op: Operation, block: object) -> Operation | None:
    while op.parent_block() is not block:
        parent = op.parent_op()
        if parent is None:
            return None
        op = parent
    return op
