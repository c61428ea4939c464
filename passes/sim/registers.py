"""Where each IR value lives in the simulator program: a register, a group of registers, an object, an array.

Scalars (integers, floats, enums, event ids) take one scalar register `rN` holding raw bits; GM pointers and
tensors one handle register `hN`; a parameter struct one scalar register per field; TPipe/TQue/TBuf and
library objects a static object id `oN`; a tiling struct a Struct of the fields known; a C array (a `memref` of rank >= 1) a slice of the core's scalar
stack. A rank-0 `memref` cell is the register (or group) that holds its value.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    MemRefType,
    Signedness,
    StringAttr,
)
from xdsl.dialects import memref
from xdsl.ir import Attribute, Operation, SSAValue

from ascendir.dialects import ascendc as asc


class NotModelled(Exception):
    """An IR construct the simulator program cannot express; the message names it. Raised while one op is built,
    it becomes that op's `unsupported` instruction (ProgramBuilder.op): the core stops there only if it gets there."""


class ProgramNotModelled(NotModelled):
    """What leaves no program to run at all (the kernel entry, its parameters, where its buffers' memory is): the
    build is refused whole, whichever path the launch would take."""


@dataclass(frozen=True)
class Struct:
    """A parameter struct's fields, each in its own scalar register: {field: (register, scalar type)}."""

    type_name: str
    fields: dict[str, tuple[str, str]]


@dataclass(frozen=True)
class Array:
    """A C array on the core's scalar stack: byte offset, element type, shape."""

    offset: int
    elem: str
    shape: tuple[int, ...]

    @property
    def size(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    def operand(self) -> str:
        return f"s{self.offset}:{self.size}:{self.elem}"


Location = str | Struct | Array


def scalar_type(t: Attribute) -> str | None:
    """The program's scalar type of an SSA value type: i1..i64 (signless), f16, bf16, f32, f64; None if not a
    scalar."""
    if isinstance(t, IntegerType):
        # the registers are 1, 8, 16, 32 or 64 bits wide: an int4b_t value (`(int4b_t)1`) is none of them
        return f"i{t.width.data}" if t.width.data in (1, 8, 16, 32, 64) else None
    if isinstance(t, IndexType):
        return "i64"
    if isinstance(t, Float16Type):
        return "f16"
    if isinstance(t, BFloat16Type):
        return "bf16"
    if isinstance(t, Float32Type):
        return "f32"
    if isinstance(t, Float64Type):
        return "f64"
    if isinstance(t, asc.EnumType | asc.EventIdType):
        return "i32"
    return None


def element_type(t: Attribute) -> str:
    """The program's element type of a tensor or pointer element: f16 bf16 f32 f64 i8..i64 u8..u64 bool."""
    if isinstance(t, IntegerType):
        width = t.width.data
        if width == 1:
            return "bool"
        unsigned = t.signedness.data == Signedness.UNSIGNED
        if width == 4 and not unsigned:
            # int4b_t: the simulator's 'i4' packs two to a byte (rust_sim/src/int4.rs); the calls that do not
            # take it say so where they are made
            return "i4"
        if width not in (8, 16, 32, 64):
            raise NotModelled(f"tensors of element type {t}")
        return f"{'u' if unsigned else 'i'}{width}"
    found = scalar_type(t)
    if found is None:
        raise NotModelled(f"tensors of element type {t}")
    return found


ELEMENT_BYTES = {"bool": 1, "i4": 1, "i8": 1, "u8": 1, "i16": 2, "u16": 2, "f16": 2, "bf16": 2, "i32": 4, "u32": 4,
                 "f32": 4, "i64": 8, "u64": 8, "f64": 8}
SCALAR_BYTES = {"i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "f16": 2, "bf16": 2, "f32": 4, "f64": 8}


def is_handle_type(t: Attribute) -> bool:
    return isinstance(t, asc.GmPtrType | asc.GlobalTensorType | asc.LocalTensorType)


def is_object_type(t: Attribute) -> bool:
    return isinstance(t, asc.TPipeType | asc.TQueType | asc.TBufType | asc.ObjectType)


@dataclass
class RegisterFile:
    """Hands out registers and stack space; counts what the program needs."""

    scalars: int = 0
    handles: int = 0
    stack: int = 0
    consts: list[tuple[str, str, str, str]] = field(default_factory=list)
    _const_regs: dict[tuple[str, str], str] = field(default_factory=dict)

    def scalar(self) -> str:
        self.scalars += 1
        return f"r{self.scalars - 1}"

    def handle(self) -> str:
        self.handles += 1
        return f"h{self.handles - 1}"

    def array(self, elem: str, shape: tuple[int, ...]) -> Array:
        size = ELEMENT_BYTES.get(elem, 8)
        offset = (self.stack + 7) // 8 * 8
        arr = Array(offset, elem, shape)
        self.stack = offset + arr.size * size
        return arr

    def const(self, ty: str, value: str, comment: str = "", own: bool = False) -> str:
        """A register holding a constant (one per distinct value and type, set before the program runs; `own`:
        a register of its own, as an enumerator's, whose register names it)."""
        key = (ty, value + ("#" + comment if own else ""))
        reg = self._const_regs.get(key)
        if reg is None:
            reg = self.scalar()
            self._const_regs[key] = reg
            self.consts.append((reg, ty, value, comment))
        return reg

    def new_like(self, t: Attribute, struct_fields: list[tuple[str, str]] | None = None,
                 type_name: str = "", value: SSAValue | None = None) -> Location:
        """Fresh storage for a value of IR type `t` (`value`: the value it is for, whose construct an error names)."""
        if is_handle_type(t):
            return self.handle()
        ty = scalar_type(t)
        if ty is not None:
            return self.scalar()
        if struct_fields is not None:
            return Struct(type_name, {name: (self.scalar(), fty) for name, fty in struct_fields})
        if isinstance(t, MemRefType):
            raise NotModelled(f"a value of type {t}")
        construct = unmodelled_construct(value) if value is not None else None
        raise NotModelled(f"a value of type {t} ({construct})" if construct else f"a value of type {t}")


def unmodelled_construct(value: SSAValue) -> str | None:
    """The C construct the lowering gave a value of no IR type for (UNMODELLED_TYPE_ATTR, ascendir/lower/
    unmodelled.py): on the op that makes it, or, for a load, on its cell's alloca."""
    owner = value.owner
    if isinstance(owner, memref.LoadOp):
        owner = owner.memref.owner
    found = owner.attributes.get(asc.UNMODELLED_TYPE_ATTR) if isinstance(owner, Operation) else None
    return found.data if isinstance(found, StringAttr) else None
