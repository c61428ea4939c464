"""A pointer to an object the lowering holds, turned into an integer and back.

    mm_.SetUserDefInfo(reinterpret_cast<uint64_t>(tilingData));          // `const void *tilingData = &td`
    ...
    auto *t = reinterpret_cast<BatchMatmulTilingData *>(tilingPtr);      // in a callback given that number

GM pointers have addresses the simulator gives (memory.rs gm_address: buffer and byte offset, and back), and UB
pointers are UB byte addresses (ub_pointer.py). A pointer to a local struct (the tiling data GET_TILING_DATA
copies) or to a class object points at what only the lowering holds: a struct value, an Instance. Such a cast
gives a number standing for the object, Number.value(k) for the k-th object the kernel turned into one: equal for
the same object, different for two, never 0 (a null test of it is false, as C++ guarantees for an object's
address) and below every GM address (an int2ptr of it is no buffer, and reported). The integer carries the pointer
it came from (Val.obj, a Number); cast back to a pointer it is that pointer again ([expr.reinterpret.cast]/5: the
round trip gives the original value). Arithmetic on the number, or a copy of it through memory (a member, a
store), keeps the value but not where it came from: a pointer made of that is not followed (pointer_from_int's
unknown value, reported where it is used; a pointer to the tiling struct reads the kernel's tiling whatever its
value, as every such pointer does here). Other pointers (a tensor's address, a local array) are not numbered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ascendir.dialects import ascendc as asc
from ascendir.lower import ctypes as C
from ascendir.lower.values import Instance, Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

# below rust_sim memory.rs GM_ADDRESS_BASE (0x1000_0000_0000), where no GM buffer sits; a 4 GiB range each
_BASE = 0x0A00_0000_0000
_STRIDE = 1 << 32
# each number's low 32 bits are (k + 1) * _LOW: nonzero and another for each object, as a real address's are, so
# `(uint32_t)n` of a uint64_t number is no null (before, every number's low half was 0)
_LOW = 0x1000


@dataclass(frozen=True, eq=False)
class Number:
    """What an object's number stands for: the pointer it was made from."""

    pointer: Val

    @staticmethod
    def value(k: int) -> int:
        return _BASE + k * _STRIDE + (k + 1) * _LOW


def holds_object(v: Val) -> bool:
    """Whether pointer `v` points at an object the lowering holds: a class object (an Instance) or a struct
    (a pointer to an object is the object's value, ctypes.ir_type)."""
    return isinstance(v.obj, Instance) or (
        v.ssa is not None and isinstance(v.ssa.type, asc.TilingType | asc.StructType | asc.ObjectType))


def to_int(lw: FunctionLowerer, v: Val, t: C.Scalar) -> Val:
    """`reinterpret_cast<uint64_t>(p)` of pointer `v` to an object the lowering holds: its number, as `t` (an
    integer of 64 bits: lower_convert reports a narrower one, which cannot hold a pointer)."""
    target = v.obj if v.obj is not None else v.ssa  # (the object, or the value that is the struct)
    k = next((i for i, held in enumerate(lw.object_numbers) if held is target), None)
    if k is None:
        k = len(lw.object_numbers)
        lw.object_numbers.append(target)
    value = Number.value(k) & ((1 << t.bits) - 1)
    return Val(t, const=value, obj=Number(v))


def from_int(lw: FunctionLowerer, v: Val, t: C.Pointer, node: A.Node) -> Val | None:
    """The pointer an object's number (to_int) was made from, as `t`; None for any other integer."""
    return lw.pointer_cast(v.obj.pointer, t, node) if isinstance(v.obj, Number) else None
