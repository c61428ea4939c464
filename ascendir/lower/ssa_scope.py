"""Whether an SSA value may be used at the insertion point, and a copy of its pure definition where not.

The lowering keeps some values beside a variable instead of storing them (a pointer member set to the tiling
data reads as that pointer). Such a value was made where the assignment was lowered, possibly inside an `if`
or a loop body, and a read after that region would use it outside the scope of its definition, which the IR
verifier rejects. A value defined by a chain of region-free, side-effect-free ops over visible operands (the
tiling-field views) is rebuilt at the read instead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from ascendir.dialects import ascendc as asc

# Ops whose result depends only on their operands and that may be duplicated freely: the views of the tiling
# data (read-only while the kernel runs), GM pointer arithmetic, unknown values, and arith's side-effect-free ops.
_PURE_OPS: tuple[type[Operation], ...] = (asc.GetTilingDataOp, asc.TilingFieldOp, asc.GmPtrOffsetOp,
                                          asc.GmPtrCastOp, asc.UndefOp)


def _pure(op: Operation) -> bool:
    return not op.regions and (isinstance(op, _PURE_OPS) or op.name.startswith("arith."))


def enclosing_blocks(block: Block | None, attach_to: Mapping[int, Block], root: Block | None = None) -> set[int] | None:
    """The ids of `block` and of every block that holds it or will hold it, up to `root` (the kernel's body,
    itself built before its op): a body being built apart continues with the block `attach_to` says its op
    goes to. None when such a body's destination is not known."""
    ids: set[int] = set()
    while block is not None:
        ids.add(id(block))
        if block is root:
            break
        parent = block.parent_op()
        if parent is not None:
            block = parent.parent_block()
            continue
        # a detached body: the region may already sit in an op not yet inserted
        region = block.parent
        owner = region.parent if region is not None else None
        start = owner.regions[0].blocks.first if owner is not None and owner.regions else block
        block = attach_to.get(id(block)) or (attach_to.get(id(start)) if start is not None else None)
        if block is None:
            return None
    return ids


def visible(value: SSAValue, enclosing: set[int]) -> bool:
    """Whether `value`, defined earlier in program order, may be used in a block with these ancestors."""
    if isinstance(value, BlockArgument):
        return id(value.block) in enclosing
    owner = value.owner
    return isinstance(owner, Operation) and id(owner.parent_block()) in enclosing


def usable_at(value: SSAValue, block: Block, emit: Callable[[Operation], Operation],
              attach_to: Mapping[int, Block], root: Block | None = None) -> SSAValue | None:
    """`value` if it is visible in `block`, else a copy of its pure definition built through `emit` (at the
    insertion point), else None: the value cannot be had here. `attach_to` maps bodies being built apart to the
    block their op will be added to; `root` is the outermost block."""
    enclosing = enclosing_blocks(block, attach_to, root)
    if enclosing is None:
        return value  # judged when the body is attached, by the IR verifier

    def rebuild(v: SSAValue) -> SSAValue | None:
        if visible(v, enclosing):
            return v
        owner = v.owner
        if not isinstance(owner, Operation) or not _pure(owner):
            return None
        operands = [rebuild(o) for o in owner.operands]
        if any(o is None for o in operands):
            return None
        copy = owner.clone()
        for i, o in enumerate(operands):
            copy.operands[i] = o
        emit(copy)
        return copy.results[list(owner.results).index(v)]

    return rebuild(value)
