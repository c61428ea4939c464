"""Evaluate a lowered host tiling function for concrete shapes, dtypes, attributes and a chip.

The tiling function is a `func.func` taking one `!host.tiling_context` and returning the graphStatus
(see `ascendir.dialects.host`). `evaluate_tiling` runs it with xDSL's interpreter: the stock function
tables for arith, scf, memref, func, cf and math, the `host` dialect's table below, and a few arith /
memref / math implementations xDSL 0.74 lacks (unsigned division, min/max, casts, `memref.alloca`, ...).

Nothing here raises on bad input: a failing op, a loop that never ends (guarded by a step budget) or an
input the function reads but was not given all end the run with a diagnostic in the `TilingResult`.
"""

from __future__ import annotations

import dataclasses
import math
import struct
from collections.abc import Mapping
from dataclasses import dataclass, field
from math import prod
from typing import Any, cast

from xdsl.dialects import arith, builtin, func, memref
from xdsl.dialects import math as xmath
from xdsl.dialects.builtin import (
    BFloat16Type,
    FileLineColLoc,
    Float16Type,
    Float32Type,
    IndexType,
    IntegerType,
    MemRefType,
    ModuleOp,
)
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.arith import ArithFunctions
from xdsl.interpreters.builtin import BuiltinFunctions, xtype_for_el_type
from xdsl.interpreters.cf import CfFunctions
from xdsl.interpreters.func import FuncFunctions
from xdsl.interpreters.math import MathFunctions
from xdsl.interpreters.memref import MemRefFunctions
from xdsl.interpreters.scf import ScfFunctions
from xdsl.interpreters.shaped_array import ShapedArray
from xdsl.interpreters.utils.ptr import TypedPtr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.traits import SymbolTable
from xdsl.utils.comparisons import to_signed, to_unsigned

from ascendir.dialects import host
from ascendir.dialects.host import (
    GE_DATA_TYPE_SIZES,
    GE_DATA_TYPES,
    GRAPH_FAILED,
    GRAPH_SUCCESS,
    NUMPY_TO_GE,
    CoreKind,
    MemSpace,
    TilingContextType,
)

AttrValue = int | float | bool | str | list[int]
FieldValue = int | float | list[int | float]

# ----------------------------------------------------------------------------------------------------
# Public data
# ----------------------------------------------------------------------------------------------------


@dataclass
class TensorSpec:
    """One input or output tensor: its shape and numpy-style dtype name ("float16", "bfloat16", ...)."""

    shape: tuple[int, ...]
    dtype: str
    # only formats such as NZ differ; None means the storage shape equals the origin shape
    storage_shape: tuple[int, ...] | None = None


@dataclass
class TilingInputs:
    """What the tiling function sees: tensors (None for an absent optional one), attributes, the chip.

    `chip` is a chip name, or a dict of overrides (`{"name": "910B2", "aiv_cores": 8}`) over one.
    """

    inputs: list[TensorSpec | None]
    outputs: list[TensorSpec | None] = field(default_factory=list)
    attrs: list[AttrValue | None] = field(default_factory=list)
    chip: str | Mapping[str, int | str] = "910B2"


@dataclass
class TilingResult:
    """What one run of the tiling function produced; None for what it never set."""

    status: int | None
    block_dim: int | None
    tiling_key: int | None
    workspace: dict[int, int]
    fields: dict[str, FieldValue]
    diagnostics: list[str]
    struct_name: str | None = None
    # the op evaluation stopped at when the function failed (raised, or returned a failure status)
    failure_op: Operation | None = None
    # what the function ran on (set by the caller that has them)
    inputs: TilingInputs | None = None
    # False when the lowering left parts of the function out (not modelled): a failure may be ours
    complete: bool = True
    # the function stopped at an input, output or attribute that was not given
    missing_inputs: bool = False

    @property
    def succeeded(self) -> bool:
        return self.status == GRAPH_SUCCESS and self.failure_op is None


@dataclass(frozen=True)
class ChipNumbers:
    """The platform numbers the host API reports (core counts, memory sizes in bytes)."""

    name: str
    aiv_cores: int
    aic_cores: int
    vector_cores: int
    ub: int
    l1: int
    l0a: int
    l0b: int
    l0c: int
    l2: int | None
    hbm: int | None
    # GetLibApiWorkSpaceSize(); 16 MiB is what 910B samples reserve (weak: make it a chip parameter)
    lib_workspace: int = 16 * 1024 * 1024


_KIB = 1024
_MIB = 1024 * _KIB
_GIB = 1024 * _MIB

# Used until (or where) `ascendir.chips` has no answer; numbers from docs/ascendc-reference.md §6.
_FALLBACK_CHIPS: dict[str, ChipNumbers] = {
    "910B2": ChipNumbers("910B2", 48, 24, 0, 192 * _KIB, 512 * _KIB, 64 * _KIB, 64 * _KIB, 128 * _KIB,
                         192 * _MIB, 64 * _GIB),
    "910B4": ChipNumbers("910B4", 40, 20, 0, 192 * _KIB, 512 * _KIB, 64 * _KIB, 64 * _KIB, 128 * _KIB,
                         96 * _MIB, 32 * _GIB),
    "910B3": ChipNumbers("910B3", 40, 20, 0, 192 * _KIB, 512 * _KIB, 64 * _KIB, 64 * _KIB, 128 * _KIB,
                         None, None),
    "910B1": ChipNumbers("910B1", 50, 25, 0, 192 * _KIB, 512 * _KIB, 64 * _KIB, 64 * _KIB, 128 * _KIB,
                         None, None),
}  # fmt: skip
_DEFAULT_CHIP = "910B2"
_OPTIONAL_SIZES = ("l2", "hbm")

# Attribute names tried, in order, on an `ascendir.chips.Chip` for each ChipNumbers field; a field the
# chip does not have (or has as None) keeps the fallback value.
_CHIP_ALIASES: dict[str, tuple[str, ...]] = {
    "aiv_cores": ("aiv_cores",),
    "aic_cores": ("aic_cores",),
    "vector_cores": ("vector_cores",),
    "ub": ("ub_size", "ub"),
    "l1": ("l1_size", "l1"),
    "l0a": ("l0a_size", "l0a"),
    "l0b": ("l0b_size", "l0b"),
    "l0c": ("l0c_size", "l0c"),
    "l2": ("l2_bytes", "l2"),
    "hbm": ("hbm_bytes", "hbm"),
    "lib_workspace": ("lib_workspace_bytes", "lib_workspace"),
}


def resolve_chip(chip: str | Mapping[str, int | str]) -> tuple[ChipNumbers, list[str]]:
    """The numbers for a chip name or override dict, plus diagnostics about what could not be used."""
    notes: list[str] = []
    if isinstance(chip, str):
        return _chip_by_name(chip, notes), notes
    base_name = chip.get("name", _DEFAULT_CHIP)
    base = _chip_by_name(str(base_name), notes)
    overrides: dict[str, Any] = {}
    for key, value in chip.items():
        if key == "name":
            continue
        if key not in _CHIP_ALIASES or not isinstance(value, int) or isinstance(value, bool):
            notes.append(f"ignored chip override {key}={value!r}")
            continue
        overrides[key] = value
    return dataclasses.replace(base, **overrides), notes


def _chip_by_name(name: str, notes: list[str]) -> ChipNumbers:
    fallback = _FALLBACK_CHIPS.get(name)
    loaded = _load_chip_object(name)
    if loaded is not None:
        return _from_chip_object(name, loaded, fallback or _FALLBACK_CHIPS[_DEFAULT_CHIP])
    if fallback is None:
        notes.append(f"unknown chip '{name}'; using {_DEFAULT_CHIP} numbers")
        return _FALLBACK_CHIPS[_DEFAULT_CHIP]
    return fallback


def _load_chip_object(name: str) -> object | None:
    """The `ascendir.chips` configuration of `name`, or None where that package cannot give one."""
    try:
        from ascendir.chips import load_chip
    except ImportError:  # the chips package is optional here: the fallback table covers the 910B parts
        return None
    try:
        return load_chip(name)
    except Exception:  # noqa: BLE001 - however the chips package rejects a name, fall back to the table
        return None


def _from_chip_object(name: str, obj: object, fallback: ChipNumbers) -> ChipNumbers:
    values: dict[str, Any] = {}
    for key, aliases in _CHIP_ALIASES.items():
        for alias in aliases:
            if not hasattr(obj, alias):
                continue
            value = getattr(obj, alias)
            if isinstance(value, int) and not isinstance(value, bool):
                values[key] = value
            elif value is None and key in _OPTIONAL_SIZES:
                values[key] = None  # the chip file does not know it: do not borrow another chip's number
            break
    return dataclasses.replace(fallback, name=name, **values)


# ----------------------------------------------------------------------------------------------------
# Runtime objects behind the host types
# ----------------------------------------------------------------------------------------------------


class HostEvalError(Exception):
    """An error of the evaluated tiling function (not of the evaluator); its message is the diagnostic."""


class MissingInputError(HostEvalError):
    """The function reads an input, output or attribute the caller did not give: a gap in the inputs."""


class StepBudgetExhausted(Exception):
    """Raised by the step counter to stop a run that executes too many ops."""


@dataclass
class TilingStruct:
    """The value of a `!host.tiling_data<S>`: field values by name."""

    struct_name: str
    fields: dict[str, FieldValue] = field(default_factory=dict)
    bound: bool = False  # the context's own buffer (GetTilingData<S>()), not a local object
    saved: bool = False


@dataclass
class TilingContextState:
    """The value of a `!host.tiling_context`: the inputs and everything the function set."""

    inputs: TilingInputs
    chip: ChipNumbers
    func_name: str
    block_dim: int | None = None
    tiling_key: int | None = None
    workspace: dict[int, int] = field(default_factory=dict)
    buffer: TilingStruct | None = None
    locals: list[TilingStruct] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def tensor(self, index: int, output: bool) -> TensorSpec:
        """The tensor read by a shape or dtype query, or an error naming what is missing."""
        tensors = self.inputs.outputs if output else self.inputs.inputs
        what = "output" if output else "input"
        if index >= len(tensors):
            raise MissingInputError(
                f"{self.func_name} reads {what} {index} but only {len(tensors)} {what}s were given"
            )
        spec = tensors[index]
        if spec is None:
            raise HostEvalError(f"{self.func_name} reads {what} {index}, an optional {what} that is absent")
        return spec

    def attr(self, index: int) -> AttrValue:
        """The attribute read by `host.attr`, or an error naming what is missing."""
        attrs = self.inputs.attrs
        if index >= len(attrs):
            raise MissingInputError(
                f"{self.func_name} reads attribute {index} but only {len(attrs)} attributes were given"
            )
        value = attrs[index]
        if value is None:
            raise HostEvalError(f"{self.func_name} reads attribute {index}, which is not set")
        return value


def ge_dtype(name: str) -> int:
    """The `ge::DataType` number of a numpy-style dtype name (or of a `DT_*` name)."""
    ge_name = NUMPY_TO_GE.get(name, name)
    if ge_name not in GE_DATA_TYPES:
        raise HostEvalError(f"unknown dtype '{name}'")
    return GE_DATA_TYPES[ge_name]


# ----------------------------------------------------------------------------------------------------
# Value helpers
# ----------------------------------------------------------------------------------------------------


def _int_width(interpreter: Interpreter, typ: Attribute) -> int:
    if isinstance(typ, IntegerType):
        return int(typ.width.data)
    if isinstance(typ, IndexType):
        return interpreter.index_bitwidth
    raise HostEvalError(f"expected an integer type, got {typ}")


def _round_float(value: float, typ: Attribute) -> float:
    """Round a Python float to the precision of `typ`, so f32 results match C++ `float` bit for bit."""
    if not math.isfinite(value):
        return value
    try:
        if isinstance(typ, Float32Type):
            return cast(float, struct.unpack("f", struct.pack("f", value))[0])
        if isinstance(typ, Float16Type):
            return cast(float, struct.unpack("e", struct.pack("e", value))[0])
        if isinstance(typ, BFloat16Type):
            bits = struct.unpack("I", struct.pack("f", value))[0]
            bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000  # round to nearest even
            return cast(float, struct.unpack("f", struct.pack("I", bits))[0])
    except OverflowError:
        return math.copysign(math.inf, value)
    return value


def _field_value(interpreter: Interpreter, value: Any, typ: Attribute, unsigned: bool) -> FieldValue:
    """A tiling field value as the C++ struct would hold it."""
    if isinstance(value, ShapedArray):
        assert isinstance(typ, MemRefType)
        element_type = typ.element_type
        return [cast(int | float, _field_value(interpreter, v, element_type, unsigned)) for v in value.data]
    if isinstance(typ, IntegerType | IndexType):
        width = _int_width(interpreter, typ)
        if width == 1:
            return 1 if value else 0
        return to_unsigned(int(value), width) if unsigned else to_signed(int(value), width)
    return _round_float(float(value), typ)


def _checked_offset(array: ShapedArray[Any], indices: tuple[int, ...], typ: Attribute) -> None:
    if len(indices) != len(array.shape) or any(not 0 <= i < n for i, n in zip(indices, array.shape)):
        shown = ", ".join(str(i) for i in indices)
        raise HostEvalError(f"index [{shown}] out of bounds for {typ}")


# ----------------------------------------------------------------------------------------------------
# The host dialect
# ----------------------------------------------------------------------------------------------------


@register_impls
class HostFunctions(InterpreterFunctions):
    """Interpreter implementations of the `host` dialect ops."""

    @impl(host.InputShapeOp)
    def run_input_shape(
        self, interpreter: Interpreter, op: host.InputShapeOp, args: PythonValues
    ) -> PythonValues:
        (ctx,) = args
        spec = cast(TilingContextState, ctx).tensor(op.index.value.data, output=False)
        return (_shape_of(spec, op.kind.data),)

    @impl(host.OutputShapeOp)
    def run_output_shape(
        self, interpreter: Interpreter, op: host.OutputShapeOp, args: PythonValues
    ) -> PythonValues:
        (ctx,) = args
        spec = cast(TilingContextState, ctx).tensor(op.index.value.data, output=True)
        return (_shape_of(spec, op.kind.data),)

    @impl(host.HasInputOp)
    def run_has_input(
        self, interpreter: Interpreter, op: host.HasInputOp, args: PythonValues
    ) -> PythonValues:
        state = cast(TilingContextState, args[0])
        index = op.index.value.data
        return (index < len(state.inputs.inputs) and state.inputs.inputs[index] is not None,)

    @impl(host.ShapeDimOp)
    def run_shape_dim(
        self, interpreter: Interpreter, op: host.ShapeDimOp, args: PythonValues
    ) -> PythonValues:
        shape, dim = cast(tuple[int, ...], args[0]), cast(int, args[1])
        if not 0 <= dim < len(shape):
            raise HostEvalError(f"GetDim({dim}) on a shape of rank {len(shape)} {list(shape)}")
        return (shape[dim],)

    @impl(host.ShapeDimNumOp)
    def run_shape_dim_num(
        self, interpreter: Interpreter, op: host.ShapeDimNumOp, args: PythonValues
    ) -> PythonValues:
        return (len(cast(tuple[int, ...], args[0])),)

    @impl(host.ShapeSizeOp)
    def run_shape_size(
        self, interpreter: Interpreter, op: host.ShapeSizeOp, args: PythonValues
    ) -> PythonValues:
        # gert::Shape::GetShapeSize() of a scalar (rank 0) is 1, as prod() of nothing
        return (prod(cast(tuple[int, ...], args[0])),)

    @impl(host.InputDtypeOp)
    def run_input_dtype(
        self, interpreter: Interpreter, op: host.InputDtypeOp, args: PythonValues
    ) -> PythonValues:
        spec = cast(TilingContextState, args[0]).tensor(op.index.value.data, output=False)
        return (ge_dtype(spec.dtype),)

    @impl(host.OutputDtypeOp)
    def run_output_dtype(
        self, interpreter: Interpreter, op: host.OutputDtypeOp, args: PythonValues
    ) -> PythonValues:
        spec = cast(TilingContextState, args[0]).tensor(op.index.value.data, output=True)
        return (ge_dtype(spec.dtype),)

    @impl(host.DtypeSizeOp)
    def run_dtype_size(
        self, interpreter: Interpreter, op: host.DtypeSizeOp, args: PythonValues
    ) -> PythonValues:
        dtype = cast(int, args[0])
        if dtype not in GE_DATA_TYPE_SIZES:
            raise HostEvalError(f"GetSizeByDataType of unknown ge::DataType {dtype}")
        return (GE_DATA_TYPE_SIZES[dtype],)

    @impl(host.AttrOp)
    def run_attr(self, interpreter: Interpreter, op: host.AttrOp, args: PythonValues) -> PythonValues:
        state = cast(TilingContextState, args[0])
        index = op.index.value.data
        value = state.attr(index)
        kind = op.kind
        ok = {
            "int": isinstance(value, int) and not isinstance(value, bool),
            "float": isinstance(value, int | float) and not isinstance(value, bool),
            "bool": isinstance(value, bool),
            "str": isinstance(value, str),
            "list_int": isinstance(value, list) and all(isinstance(v, int) for v in value),
        }[kind]
        if not ok:
            raise HostEvalError(
                f"{state.func_name} reads attribute {index} as {kind} but was given {value!r}"
            )
        if kind == "float":
            return (_round_float(float(cast(float, value)), op.result.type),)
        if kind == "list_int":
            return (tuple(cast(list[int], value)),)
        return (value,)

    @impl(host.HasAttrOp)
    def run_has_attr(self, interpreter: Interpreter, op: host.HasAttrOp, args: PythonValues) -> PythonValues:
        attrs = cast(TilingContextState, args[0]).inputs.attrs
        index = op.index.value.data
        return (index < len(attrs) and attrs[index] is not None,)

    @impl(host.StrEqOp)
    def run_str_eq(self, interpreter: Interpreter, op: host.StrEqOp, args: PythonValues) -> PythonValues:
        return (args[0] == op.literal.data,)

    @impl(host.ListSizeOp)
    def run_list_size(
        self, interpreter: Interpreter, op: host.ListSizeOp, args: PythonValues
    ) -> PythonValues:
        return (len(cast(tuple[int, ...], args[0])),)

    @impl(host.ListGetOp)
    def run_list_get(self, interpreter: Interpreter, op: host.ListGetOp, args: PythonValues) -> PythonValues:
        values, position = cast(tuple[int, ...], args[0]), cast(int, args[1])
        if not 0 <= position < len(values):
            raise HostEvalError(f"list attribute element {position} read, but the list has {len(values)}")
        return (values[position],)

    @impl(host.PlatformOp)
    def run_platform(self, interpreter: Interpreter, op: host.PlatformOp, args: PythonValues) -> PythonValues:
        return (cast(TilingContextState, args[0]).chip,)

    @impl(host.CoreNumOp)
    def run_core_num(self, interpreter: Interpreter, op: host.CoreNumOp, args: PythonValues) -> PythonValues:
        chip = cast(ChipNumbers, args[0])
        kind = op.kind.data
        count = {
            CoreKind.AIV: chip.aiv_cores,
            CoreKind.AIC: chip.aic_cores,
            CoreKind.VECTOR: chip.vector_cores,
        }[kind]
        return (count,)

    @impl(host.MemSizeOp)
    def run_mem_size(self, interpreter: Interpreter, op: host.MemSizeOp, args: PythonValues) -> PythonValues:
        chip = cast(ChipNumbers, args[0])
        space = op.space.data
        size = {
            MemSpace.UB: chip.ub,
            MemSpace.L1: chip.l1,
            MemSpace.L0_A: chip.l0a,
            MemSpace.L0_B: chip.l0b,
            MemSpace.L0_C: chip.l0c,
            MemSpace.L2: chip.l2,
            MemSpace.HBM: chip.hbm,
        }[space]
        if size is None:
            raise HostEvalError(f"the {space.value} size of chip {chip.name} is not known")
        return (size,)

    @impl(host.LibWorkspaceSizeOp)
    def run_lib_workspace_size(
        self, interpreter: Interpreter, op: host.LibWorkspaceSizeOp, args: PythonValues
    ) -> PythonValues:
        return (cast(ChipNumbers, args[0]).lib_workspace,)

    @impl(host.SetBlockDimOp)
    def run_set_block_dim(
        self, interpreter: Interpreter, op: host.SetBlockDimOp, args: PythonValues
    ) -> PythonValues:
        state = cast(TilingContextState, args[0])
        # SetBlockDim takes a uint32_t
        state.block_dim = to_unsigned(int(args[1]), 32)
        return ()

    @impl(host.SetTilingKeyOp)
    def run_set_tiling_key(
        self, interpreter: Interpreter, op: host.SetTilingKeyOp, args: PythonValues
    ) -> PythonValues:
        state = cast(TilingContextState, args[0])
        state.tiling_key = to_unsigned(int(args[1]), 64)  # SetTilingKey takes a uint64_t
        return ()

    @impl(host.SetWorkspaceOp)
    def run_set_workspace(
        self, interpreter: Interpreter, op: host.SetWorkspaceOp, args: PythonValues
    ) -> PythonValues:
        state = cast(TilingContextState, args[0])
        state.workspace[op.index.value.data] = to_unsigned(int(args[1]), 64)  # size_t
        return ()

    @impl(host.TilingDataOp)
    def run_tiling_data(
        self, interpreter: Interpreter, op: host.TilingDataOp, args: PythonValues
    ) -> PythonValues:
        state = cast(TilingContextState, args[0])
        name = op.result.type.struct_name.data
        if state.buffer is None:
            state.buffer = TilingStruct(name, bound=True, saved=True)
        elif state.buffer.struct_name != name:
            state.notes.append(
                f"tiling buffer used as {name} after being written as {state.buffer.struct_name}"
            )
            state.buffer = TilingStruct(name, dict(state.buffer.fields), bound=True, saved=True)
        return (state.buffer,)

    @impl(host.TilingLocalOp)
    def run_tiling_local(
        self, interpreter: Interpreter, op: host.TilingLocalOp, args: PythonValues
    ) -> PythonValues:
        data = TilingStruct(op.result.type.struct_name.data)
        _context_state(interpreter).locals.append(data)
        return (data,)

    @impl(host.TilingSetOp)
    def run_tiling_set(
        self, interpreter: Interpreter, op: host.TilingSetOp, args: PythonValues
    ) -> PythonValues:
        data = cast(TilingStruct, args[0])
        name = op.field.data
        value = _field_value(interpreter, args[-1], op.value.type, op.is_unsigned is not None)
        if data.saved and not data.bound:
            _context_state(interpreter).notes.append(
                f"field {name} of {data.struct_name} set after SaveToBuffer; the saved tiling does not have it"
            )
        if op.position is None:
            data.fields[name] = value
            return ()
        position = cast(int, args[1])
        if position < 0:
            raise HostEvalError(f"negative index {position} into tiling field {name}")
        current = data.fields.get(name, [])
        items: list[int | float] = list(current) if isinstance(current, list) else [current]
        items.extend([0] * (position + 1 - len(items)))  # arrays are zero-filled like the C++ struct
        items[position] = cast(int | float, value)
        data.fields[name] = items
        return ()

    @impl(host.TilingGetOp)
    def run_tiling_get(
        self, interpreter: Interpreter, op: host.TilingGetOp, args: PythonValues
    ) -> PythonValues:
        data = cast(TilingStruct, args[0])
        name = op.field.data
        value: FieldValue = data.fields.get(name, 0)
        if name not in data.fields:
            _context_state(interpreter).notes.append(
                f"field {name} of {data.struct_name} read before it was set (reads 0)"
            )
        if op.position is not None:
            position = cast(int, args[1])
            items = value if isinstance(value, list) else [value]
            value = items[position] if 0 <= position < len(items) else 0
        if isinstance(value, list):
            raise HostEvalError(f"tiling field {name} is an array; read it with an index")
        if isinstance(op.result.type, IntegerType):
            return (to_signed(int(value), op.result.type.width.data),)
        return (_round_float(float(value), op.result.type),)

    @impl(host.TilingSaveOp)
    def run_tiling_save(
        self, interpreter: Interpreter, op: host.TilingSaveOp, args: PythonValues
    ) -> PythonValues:
        data, state = cast(TilingStruct, args[0]), cast(TilingContextState, args[1])
        if data.bound:
            return ()  # SetDataSize on the context's own buffer: nothing to copy
        # SaveToBuffer copies the struct as it is now; later setters do not reach the context
        state.buffer = TilingStruct(data.struct_name, _copy_fields(data.fields), bound=False, saved=True)
        data.saved = True
        return ()


def _shape_of(spec: TensorSpec, kind: host.ShapeKind) -> tuple[int, ...]:
    if kind == host.ShapeKind.STORAGE and spec.storage_shape is not None:
        return tuple(spec.storage_shape)
    return tuple(spec.shape)


def _copy_fields(fields: dict[str, FieldValue]) -> dict[str, FieldValue]:
    return {k: list(v) if isinstance(v, list) else v for k, v in fields.items()}


_STATE_KEY = "context"


def _context_state(interpreter: Interpreter) -> TilingContextState:
    return cast(TilingContextState, interpreter.get_data(HostFunctions, _STATE_KEY, lambda: None))


# ----------------------------------------------------------------------------------------------------
# What xDSL 0.74's stock tables lack (or assert on) for lowered C++ scalars
# ----------------------------------------------------------------------------------------------------


def _int_operands(
    interpreter: Interpreter, op: Operation, args: PythonValues, unsigned: bool
) -> tuple[int, int, int]:
    width = _int_width(interpreter, op.results[0].type)
    convert = to_unsigned if unsigned else to_signed
    return convert(int(args[0]), width), convert(int(args[1]), width), width


def _c_div(lhs: int, rhs: int) -> int:
    """C integer division: truncates toward zero."""
    quotient = abs(lhs) // abs(rhs)
    return quotient if (lhs >= 0) == (rhs >= 0) else -quotient


def _nonzero(rhs: int) -> None:
    if rhs == 0:
        raise HostEvalError("integer division by zero")


@register_impls
class ArithExtraFunctions(InterpreterFunctions):
    """Integer division with a readable zero-divisor error, unsigned ops, min/max, casts, float division."""

    @impl(arith.DivSIOp)
    def run_divsi(self, interpreter: Interpreter, op: arith.DivSIOp, args: PythonValues) -> PythonValues:
        lhs, rhs, width = _int_operands(interpreter, op, args, unsigned=False)
        _nonzero(rhs)
        return (to_signed(_c_div(lhs, rhs), width),)

    @impl(arith.RemSIOp)
    def run_remsi(self, interpreter: Interpreter, op: arith.RemSIOp, args: PythonValues) -> PythonValues:
        lhs, rhs, width = _int_operands(interpreter, op, args, unsigned=False)
        _nonzero(rhs)
        return (to_signed(lhs - _c_div(lhs, rhs) * rhs, width),)

    @impl(arith.DivUIOp)
    def run_divui(self, interpreter: Interpreter, op: arith.DivUIOp, args: PythonValues) -> PythonValues:
        lhs, rhs, width = _int_operands(interpreter, op, args, unsigned=True)
        _nonzero(rhs)
        return (to_signed(lhs // rhs, width),)

    @impl(arith.RemUIOp)
    def run_remui(self, interpreter: Interpreter, op: arith.RemUIOp, args: PythonValues) -> PythonValues:
        lhs, rhs, width = _int_operands(interpreter, op, args, unsigned=True)
        _nonzero(rhs)
        return (to_signed(lhs % rhs, width),)

    @impl(arith.FloorDivSIOp)
    def run_floordivsi(
        self, interpreter: Interpreter, op: arith.FloorDivSIOp, args: PythonValues
    ) -> PythonValues:
        lhs, rhs, width = _int_operands(interpreter, op, args, unsigned=False)
        _nonzero(rhs)
        return (to_signed(lhs // rhs, width),)

    @impl(arith.CeilDivSIOp)
    def run_ceildivsi(
        self, interpreter: Interpreter, op: arith.CeilDivSIOp, args: PythonValues
    ) -> PythonValues:
        lhs, rhs, width = _int_operands(interpreter, op, args, unsigned=False)
        _nonzero(rhs)
        return (to_signed(-(-lhs // rhs), width),)

    @impl(arith.CeilDivUIOp)
    def run_ceildivui(
        self, interpreter: Interpreter, op: arith.CeilDivUIOp, args: PythonValues
    ) -> PythonValues:
        lhs, rhs, width = _int_operands(interpreter, op, args, unsigned=True)
        _nonzero(rhs)
        return (to_signed(-(-lhs // rhs), width),)

    @impl(arith.MinSIOp)
    def run_minsi(self, interpreter: Interpreter, op: arith.MinSIOp, args: PythonValues) -> PythonValues:
        lhs, rhs, _ = _int_operands(interpreter, op, args, unsigned=False)
        return (min(lhs, rhs),)

    @impl(arith.MaxSIOp)
    def run_maxsi(self, interpreter: Interpreter, op: arith.MaxSIOp, args: PythonValues) -> PythonValues:
        lhs, rhs, _ = _int_operands(interpreter, op, args, unsigned=False)
        return (max(lhs, rhs),)

    @impl(arith.MinUIOp)
    def run_minui(self, interpreter: Interpreter, op: arith.MinUIOp, args: PythonValues) -> PythonValues:
        lhs, rhs, width = _int_operands(interpreter, op, args, unsigned=True)
        return (to_signed(min(lhs, rhs), width),)

    @impl(arith.MaxUIOp)
    def run_maxui(self, interpreter: Interpreter, op: arith.MaxUIOp, args: PythonValues) -> PythonValues:
        lhs, rhs, width = _int_operands(interpreter, op, args, unsigned=True)
        return (to_signed(max(lhs, rhs), width),)

    @impl(arith.ShRUIOp)
    def run_shrui(self, interpreter: Interpreter, op: arith.ShRUIOp, args: PythonValues) -> PythonValues:
        lhs, rhs, width = _int_operands(interpreter, op, args, unsigned=True)
        return (to_signed(lhs >> rhs, width) if rhs < width else 0,)

    @impl(arith.ExtSIOp)
    def run_extsi(self, interpreter: Interpreter, op: arith.ExtSIOp, args: PythonValues) -> PythonValues:
        return (to_signed(int(args[0]), _int_width(interpreter, op.input.type)),)

    @impl(arith.ExtUIOp)
    def run_extui(self, interpreter: Interpreter, op: arith.ExtUIOp, args: PythonValues) -> PythonValues:
        return (to_unsigned(int(args[0]), _int_width(interpreter, op.input.type)),)

    @impl(arith.TruncIOp)
    def run_trunci(self, interpreter: Interpreter, op: arith.TruncIOp, args: PythonValues) -> PythonValues:
        return (to_signed(int(args[0]), _int_width(interpreter, op.result.type)),)

    @impl(arith.SIToFPOp)
    def run_sitofp(self, interpreter: Interpreter, op: arith.SIToFPOp, args: PythonValues) -> PythonValues:
        value = to_signed(int(args[0]), _int_width(interpreter, op.input.type))
        return (_round_float(float(value), op.result.type),)

    @impl(arith.UIToFPOp)
    def run_uitofp(self, interpreter: Interpreter, op: arith.UIToFPOp, args: PythonValues) -> PythonValues:
        value = to_unsigned(int(args[0]), _int_width(interpreter, op.input.type))
        return (_round_float(float(value), op.result.type),)

    @impl(arith.FPToSIOp)
    def run_fptosi(self, interpreter: Interpreter, op: arith.FPToSIOp, args: PythonValues) -> PythonValues:
        value = float(args[0])
        if not math.isfinite(value):
            raise HostEvalError(f"{op.name} of {value}")
        return (to_signed(int(value), _int_width(interpreter, op.result.type)),)  # int() truncates like C

    @impl(arith.FPToUIOp)
    def run_fptoui(self, interpreter: Interpreter, op: arith.FPToUIOp, args: PythonValues) -> PythonValues:
        value = float(args[0])
        if not math.isfinite(value):
            raise HostEvalError(f"{op.name} of {value}")
        return (to_signed(int(value), _int_width(interpreter, op.result.type)),)

    @impl(arith.ExtFOp)
    def run_extf(self, interpreter: Interpreter, op: arith.ExtFOp, args: PythonValues) -> PythonValues:
        return (float(args[0]),)

    @impl(arith.TruncFOp)
    def run_truncf(self, interpreter: Interpreter, op: arith.TruncFOp, args: PythonValues) -> PythonValues:
        return (_round_float(float(args[0]), op.result.type),)

    # The stock addf/subf/mulf compute in double precision; C++ float arithmetic rounds every step.
    @impl(arith.AddfOp)
    def run_addf(self, interpreter: Interpreter, op: arith.AddfOp, args: PythonValues) -> PythonValues:
        return (_round_float(args[0] + args[1], op.result.type),)

    @impl(arith.SubfOp)
    def run_subf(self, interpreter: Interpreter, op: arith.SubfOp, args: PythonValues) -> PythonValues:
        return (_round_float(args[0] - args[1], op.result.type),)

    @impl(arith.MulfOp)
    def run_mulf(self, interpreter: Interpreter, op: arith.MulfOp, args: PythonValues) -> PythonValues:
        return (_round_float(args[0] * args[1], op.result.type),)

    @impl(arith.DivfOp)
    def run_divf(self, interpreter: Interpreter, op: arith.DivfOp, args: PythonValues) -> PythonValues:
        lhs, rhs = float(args[0]), float(args[1])
        if rhs == 0.0:
            # IEEE semantics, as in C++: x/0 is +-inf, 0/0 is NaN
            result = (
                math.nan
                if lhs == 0.0 or math.isnan(lhs)
                else math.copysign(math.inf, lhs) * math.copysign(1.0, rhs)
            )
        else:
            result = lhs / rhs
        return (_round_float(result, op.result.type),)

    @impl(arith.NegfOp)
    def run_negf(self, interpreter: Interpreter, op: arith.NegfOp, args: PythonValues) -> PythonValues:
        return (-float(args[0]),)

    @impl(arith.MaxnumfOp)
    def run_maxnumf(self, interpreter: Interpreter, op: arith.MaxnumfOp, args: PythonValues) -> PythonValues:
        lhs, rhs = float(args[0]), float(args[1])
        return (rhs if math.isnan(lhs) else lhs if math.isnan(rhs) else max(lhs, rhs),)

    @impl(arith.MinnumfOp)
    def run_minnumf(self, interpreter: Interpreter, op: arith.MinnumfOp, args: PythonValues) -> PythonValues:
        lhs, rhs = float(args[0]), float(args[1])
        return (rhs if math.isnan(lhs) else lhs if math.isnan(rhs) else min(lhs, rhs),)


@register_impls
class MathExtraFunctions(InterpreterFunctions):
    """`std::ceil`, `std::floor`, `std::abs`, `std::pow` as the lowering emits them."""

    @impl(xmath.CeilOp)
    def run_ceil(self, interpreter: Interpreter, op: xmath.CeilOp, args: PythonValues) -> PythonValues:
        value = float(args[0])
        return (float(math.ceil(value)) if math.isfinite(value) else value,)

    @impl(xmath.FloorOp)
    def run_floor(self, interpreter: Interpreter, op: xmath.FloorOp, args: PythonValues) -> PythonValues:
        value = float(args[0])
        return (float(math.floor(value)) if math.isfinite(value) else value,)

    @impl(xmath.AbsFOp)
    def run_absf(self, interpreter: Interpreter, op: xmath.AbsFOp, args: PythonValues) -> PythonValues:
        return (abs(float(args[0])),)

    @impl(xmath.AbsIOp)
    def run_absi(self, interpreter: Interpreter, op: xmath.AbsIOp, args: PythonValues) -> PythonValues:
        width = _int_width(interpreter, op.result.type)
        return (to_signed(abs(to_signed(int(args[0]), width)), width),)

    @impl(xmath.PowFOp)
    def run_powf(self, interpreter: Interpreter, op: xmath.PowFOp, args: PythonValues) -> PythonValues:
        try:
            result = math.pow(float(args[0]), float(args[1]))
        except (OverflowError, ValueError):
            result = math.nan
        return (_round_float(result, op.result.type),)


@register_impls
class MemRefExtraFunctions(InterpreterFunctions):
    """`memref.alloca` (C++ locals and arrays) and bounds-checked loads and stores."""

    @impl(memref.AllocaOp)
    def run_alloca(self, interpreter: Interpreter, op: memref.AllocaOp, args: PythonValues) -> PythonValues:
        return (_new_array(interpreter, op.memref.type, args),)

    @impl(memref.AllocOp)
    def run_alloc(self, interpreter: Interpreter, op: memref.AllocOp, args: PythonValues) -> PythonValues:
        return (_new_array(interpreter, op.memref.type, args),)

    @impl(memref.LoadOp)
    def run_load(self, interpreter: Interpreter, op: memref.LoadOp, args: PythonValues) -> PythonValues:
        array, *indices = args
        array = cast(ShapedArray[Any], array)
        _checked_offset(array, tuple(indices), op.memref.type)
        return (array.load(tuple(indices)),)

    @impl(memref.StoreOp)
    def run_store(self, interpreter: Interpreter, op: memref.StoreOp, args: PythonValues) -> PythonValues:
        value, array, *indices = args
        array = cast(ShapedArray[Any], array)
        _checked_offset(array, tuple(indices), op.memref.type)
        array.store(tuple(indices), value)
        return ()


def _new_array(interpreter: Interpreter, typ: Attribute, dynamic_sizes: PythonValues) -> ShapedArray[Any]:
    assert isinstance(typ, MemRefType)
    sizes = iter(int(s) for s in dynamic_sizes)
    shape = [next(sizes) if dim == builtin.DYNAMIC_INDEX else dim for dim in typ.get_shape()]
    if any(dim < 0 for dim in shape):
        raise HostEvalError(f"negative array size {shape}")
    xtype = xtype_for_el_type(typ.get_element_type(), interpreter.index_bitwidth)
    # zero-filled: C++ locals the lowering reads before writing are flagged by the verifier, not here
    return ShapedArray(TypedPtr[Any].zeros(prod(shape), xtype=xtype), shape)


# ----------------------------------------------------------------------------------------------------
# Running a tiling function
# ----------------------------------------------------------------------------------------------------


@dataclass
class _StepCounter(Interpreter.Listener):
    """Counts interpreted ops, remembers the innermost one running, and stops at the budget."""

    budget: int
    steps: int = 0
    current: Operation | None = None
    # the cell the function's result is returned from, and the last store into it (the `return` that ran)
    result_cell: SSAValue | None = None
    last_result_store: Operation | None = None

    def will_interpret_op(self, op: Operation, args: PythonValues) -> None:
        self.steps += 1
        self.current = op
        if self.result_cell is not None and isinstance(op, memref.StoreOp) and op.memref is self.result_cell:
            self.last_result_store = op
        if self.steps > self.budget:
            raise StepBudgetExhausted()


def _where(op: Operation | None) -> str:
    if op is None:
        return ""
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return f" (in {op.name} at {loc.filename.data}:{loc.line.data}:{loc.column.data})"
    return f" (in {op.name})"


def _make_interpreter(module: ModuleOp, counter: _StepCounter) -> Interpreter:
    interpreter = Interpreter(module, listeners=(counter,))
    stock: tuple[InterpreterFunctions, ...] = (
        ArithFunctions(),
        ScfFunctions(),
        MemRefFunctions(),
        FuncFunctions(),
        CfFunctions(),
        MathFunctions(),
        BuiltinFunctions(),
        HostFunctions(),
    )
    for table in stock:
        interpreter.register_implementations(table)
    # ours replace the stock division (bare asserts) and memref (no alloca, no bounds checks) entries
    extras: tuple[InterpreterFunctions, ...] = (
        ArithExtraFunctions(),
        MathExtraFunctions(),
        MemRefExtraFunctions(),
    )
    for table in extras:
        interpreter.register_implementations(table, override=True)
    return interpreter


def evaluate_tiling(
    module: ModuleOp, func_name: str, inputs: TilingInputs, *, step_budget: int = 1_000_000
) -> TilingResult:
    """Run the tiling function `func_name` of `module` on `inputs`; errors become diagnostics."""
    chip, diagnostics = resolve_chip(inputs.chip)
    state = TilingContextState(inputs=inputs, chip=chip, func_name=func_name)
    status: int | None = None
    failure_op: Operation | None = None
    missing = False

    target = SymbolTable.lookup_symbol(module, func_name)
    if not isinstance(target, func.FuncOp):
        diagnostics.append(f"no function named {func_name} in the module")
        return _result(state, status, diagnostics)
    arg_types = target.function_type.inputs.data
    if len(arg_types) != 1 or not isinstance(arg_types[0], TilingContextType):
        shown = ", ".join(str(t) for t in arg_types)
        diagnostics.append(f"{func_name} must take one !host.tiling_context, it takes ({shown})")
        return _result(state, status, diagnostics)

    counter = _StepCounter(budget=step_budget, result_cell=_result_cell(target))
    interpreter = _make_interpreter(module, counter)
    interpreter.set_data(HostFunctions, _STATE_KEY, state)
    try:
        returned = interpreter.call_op(target, (state,))
    except StepBudgetExhausted:
        failure_op = counter.current
        diagnostics.append(
            f"interpreter step budget exhausted after {step_budget} ops{_where(counter.current)}; "
            "does a loop never end?"
        )
    except MissingInputError as error:
        missing = True
        failure_op = counter.current
        diagnostics.append(f"{error}{_where(counter.current)}")
    except HostEvalError as error:
        failure_op = counter.current
        diagnostics.append(f"{error}{_where(counter.current)}")
    except RecursionError:
        failure_op = counter.current
        diagnostics.append(f"{func_name} recursed too deeply{_where(counter.current)}")
    except Exception as error:  # noqa: BLE001 - evaluation must not raise, whatever an op implementation does
        failure_op = counter.current
        diagnostics.append(
            f"cannot evaluate {func_name}: {type(error).__name__}: {error}{_where(counter.current)}"
        )
    else:
        status = _status(returned, target)
        if status == GRAPH_FAILED:
            failure_op = counter.last_result_store or counter.current  # the return that gave up
            diagnostics.append(f"{func_name} returned ge::GRAPH_FAILED")
        elif status is not None and status != GRAPH_SUCCESS:
            failure_op = counter.last_result_store or counter.current
            diagnostics.append(f"{func_name} returned failure status {status}")
        elif state.block_dim is None:
            diagnostics.append(f"{func_name} succeeded without calling SetBlockDim")
    result = _result(state, status, diagnostics)
    result.failure_op = failure_op
    result.missing_inputs = missing
    return result


def _result_cell(target: func.FuncOp) -> SSAValue | None:
    """The memref cell the function's value is returned from (`return` statements store into it)."""
    last = target.body.blocks.last.last_op if target.body.blocks else None
    if isinstance(last, func.ReturnOp) and last.operands:
        loaded = last.operands[0].owner
        if isinstance(loaded, memref.LoadOp):
            return loaded.memref
    return None


def _status(returned: PythonValues, target: func.FuncOp) -> int | None:
    if not returned:
        return None
    value = returned[0]
    out_type = target.function_type.outputs.data[0]
    if isinstance(out_type, IntegerType):
        # graphStatus is a uint32_t: report GRAPH_FAILED as 0xFFFFFFFF, not -1
        return to_unsigned(int(value), min(out_type.width.data, 32))
    return int(value)


def _result(state: TilingContextState, status: int | None, diagnostics: list[str]) -> TilingResult:
    diagnostics.extend(state.notes)
    for data in state.locals:
        if data.fields and not data.saved:
            diagnostics.append(
                f"tiling struct {data.struct_name} was filled but never saved to the context (missing SaveToBuffer)"
            )
    if state.block_dim is not None and not 1 <= state.block_dim <= 65535:
        diagnostics.append(f"block dim {state.block_dim} is outside [1, 65535]")
    buffer = state.buffer
    return TilingResult(
        status=status,
        block_dim=state.block_dim,
        tiling_key=state.tiling_key,
        workspace=dict(state.workspace),
        fields=_copy_fields(buffer.fields) if buffer is not None else {},
        diagnostics=diagnostics,
        struct_name=buffer.struct_name if buffer is not None else None,
    )
