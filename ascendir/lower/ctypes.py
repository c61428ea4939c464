"""The C++ types the lowering reasons about, and their IR types.

The AST keeps types as written (`AscendC::LocalTensor<T>`, `uint32_t`, `__gm__ half*`); the lowering
resolves them against the template bindings and the program's declarations into these values, which
decide how an expression lowers (signed or unsigned division, which API op, which IR type).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    MemRefType,
    NoneType,
    Signedness,
)
from xdsl.ir import Attribute

from ascendir.dialects import ascendc as asc


@dataclass(frozen=True)
class Scalar:
    """An arithmetic type by its canonical C name: bool, int8_t..uint64_t, half, bfloat16_t, float, double."""

    name: str

    @property
    def kind(self) -> str:
        return SCALARS[self.name][0]

    @property
    def bits(self) -> int:
        return SCALARS[self.name][1]

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def is_signed(self) -> bool:
        return self.kind in ("int", "float")

    @property
    def size(self) -> int:
        return max(1, self.bits // 8)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Pointer:
    pointee: CType
    gm: bool = False
    # `__ubuf__ T *`: held as its UB byte address, a uint64 (ascendir/lower/ub_pointer.py)
    ub: bool = False

    def __str__(self) -> str:
        return f"{'__gm__ ' if self.gm else '__ubuf__ ' if self.ub else ''}{self.pointee}*"


@dataclass(frozen=True)
class LocalTensorT:
    elem: Scalar | None
    position: str = asc.UNKNOWN_POSITION

    def __str__(self) -> str:
        return f"LocalTensor<{self.elem or '?'}>"


@dataclass(frozen=True)
class GlobalTensorT:
    elem: Scalar | None

    def __str__(self) -> str:
        return f"GlobalTensor<{self.elem or '?'}>"


@dataclass(frozen=True)
class QueueT:
    position: str
    depth: int
    # TQueBind<source, position> where the source is not the one TQue<position> implies (VECIN -> VECOUT)
    source: str = ""

    def __str__(self) -> str:
        if self.source:
            return f"TQueBind<{self.source}, {self.position}, {self.depth}>"
        return f"TQue<{self.position}, {self.depth}>"


@dataclass(frozen=True)
class BufT:
    position: str

    def __str__(self) -> str:
        return f"TBuf<{self.position}>"


@dataclass(frozen=True)
class PipeT:
    def __str__(self) -> str:
        return "TPipe"


@dataclass(frozen=True)
class StructT:
    """A catalogued parameter struct (DataCopyParams, BinaryRepeatParams, ...)."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class TilingT:
    """A tiling struct (or a nested struct inside one); `path` is the field path from the root value."""

    name: str
    path: str = ""

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class EnumT:
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class ClassT:
    """A user class instantiated with concrete template arguments."""

    name: str
    args: tuple[object, ...] = ()

    def __str__(self) -> str:
        return self.name if not self.args else f"{self.name}<{', '.join(map(str, self.args))}>"


@dataclass(frozen=True)
class ObjectT:
    """An AscendC library object with methods (Matmul, TQueSync, ...)."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class ArrayT:
    elem: CType
    size: int

    def __str__(self) -> str:
        return f"{self.elem}[{self.size}]"


@dataclass(frozen=True)
class VoidT:
    def __str__(self) -> str:
        return "void"


@dataclass(frozen=True)
class UnknownT:
    """A type the lowering could not resolve (already reported, or outside what it models)."""

    text: str = "?"
    # whether a declaration of this type is an "unknown type name" (ASC105); the subclasses below are types
    # the lowering knows exist but does not model
    reported: ClassVar[bool] = True

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class TemplateNameT:
    """What a template template parameter is bound to: `R` in `template <template <typename> class R>
    void f(R<T>& x)` called with a LocalTensor<float> is LocalTensor, so `R<T>` names LocalTensor<T>."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class MemberFunctionT:
    """`&Kernel::ComputeLeft`: a pointer to a member function, as a template argument (called `(obj->*f)(x)`)."""

    cls: str
    name: str

    def __str__(self) -> str:
        return f"&{self.cls}::{self.name}"


@dataclass(frozen=True)
class RegisterApiT(UnknownT):
    """A type of the register API (`AscendC::Reg`, `MicroAPI`: RegTensor, MaskReg, ...) of arch35 chips,
    which the lowering does not model: opaque, and not an unknown type to report."""

    text: str = "AscendC::Reg type"
    reported: ClassVar[bool] = False


@dataclass(frozen=True)
class RegisterT(RegisterApiT):
    """A register the lowering models (register_api.py): `RegTensor<T>` (kind "RegTensor", elem T) or `MaskReg`
    (kind "MaskReg"); each declaration names one register of the core's register file. `parts` is 2 for a
    `RegTensor<T, RegTraitNumTwo>` of 64-bit T: two registers, reg[0] the low and reg[1] the high 32 bits of its
    VL / 4 elements (asc-devkit docs .../寄存器数据类型/RegTensor.md, b64 RegTensor存储结构)."""

    kind: str = ""
    elem: "Scalar | None" = None
    parts: int = 1


@dataclass(frozen=True)
class UnsizedArrayT(UnknownT):
    """An array whose length is no constant here (`SliceInfo s[K_MAX_DIM]` with the bound out of reach): its
    elements are not followed, but its type is no unknown type to report."""

    reported: ClassVar[bool] = False


@dataclass(frozen=True)
class UnresolvedArgT(UnknownT):
    """A type named by a template parameter whose argument the lowering could not resolve (`Policy<float>` with
    Policy bound to `Selector<b>::template type`, a member alias template): opaque, and no unknown type name,
    since the parameter is declared."""

    reported: ClassVar[bool] = False


@dataclass(frozen=True)
class MatmulTypeT(UnknownT):
    """AscendC's `MatmulType<POSITION, FORMAT, TYPE, ...>` (or MatmulTypeWithScale<POSITION, SCALE_POSITION,
    FORMAT, TYPE, ...>), the operand description of the Matmul library, as a template argument or through an
    alias (`using aType = MatmulType<TPosition::GM, CubeFormat::ND, half>;` then `Kernel<aType>`): opaque as a
    value, like any library type, but its member type `T` is TYPE [asc-devkit impl/adv_api/detail/matmul/utils/
    matmul_type_def.h], what the kernels' `using A_T = typename A_TYPE::T;` declares their tensors of."""

    text: str = "MatmulType"
    args: tuple[object, ...] = ()
    reported: ClassVar[bool] = False

    def member_type(self, name: str) -> "CType | None":
        index = 3 if self.text == "MatmulTypeWithScale" else 2
        if name == "T" and len(self.args) > index and isinstance(self.args[index], Scalar):
            return self.args[index]  # type: ignore[return-value]
        return None


CType = (
    Scalar | Pointer | LocalTensorT | GlobalTensorT | QueueT | BufT | PipeT | StructT | TilingT | EnumT
    | ClassT | ObjectT | ArrayT | VoidT | UnknownT
)

# name -> (kind, bits)
SCALARS: dict[str, tuple[str, int]] = {
    "bool": ("bool", 1),
    "int8_t": ("int", 8), "uint8_t": ("uint", 8), "int16_t": ("int", 16), "uint16_t": ("uint", 16),
    "int32_t": ("int", 32), "uint32_t": ("uint", 32), "int64_t": ("int", 64), "uint64_t": ("uint", 64),
    "int4b_t": ("int", 4),
    # GCC's 128-bit integers: host tiling code widens a product with them before dividing
    # (ops-nn quant_batch_matmul_v3's `static_cast<unsigned __int128>(value) * numerator / denominator`)
    "int128_t": ("int", 128), "uint128_t": ("uint", 128),
    "half": ("float", 16), "bfloat16_t": ("float", 16), "float": ("float", 32), "double": ("float", 64),
}  # fmt: skip

# Spellings of the scalar types in C, C++ and the AscendC headers.
SCALAR_ALIASES: dict[str, str] = {
    "int": "int32_t", "signed": "int32_t", "signed int": "int32_t", "unsigned": "uint32_t",
    "unsigned int": "uint32_t", "short": "int16_t", "short int": "int16_t", "unsigned short": "uint16_t",
    "unsigned short int": "uint16_t", "long": "int64_t", "long int": "int64_t", "long long": "int64_t",
    "long long int": "int64_t", "unsigned long": "uint64_t", "unsigned long int": "uint64_t",
    "unsigned long long": "uint64_t", "unsigned long long int": "uint64_t", "char": "int8_t",
    "signed char": "int8_t", "unsigned char": "uint8_t", "size_t": "uint64_t", "ssize_t": "int64_t",
    "intptr_t": "int64_t", "uintptr_t": "uint64_t", "ptrdiff_t": "int64_t", "float16_t": "half",
    "float32_t": "float", "float64_t": "double", "bfloat16": "bfloat16_t", "TEventID": "int8_t",
    "event_t": "int32_t", "long double": "double", "__int128": "int128_t", "signed __int128": "int128_t",
    "unsigned __int128": "uint128_t",
    "__fp16": "half",  # (the compilers' IEEE binary16 storage type)
    "__bf16": "bfloat16_t",  # (the compilers' bfloat16 type: catlass 19_mla's `using ElementQ = __bf16;`)
}  # fmt: skip

BOOL = Scalar("bool")
U8 = Scalar("uint8_t")
I32 = Scalar("int32_t")
U32 = Scalar("uint32_t")
I64 = Scalar("int64_t")
U64 = Scalar("uint64_t")
F32 = Scalar("float")
F64 = Scalar("double")


def scalar_named(name: str) -> Scalar | None:
    name = " ".join(name.split())
    name = SCALAR_ALIASES.get(name, name)
    return Scalar(name) if name in SCALARS else None


def signless_value(value: int, bits: int) -> int:
    """`value` as the signed payload of an `arith.constant` of type i<bits> (C wrap-around; i1 true is -1)."""
    v = int(value) & ((1 << bits) - 1)
    if bits == 1:
        return -1 if v else 0
    return v - (1 << bits) if v >= 1 << (bits - 1) else v


def const_fits(value: object, t: Scalar) -> bool:
    """Whether an integer constant converts to integer type `t` without changing its value (anything else
    converts as C says and counts as fitting)."""
    if not isinstance(value, int) or isinstance(value, bool) or t.is_float or t.kind == "bool":
        return True
    low, high = integer_range(t)
    return low <= value <= high


def integer_range(t: Scalar) -> tuple[int, int]:
    """The values an integer (or bool) type holds, lowest and highest."""
    if t.kind == "bool":
        return 0, 1
    return (-(1 << (t.bits - 1)), (1 << (t.bits - 1)) - 1) if t.kind == "int" else (0, (1 << t.bits) - 1)


def promote(t: Scalar) -> Scalar:
    """C integral promotion: everything narrower than int becomes int."""
    if t.kind in ("bool", "int", "uint") and t.bits < 32:
        return I32
    return t


def common_type(a: Scalar, b: Scalar) -> Scalar:
    """The usual arithmetic conversions, for the types AscendC code uses."""
    if a.is_float or b.is_float:
        if not b.is_float:
            return a
        if not a.is_float:
            return b
        return a if a.bits >= b.bits else b
    a, b = promote(a), promote(b)
    if a == b:
        return a
    if a.bits != b.bits:
        return a if a.bits > b.bits else b
    return a if a.kind == "uint" else b


@lru_cache(maxsize=None)  # types are immutable, and building one costs 10-40 us
def scalar_ir_type(t: Scalar) -> Attribute:
    """The IR type of a scalar SSA value (signless integers, as arith wants)."""
    if t.kind == "float":
        return {"half": Float16Type(), "bfloat16_t": BFloat16Type(), "float": Float32Type(),
                "double": Float64Type()}[t.name]  # fmt: skip
    return IntegerType(t.bits)


@lru_cache(maxsize=None)  # types are immutable, and building one costs 10-40 us
def element_ir_type(t: Scalar | None) -> Attribute:
    """The IR element type of a tensor or pointer (integers keep their signedness here)."""
    if t is None:
        return NoneType()
    if t.kind == "float":
        return scalar_ir_type(t)
    if t.kind == "bool":
        return IntegerType(8, Signedness.UNSIGNED)
    return IntegerType(t.bits, Signedness.SIGNED if t.kind == "int" else Signedness.UNSIGNED)


def scalar_from_element(attr: Attribute) -> Scalar | None:
    """The inverse of element_ir_type (for reading IR back)."""
    return _scalar_from_element(attr)


@lru_cache(maxsize=1024)  # attributes and scalars are immutable; the float types cost ~5 us each to build
def _scalar_from_element(attr: Attribute) -> Scalar | None:
    if isinstance(attr, IntegerType):
        signed = attr.signedness.data == Signedness.SIGNED
        return Scalar(f"{'' if signed else 'u'}int{attr.width.data}_t") if attr.width.data in (8, 16, 32, 64) else None
    return {Float16Type(): Scalar("half"), BFloat16Type(): Scalar("bfloat16_t"), Float32Type(): F32,
            Float64Type(): F64}.get(attr)  # type: ignore[call-overload]  # fmt: skip


@lru_cache(maxsize=None)  # types are immutable, and building one costs 10-40 us
def ir_type(t: CType) -> Attribute:
    """The IR type of a value of C type `t`."""
    match t:
        case Scalar():
            return scalar_ir_type(t)
        case EnumT(name):
            return asc.EnumType(name)
        case Pointer(ub=True):
            return scalar_ir_type(U64)
        case Pointer(pointee, _) if not isinstance(pointee, Scalar | VoidT | TilingT | UnknownT | Pointer):
            return ir_type(pointee)  # a pointer to an object is the object, to us
        case Pointer(pointee, _):
            elem = pointee if isinstance(pointee, Scalar) else None
            return asc.GmPtrType(element_ir_type(elem))
        case LocalTensorT(elem, position):
            return asc.LocalTensorType(element_ir_type(elem), position)
        case GlobalTensorT(elem):
            return asc.GlobalTensorType(element_ir_type(elem))
        case QueueT(position, depth, source):
            return asc.TQueType(position, depth, source)
        case BufT(position):
            return asc.TBufType(position)
        case PipeT():
            return asc.TPipeType()
        case StructT(name):
            return asc.StructType(name)
        case TilingT(name, _):
            return asc.TilingType(name)
        case ObjectT(name):
            return asc.ObjectType(name)
        case ClassT(name, _):
            return asc.ObjectType(name)
        case ArrayT():
            dims, elem = array_shape(t)
            return MemRefType(ir_type(elem), dims)
        case _:
            return NoneType()


def array_shape(t: ArrayT) -> tuple[list[int], CType]:
    """`float a[8][16]` -> ([8, 16], float)."""
    dims: list[int] = []
    inner: CType = t
    while isinstance(inner, ArrayT):
        dims.append(inner.size)
        inner = inner.elem
    return dims, inner


@lru_cache(maxsize=None)  # types are immutable, and building one costs 10-40 us
def cell_type(t: CType) -> MemRefType:
    """A mutable local of type `t` lives in a rank-0 memref."""
    return MemRefType(ir_type(t), [])


def size_of(t: CType) -> int | None:
    match t:
        case Scalar():
            return t.size
        case Pointer():
            return 8
        case EnumT():
            return 4
        case ArrayT(elem, size):
            inner = size_of(elem)
            return None if inner is None else inner * size
        case _:
            return None
