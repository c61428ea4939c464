"""The catalog's records: plain frozen dataclasses, built once by the loader and shared read-only."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

# The families an API belongs to; verifier rules and rule pages select APIs by family.
FAMILIES: tuple[str, ...] = (
    "pipe",
    "queue",
    "buffer",
    "global_tensor",
    "local_tensor",
    "data_copy",
    "vec_binary",
    "vec_scalar",
    "vec_unary",
    "duplicate",
    "cast",
    "compare",
    "select",
    "reduce",
    "brcb",
    "gather",
    "transpose",
    "sort",
    "high_level",
    "mask",
    "cube",
    "matmul",
    "sync",
    "system",
)

# What a parameter (or an argument, in resolve.ArgInfo) is, coarsely: enough to pick an overload.
PARAM_KINDS: tuple[str, ...] = (
    "local_tensor",
    "global_tensor",
    "scalar",
    "struct",
    "enum",
    "mask_array",
    "pointer",
    "object",
)

# `@VEC` in a signature: the three vector positions, all in UB.
VEC_POSITIONS: frozenset[str] = frozenset({"VECIN", "VECOUT", "VECCALC"})


@dataclass(frozen=True)
class ElementType:
    """A scalar element type: `half`, `float`, `int32_t`, ... with its C spellings."""

    name: str  # canonical C name, as AscendC spells it
    bits: int
    klass: str  # "int", "uint", "float" or "bool"
    signed: bool
    aliases: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        """Size in bytes; 0 for sub-byte types (int4b_t), whose size is `bits`."""
        return self.bits // 8

    @property
    def is_float(self) -> bool:
        return self.klass == "float"

    @property
    def is_integer(self) -> bool:
        return self.klass in {"int", "uint"}


@dataclass(frozen=True)
class TypeParam:
    """A template parameter: `T` (kind "typename") or a non-type one such as `isSetMask: bool = true`."""

    name: str
    kind: str  # "typename", or a non-type parameter's C type ("bool", "HardEvent", "pipe_t", "auto")
    default: str | None = None

    @property
    def is_type(self) -> bool:
        return self.kind == "typename"

    def __str__(self) -> str:
        text = self.name if self.is_type else f"{self.name}: {self.kind}"
        return text if self.default is None else f"{text} = {self.default}"


@dataclass(frozen=True)
class Param:
    """One function parameter (or a return type, named "return")."""

    name: str
    type_text: str  # the C++-ish type without its position set: "LocalTensor<T>", "uint64_t[2]", "__gm__ T*"
    kind: str  # one of PARAM_KINDS
    elem: str | None = None  # type variable ("T") or canonical element type of a tensor / scalar / pointer
    positions: frozenset[str] | None = None  # allowed TPositions of a LocalTensor; None = any
    default: str | None = None  # default value text; None = required
    type_name: str | None = None  # struct / enum / class name ("BinaryRepeatParams", "RoundMode", "TQue")
    array_len: int | None = None  # `uint64_t[2]` -> 2
    receiver_position: bool = False  # `@Q`: same TPosition as the receiver (queue, buffer or tensor)
    output: bool = False  # `T&`: the call stores into the argument (GatherMask's rsvdCnt)

    @property
    def required(self) -> bool:
        return self.default is None

    def __str__(self) -> str:
        text = f"{self.name}: {self.type_text}"
        if self.output:
            text += "&"
        if self.receiver_position:
            text += "@Q"
        elif self.positions is not None:
            text += _position_suffix(self.positions)
        return text if self.default is None else f"{text} = {self.default}"


def _position_suffix(positions: frozenset[str]) -> str:
    if positions == VEC_POSITIONS:
        return "@VEC"
    if len(positions) == 1:
        return "@" + next(iter(positions))
    return "@{" + ",".join(sorted(positions)) + "}"


@dataclass(frozen=True)
class Overload:
    """One call form of an API, parsed from its signature text."""

    id: str  # "count", "mask", "bitmask", "params", ...: stable, used by rules and tests
    signature: str  # the signature text as written in the catalog
    type_params: tuple[TypeParam, ...]
    params: tuple[Param, ...]
    returns: Param | None = None
    note: str | None = None
    # architectures this form exists on, where the API's other forms exist on more (Sort's SortConfig forms: the
    # 950's only); None = wherever the API does
    archs: frozenset[int] | None = None

    def __repr__(self) -> str:
        return f"Overload({self.id}: {self.signature})"

    @property
    def required_count(self) -> int:
        return sum(1 for param in self.params if param.required)

    def param(self, name: str) -> Param | None:
        return next((param for param in self.params if param.name == name), None)

    def type_param(self, name: str) -> TypeParam | None:
        return next((tp for tp in self.type_params if tp.name == name), None)


@dataclass(frozen=True)
class Api:
    """An AscendC API: a free function (receiver None) or a method of one of the vendor classes."""

    name: str
    family: str
    summary: str
    ref: str
    overloads: tuple[Overload, ...]
    receiver: str | None = None
    # arch ("2201") -> type variable -> allowed element types; only what the reference gives.
    dtypes: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)
    # arch -> allowed combinations of type variables, where the variables are not independent (Mmad, Axpy).
    dtype_combos: Mapping[str, tuple[Mapping[str, str], ...]] = field(default_factory=dict)
    archs: frozenset[int] | None = None  # architectures the API exists on; None = all / not restricted
    # architectures where the API is declared but its body is compiled out: a call does nothing
    empty_archs: frozenset[int] = frozenset()
    operator: str | None = None  # `dst = a + b` style operator form, if any
    notes: str | None = None
    # declared outside namespace AscendC (kernel_common.h): callable without `AscendC::` or a using-directive
    global_scope: bool = False

    def __hash__(self) -> int:
        return hash((self.receiver, self.name))

    def __repr__(self) -> str:
        return f"Api({self.qualified_name}, {self.family}, {len(self.overloads)} overloads)"

    @property
    def qualified_name(self) -> str:
        return f"{self.receiver}::{self.name}" if self.receiver else self.name

    def overload(self, overload_id: str) -> Overload | None:
        return next((ov for ov in self.overloads if ov.id == overload_id), None)

    def allowed_dtypes(self, arch: int | str, var: str) -> tuple[str, ...] | None:
        """Element types the reference allows for type variable `var` on `arch`; None = not catalogued."""
        per_arch = self.dtypes.get(str(arch))
        if per_arch is not None and var in per_arch:
            return per_arch[var]
        combos = self.dtype_combos.get(str(arch))
        if combos:
            return tuple(dict.fromkeys(combo[var] for combo in combos if var in combo)) or None
        return None


@dataclass(frozen=True)
class StructField:
    name: str
    c_type: str
    min: int | None = None  # documented range, where the reference gives one
    max: int | None = None
    default: str | None = None
    note: str | None = None


@dataclass(frozen=True)
class StructDef:
    """A parameter struct (`BinaryRepeatParams`, `DataCopyPadExtParams<T>`, ...). Fields in declaration order."""

    name: str
    fields: tuple[StructField, ...]
    summary: str
    ref: str
    type_params: tuple[str, ...] = ()
    fields_complete: bool = True  # False: the fields are not (all) catalogued
    ordered: bool = True  # False: `fields` is not known to be the declaration order (no positional init)
    note: str | None = None
    # members the vendor declares besides `fields`: union aliases (DataCopyParams' srcGap for srcStride) and
    # mode flags; valid names to read and write, not positions of a brace initialiser
    other_members: tuple[str, ...] = ()
    # the fields each positional constructor sets, in its parameter order, where that is not `fields`' order
    # (ShapeInfo(shapeDim, shape, format) and its five-argument form); a call with that many arguments uses it
    constructors: tuple[tuple[str, ...], ...] = ()
    # False: the vendor declares constructors, so the struct is no aggregate ([dcl.init.aggr]/1.1) and a braced
    # list initialises it only through one of them ([dcl.init.list]/3.7, [over.match.list]): `constructors` then
    # lists every one but the default constructor, which `{}` calls
    aggregate: bool = True
    # False: no default constructor either (WelfordUpdateConfig declares only its one-argument one), so `{}` is
    # no initialiser of it; meaningful only when the struct is no aggregate
    default_constructor: bool = True

    def constructor_fields(self, nargs: int) -> tuple[str, ...] | None:
        return next((c for c in self.constructors if len(c) == nargs), None)

    def takes_list_of(self, count: int) -> bool:
        """Whether a braced list of `count` items can initialise the struct: through a constructor of that many
        parameters when it is no aggregate, else member by member, which allows no more items than members
        ([dcl.init.aggr]/5, known only when the catalogue lists every field). An empty list calls the default
        constructor of a class that has constructors ([dcl.init.list]/3.5)."""
        if not self.aggregate:
            return (count == 0 and self.default_constructor) or self.constructor_fields(count) is not None
        return not self.fields_complete or count <= len(self.fields)

    def has_member(self, name: str) -> bool:
        return self.field(name) is not None or name in self.other_members

    def field(self, name: str) -> StructField | None:
        return next((f for f in self.fields if f.name == name), None)


@dataclass(frozen=True)
class EnumValue:
    name: str
    value: int | None = None  # numeric value where the source gives it
    note: str | None = None


@dataclass(frozen=True)
class EnumDef:
    """An enumeration. Scoped ones are written `RoundMode::CAST_RINT`; unscoped (`PIPE_V`, `EVENT_ID0`)
    convert to integers."""

    name: str
    values: tuple[EnumValue, ...]
    scoped: bool
    summary: str
    ref: str
    value_aliases: Mapping[str, str] = field(default_factory=dict)  # alias -> value name (LCM -> VECCALC)
    complete: bool = True  # False: only some values are catalogued
    note: str | None = None

    def value(self, name: str) -> EnumValue | None:
        name = self.value_aliases.get(name, name)
        return next((v for v in self.values if v.name == name), None)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(v.name for v in self.values)


@dataclass(frozen=True)
class ClassDef:
    """A vendor class whose methods are catalogued (TPipe, TQue, LocalTensor, Matmul, ...)."""

    name: str
    type_params: tuple[TypeParam, ...]
    summary: str
    ref: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class CastRoute:
    src: str
    dst: str
    modes: frozenset[str] | None  # allowed RoundMode values; None = route exists, modes not catalogued
    note: str | None = None


@dataclass(frozen=True)
class CastTable:
    arch: str
    catalogued: bool  # False: nothing is known for this arch yet; do not treat missing routes as illegal
    routes: Mapping[tuple[str, str], CastRoute]
    ref: str
    note: str | None = None


@dataclass(frozen=True)
class Route:
    """A documented (src TPosition -> dst TPosition) route of a data-movement API."""

    api: str
    src: str
    dst: str
    overloads: tuple[str, ...] = ()  # overload ids that use the route; empty = any
    archs: frozenset[int] | None = None
    note: str | None = None


@dataclass(frozen=True)
class MaskRule:
    """Vector mask limits for one element width [DG 0124]."""

    bits: int
    continuous_max: int  # continuous mode: mask in [1, continuous_max] lanes per repeat
    bitmask_words: int | None  # bit mode: how many uint64 words carry lanes; None = not documented


@dataclass(frozen=True)
class QueueBinding:
    """How a TQue position is implemented as TQueBind<src, dst> [DG 0386]."""

    position: str
    src: str
    dst: str
    note: str | None = None


@dataclass(frozen=True)
class QueueEvent:
    """The hardware events behind EnQue/DeQue (forward) and FreeTensor/AllocTensor (backward) on a route."""

    src_memory: str
    dst_memory: str
    forward: str  # HardEvent name, e.g. "MTE2_V"
    backward: str
    archs: frozenset[int] | None = None
