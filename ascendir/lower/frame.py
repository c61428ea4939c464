"""The frame of one inlined function (or of the kernel) in the function lowering, and the frame a namespace-scope
variable's initialiser is lowered in (at_block_entry).

A module of its own so that every lowering module can make and read frames without importing the
lowering itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from xdsl.builder import Builder, InsertPoint
from xdsl.ir import Block

from ascendir.lower import ctypes as C
from ascendir.lower.ctypes import CType
from ascendir.lower.scope import ClassInfo
from ascendir.lower.values import Binding, Cell, Instance

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer


@dataclass
class Frame:
    """One inlined function (or the kernel): its scopes, `this`, template bindings and exit flags."""

    name: str
    scopes: list[dict[str, Binding]]
    this: Instance | None
    types: dict[str, object]
    assigned: set[str]
    return_type: CType = field(default_factory=C.VoidT)
    return_cell: Cell | None = None
    return_flag: Cell | None = None
    loop_flags: list[dict[str, Cell | None]] = field(default_factory=list)  # innermost last: break/continue cells
    owner: ClassInfo | None = None  # the class whose declarations a class template's frame lowers (its aliases)
    namespace: str | None = None  # the namespace of the function whose body this is (its names are looked up there)
    # a function returning a user-class object from several returns: the object each return copies into
    return_object: Instance | None = None
    # a function returning `auto` from several returns (an `if constexpr` chain, catlass's CeilDiv over shapes):
    # the block its body starts in, and the value of the first return lowered there (the one the constant
    # conditions chose), whatever its type; returns inside a region go to return_cell
    deduce_block: object = None
    deduced: object = None
    # where the body starts in deduce_block (the op before it, None at the block's start): a return cell made
    # there once a return in a branch chosen at run time gives the type dominates the whole body
    deduce_after: object = None


@contextmanager
def at_block_entry(lw: FunctionLowerer, block: Block, name: str, key: str, written: set[str]) -> Iterator[None]:
    """Lowers, inside the `with`, the initialiser of the namespace-scope variable `name` (`key` in
    Scope.constants) whose storage is made on first use: at the start of `block` (the kernel's or the host
    function's entry, which every use, under any control flow, comes after), in a frame of the variable's own
    namespace with no locals (`written`: the names to hold in cells); the builder and frames are restored after.
    Shared by block-local variables (block_local.binding) and the host's namespace-scope ones
    (host_decls._global_variable)."""
    first = block.first_op
    saved_builder, saved_frames = lw.builder, lw.frames
    lw.builder = Builder(InsertPoint.before(first) if first is not None else InsertPoint.at_end(block))
    lw.frames = [Frame(name, [{}], None, {}, written, namespace=key.rpartition("::")[0])]
    try:
        yield
    finally:
        lw.builder, lw.frames = saved_builder, saved_frames
