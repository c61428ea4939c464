"""Reuse of constants already emitted in the block being built.

The lowering materialises a constant at every use (FunctionLowerer.ssa): a binding may outlive the region its
first use was in. Unrolled code (a copy loop over a Coord's elements in every constructor of a template that is
instantiated eight times) then repeats the same few `arith.constant`s thousands of times, and they count
against MAX_KERNEL_OPS. Within one block a constant emitted earlier dominates every op appended after it, so
an op built at the end of that block may use it instead of a new copy.

Only the same block, and only when building at its end: an op inserted before another (hoisting to the entry
block) might land above the constant. A cached op that has left its block since (erased by _rollback or by a
failed detached body) is not reused; its parent is no longer the block.
"""

from __future__ import annotations

from xdsl.ir import Block, Operation, SSAValue


class ConstantCache:
    """Per block: (value key, IR type) -> the constant op emitted there."""

    __slots__ = ("_by_block",)

    def __init__(self) -> None:
        # keyed by id(block); the cached op keeps its block alive, and the parent check below guards against
        # an id reused by another block once that op has gone
        self._by_block: dict[int, dict[tuple[object, ...], Operation]] = {}

    def lookup(self, block: Block, at_end: bool, key: tuple[object, ...]) -> SSAValue | None:
        if not at_end:
            return None
        ops = self._by_block.get(id(block))
        if ops is None:
            return None
        op = ops.get(key)
        if op is None:
            return None
        if op.parent is not block:
            del ops[key]
            return None
        return op.results[0]

    def remember(self, block: Block, key: tuple[object, ...], op: Operation) -> None:
        ops = self._by_block.get(id(block))
        if ops is None:
            ops = self._by_block[id(block)] = {}
        elif key in ops and ops[key].parent is block:
            return  # (keep the earlier one: it is above this one when this was inserted before others)
        ops[key] = op


def float_key(number: float) -> str:
    """A key that tells -0.0 from 0.0 and matches NaN with NaN, as the attribute's bits do."""
    return number.hex()
