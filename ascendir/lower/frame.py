"""The frame of one inlined function (or of the kernel) in the function lowering.

A module of its own so that every lowering module can make and read frames without importing the
lowering itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ascendir.lower import ctypes as C
from ascendir.lower.ctypes import CType
from ascendir.lower.scope import ClassInfo
from ascendir.lower.values import Binding, Cell, Instance


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
