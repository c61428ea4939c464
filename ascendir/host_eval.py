"""Evaluate a lowered host tiling function for concrete shapes, dtypes, attributes and a chip.

The tiling function is a `func.func` taking one `!host.tiling_context` and returning the graphStatus
(see `ascendir.dialects.host`). `evaluate_tiling` runs it with xDSL's interpreter: the stock function
tables for arith, scf, memref, func, cf and math, the `host` dialect's table below, and a few arith /
memref / math implementations xDSL 0.74 lacks (unsigned division, min/max, casts, `memref.alloca`, ...).
`evaluate_infer_shape` runs an InferShape function (one `!host.infer_shape_context`) the same way and
reports the output shapes it wrote.

Nothing here raises on bad input: a failing op, a loop that never ends (guarded by a step budget) or an
input the function reads but was not given all end the run with a diagnostic in the `TilingResult`
(or `InferShapeResult`).
"""

from __future__ import annotations

import dataclasses
import math
import struct
from collections.abc import Mapping
from dataclasses import dataclass, field
from math import prod
from typing import Any, cast

from xdsl.dialects import arith, builtin, func, memref, scf
from xdsl.dialects import math as xmath
from xdsl.dialects.builtin import (
    BFloat16Type,
    FileLineColLoc,
    Float16Type,
    Float32Type,
    IndexType,
    IntegerAttr,
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
    MAX_DIM_NUM,
    NUMPY_TO_GE,
    CoreKind,
    InferShapeContextType,
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
    # the flat element values, for a host that reads the tensor's data (ascendir/host_tensor_values.py)
    values: tuple[int | float, ...] | None = None


@dataclass
class TilingInputs:
    """What the tiling function sees: tensors (None for an absent optional one), attributes, the chip.

    `chip` is a chip name, or a dict of overrides (`{"name": "910B2", "aiv_cores": 8}`) over one.
    """

    inputs: list[TensorSpec | None]
    outputs: list[TensorSpec | None] = field(default_factory=list)
    attrs: list[AttrValue | None] = field(default_factory=list)
    chip: str | Mapping[str, int | str] = "910B2"
    # per input of the op definition, how many of `inputs` are its: a dynamic (tensor-list) input has one per
    # tensor of its list, in order; None: one each
    instances: list[int] | None = None

    def dynamic_index(self, ir_index: int, instance: int) -> int | None:
        """The position in `inputs` of tensor `instance` of op input `ir_index`; None when it has no such tensor."""
        counts = self.instances if self.instances is not None else [1] * len(self.inputs)
        if ir_index >= len(counts) or not 0 <= instance < counts[ir_index]:
            return None
        return sum(counts[:ir_index]) + instance


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
    # the statements the host lowering left out (its ASC103 warnings, frontend Diagnostics): values computed
    # after one of them may differ from the device's, so they are not trusted (passes.verify.run_tiling)
    gaps: list[Any] = field(default_factory=list)

    @property
    def succeeded(self) -> bool:
        return self.status == GRAPH_SUCCESS and self.failure_op is None


@dataclass
class InferShapeResult:
    """What one run of an InferShape function produced."""

    status: int | None  # the graphStatus returned; None when the function could not be run
    # the shape of each output index up to the last one the function wrote; None for one it did not set
    outputs: list[tuple[int, ...] | None]
    diagnostics: list[str]
    # False when the lowering left parts of the function out (not modelled): a failure may be ours
    complete: bool = True
    # the op evaluation stopped at when the function failed (raised, or returned a failure status)
    failure_op: Operation | None = None
    # the function stopped at an input or attribute that was not given
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
    # what PlatformAscendC::GetSocVersion() reports (the 910B1-4 and the 910_93 all say ASCEND910B)
    soc: str = "ASCEND910B"


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


# platform_ascendc::SocVersion by __NPU_ARCH__ (include/utils/tiling/platform/platform_ascendc.h)
_SOC_BY_ARCH = {
    2201: "ASCEND910B", 2002: "ASCEND310P", 1001: "ASCEND910", 3002: "ASCEND310B", 3510: "ASCEND950",
}  # fmt: skip


def _from_chip_object(name: str, obj: object, fallback: ChipNumbers) -> ChipNumbers:
    values: dict[str, Any] = {}
    arch = getattr(obj, "npu_arch", None)
    if isinstance(arch, int) and arch in _SOC_BY_ARCH:
        values["soc"] = _SOC_BY_ARCH[arch]
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
    # GetTiling calls that returned -1, with why, in the order they ran
    matmul_failures: list[tuple[Operation, str]] = field(default_factory=list)
    # what the run relied on without modelling it (a GetTiling taken as succeeding): the result is incomplete
    unmodelled: list[str] = field(default_factory=list)

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


@dataclass
class ShapeBuffer:
    """The value of a `!host.shape_buffer`: a gert::Shape object as the struct holds it, a fixed array of
    dims and a rank, so that `SetDimNum` after a copy sees the dims the array still has."""

    dims: list[int] = field(default_factory=lambda: [0] * MAX_DIM_NUM)
    rank: int = 0
    written: bool = False  # anything wrote it: an output never written is reported as not set

    def value(self) -> tuple[int, ...]:
        return tuple(self.dims[: self.rank])


@dataclass
class InferShapeContextState(TilingContextState):
    """The value of a `!host.infer_shape_context`: the inputs, and the output shapes being written."""

    output_shapes: dict[int, ShapeBuffer] = field(default_factory=dict)


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


_FLOAT_FORMATS = {16: "e", 32: "f", 64: "d"}


def _bits_to_bytes(value: Any, typ: Attribute) -> bytes:
    if isinstance(typ, IntegerType):
        width = typ.width.data
        return (int(value) & ((1 << width) - 1)).to_bytes(max(1, width // 8), "little")
    width = getattr(typ, "bitwidth", None)
    if width not in _FLOAT_FORMATS:
        raise HostEvalError(f"bitcast of a {typ} value is not modelled")
    return struct.pack("<" + _FLOAT_FORMATS[width], float(value))


def _bytes_to_value(raw: bytes, typ: Attribute) -> Any:
    if isinstance(typ, IntegerType):
        return to_signed(int.from_bytes(raw, "little"), typ.width.data)
    width = getattr(typ, "bitwidth", None)
    if width not in _FLOAT_FORMATS:
        raise HostEvalError(f"bitcast to {typ} is not modelled")
    return struct.unpack("<" + _FLOAT_FORMATS[width], raw)[0]


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
        spec = cast(TilingContextState, args[0]).tensor(_query_index(op, args, "input"), output=False)
        return (_shape_of(spec, op.kind.data),)

    @impl(host.OutputShapeOp)
    def run_output_shape(
        self, interpreter: Interpreter, op: host.OutputShapeOp, args: PythonValues
    ) -> PythonValues:
        spec = cast(TilingContextState, args[0]).tensor(_query_index(op, args, "output"), output=True)
        return (_shape_of(spec, op.kind.data),)

    @impl(host.DynamicInputIndexOp)
    def run_dynamic_input_index(
        self, interpreter: Interpreter, op: host.DynamicInputIndexOp, args: PythonValues
    ) -> PythonValues:
        state = cast(TilingContextState, args[0])
        ir_index = to_signed(int(args[1]), 64)
        if ir_index < 0:
            raise HostEvalError(f"GetDynamicInputTensor({ir_index}, ...): the input index is negative")
        found = state.inputs.dynamic_index(ir_index, to_signed(int(args[2]), 64))
        return (len(state.inputs.inputs) + (1 << 32) if found is None else found,)

    @impl(host.InputCountOp)
    def run_input_count(
        self, interpreter: Interpreter, op: host.InputCountOp, args: PythonValues
    ) -> PythonValues:
        return (sum(1 for t in cast(TilingContextState, args[0]).inputs.inputs if t is not None),)

    @impl(host.HasInputOp)
    def run_has_input(
        self, interpreter: Interpreter, op: host.HasInputOp, args: PythonValues
    ) -> PythonValues:
        state = cast(TilingContextState, args[0])
        index = _query_index(op, args, "input")
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
        spec = cast(TilingContextState, args[0]).tensor(_query_index(op, args, "input"), output=False)
        return (ge_dtype(spec.dtype),)

    @impl(host.OutputDtypeOp)
    def run_output_dtype(
        self, interpreter: Interpreter, op: host.OutputDtypeOp, args: PythonValues
    ) -> PythonValues:
        spec = cast(TilingContextState, args[0]).tensor(_query_index(op, args, "output"), output=True)
        return (ge_dtype(spec.dtype),)

    @impl(host.DtypeSizeOp)
    def run_dtype_size(
        self, interpreter: Interpreter, op: host.DtypeSizeOp, args: PythonValues
    ) -> PythonValues:
        dtype = cast(int, args[0])
        if dtype not in GE_DATA_TYPE_SIZES:
            raise HostEvalError(f"GetSizeByDataType of unknown ge::DataType {dtype}")
        return (GE_DATA_TYPE_SIZES[dtype],)

    @impl(host.OutputShapeBufferOp)
    def run_output_shape_buffer(
        self, interpreter: Interpreter, op: host.OutputShapeBufferOp, args: PythonValues
    ) -> PythonValues:
        state = cast(InferShapeContextState, args[0])
        return (state.output_shapes.setdefault(_query_index(op, args, "output"), ShapeBuffer()),)

    @impl(host.ShapeLocalOp)
    def run_shape_local(
        self, interpreter: Interpreter, op: host.ShapeLocalOp, args: PythonValues
    ) -> PythonValues:
        return (ShapeBuffer(),)

    @impl(host.ShapeReadOp)
    def run_shape_read(
        self, interpreter: Interpreter, op: host.ShapeReadOp, args: PythonValues
    ) -> PythonValues:
        return (cast(ShapeBuffer, args[0]).value(),)

    @impl(host.ShapeEqOp)
    def run_shape_eq(self, interpreter: Interpreter, op: host.ShapeEqOp, args: PythonValues) -> PythonValues:
        return (int(tuple(args[0]) == tuple(args[1])),)

    @impl(host.MakeShapeOp)
    def run_make_shape(
        self, interpreter: Interpreter, op: host.MakeShapeOp, args: PythonValues
    ) -> PythonValues:
        if len(args) > MAX_DIM_NUM:
            # gert::Shape's initializer-list constructor then leaves the shape empty
            raise HostEvalError(f"a gert::Shape of {len(args)} dims; it holds at most {MAX_DIM_NUM}")
        return (tuple(to_signed(int(v), 64) for v in args),)

    @impl(host.ShapeAssignOp)
    def run_shape_assign(
        self, interpreter: Interpreter, op: host.ShapeAssignOp, args: PythonValues
    ) -> PythonValues:
        buffer, value = cast(ShapeBuffer, args[0]), cast(tuple[int, ...], args[1])
        buffer.dims[: len(value)] = value
        buffer.rank = len(value)
        buffer.written = True
        return ()

    @impl(host.ShapeSetDimNumOp)
    def run_shape_set_dim_num(
        self, interpreter: Interpreter, op: host.ShapeSetDimNumOp, args: PythonValues
    ) -> PythonValues:
        buffer, rank = cast(ShapeBuffer, args[0]), to_unsigned(int(args[1]), 64)  # size_t
        if rank > MAX_DIM_NUM:
            raise HostEvalError(f"SetDimNum({rank}): a gert::Shape holds at most {MAX_DIM_NUM} dims")
        buffer.rank = rank
        buffer.written = True
        return ()

    @impl(host.ShapeSetDimOp)
    def run_shape_set_dim(
        self, interpreter: Interpreter, op: host.ShapeSetDimOp, args: PythonValues
    ) -> PythonValues:
        buffer, dim = cast(ShapeBuffer, args[0]), to_unsigned(int(args[1]), 64)  # size_t
        if dim >= buffer.rank:
            # gert's SetDim writes the array and raises the rank to `dim`, not `dim + 1`: the dim written
            # stays outside the shape. A missing SetDimNum / AppendDim, either way.
            raise HostEvalError(f"SetDim({dim}) on a shape of rank {buffer.rank} {list(buffer.value())}; "
                                "SetDimNum first (or AppendDim)")
        buffer.dims[dim] = to_signed(int(args[2]), 64)
        buffer.written = True
        return ()

    @impl(host.ShapeAppendDimOp)
    def run_shape_append_dim(
        self, interpreter: Interpreter, op: host.ShapeAppendDimOp, args: PythonValues
    ) -> PythonValues:
        buffer = cast(ShapeBuffer, args[0])
        if buffer.rank >= MAX_DIM_NUM:
            raise HostEvalError(
                f"AppendDim on a shape of {buffer.rank} dims does nothing (at most {MAX_DIM_NUM})"
            )
        buffer.dims[buffer.rank] = to_signed(int(args[1]), 64)
        buffer.rank += 1
        buffer.written = True
        return ()

    @impl(host.AttrOp)
    def run_attr(self, interpreter: Interpreter, op: host.AttrOp, args: PythonValues) -> PythonValues:
        state = cast(TilingContextState, args[0])
        index = op.index.value.data
        value = _attr_as(state.attr(index), op.kind)
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

    @impl(host.SocVersionOp)
    def run_soc_version(
        self, interpreter: Interpreter, op: host.SocVersionOp, args: PythonValues
    ) -> PythonValues:
        return (host.SOC_VERSIONS.get(cast(ChipNumbers, args[0]).soc, host.SOC_VERSIONS["ASCEND910B"]),)

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


def _query_index(op: Operation, args: PythonValues, what: str) -> int:
    """The tensor index of a query: its `index` property plus its `at` operand's value (a loop variable) when
    it has one (args holds the context, then `at`)."""
    index = cast(IntegerAttr, op.properties["index"]).value.data
    if len(args) > 1:
        index += to_signed(int(args[1]), 64)
    if index < 0:
        raise HostEvalError(f"the {what} index is {index}; the context has no {what} there")
    return index


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
# Matmul API host tiling objects (matmul_tiling::MultiCoreMatmulTiling, MatmulApiTiling)
# ----------------------------------------------------------------------------------------------------
#
# The library (asc-devkit impl/adv_api/tiling/matmul) only records what the setters say. GetTiling
# first checks the configuration (MatmulApiTilingBase::CheckSetParam, then the base-size check at the
# start of MatmulTilingAlgorithm::Process) and then searches for a split. `MatmulTilingObject.failure`
# repeats those first checks, and one outcome of the search that follows from the shapes alone: a fixed
# base block larger than the matrix leaves the L0 split without a candidate. Whatever else GetTiling
# decides (its result where none of these rejects the configuration, the TCubeTiling it fills) is not
# modelled.

_UNSET = -1  # the library's "not set" for shapes, base sizes and buffer sizes
_C0 = 16  # rows or columns of one cube fractal
_C0_BYTES = 32
_ACC_BYTES = 4  # L0C accumulates in 32 bits, whatever C's type
_BIAS_COLUMNS = 16 * _C0  # the most columns one bias-table load covers
_BIAS_TABLE_BYTES = 1024  # ASCEND910B and ASCEND310B have a bias table; the others none
_BIAS_TABLE_SOCS = ("ASCEND910B", "ASCEND310B")
_TSCM = host.MATMUL_POSITIONS["TSCM"]
_INT32_MAX = 2**31 - 1
# An object built without a platform keeps the sizes compiled into the host library (910B).
_BUILT_IN_POOL = {"l1": 512 * 1024 - 256, "l0a": 64 * 1024, "l0b": 64 * 1024, "l0c": 128 * 1024,
                  "ub": 192 * 1024 - 256, "bt": _BIAS_TABLE_BYTES}  # fmt: skip
_MATMUL_DTYPE_NAMES = {value: name for name, value in reversed(host.MATMUL_DATA_TYPES.items())}


def _kib(size: int) -> str:
    return f"{size // 1024} KiB" if size % 1024 == 0 else f"{size} bytes"


def _c_rem(lhs: int, rhs: int) -> int:
    return lhs - _c_div(lhs, rhs) * rhs


def _exceeds(product: int, have: int, divisor: int = 1) -> bool:
    """`product / divisor > have` as the library computes it in int32. An overflowing product is not
    judged: every check only ever makes GetTiling fail, so leaving one out never predicts a failure the
    library does not have."""
    return product <= _INT32_MAX and product // divisor > have


def _blocks(size: int) -> int:
    """ceil(size / 16), the library's CeilDivision."""
    return -(-size // _C0)


def _divisor_count(n: int) -> int:
    return sum(1 for d in range(1, n + 1) if n % d == 0)


def _splits_well(blocks: int) -> bool:
    """Whether the library takes `blocks` blocks of 16 as a single-core extent as it is: up to 8 always;
    beyond, only when one of its divisors up to 64 has more than two divisors itself, and (above 128)
    the divisors up to 128 give more than four between them (MathUtil::CheckFactorNumSatisfy)."""
    if blocks <= 8:
        return True
    small = max((_divisor_count(f) for f in range(1, min(blocks, 64) + 1) if blocks % f == 0), default=0)
    if small <= 2:
        return False
    if blocks > 128:
        large = max((_divisor_count(f) for f in range(65, min(blocks, 128) + 1) if blocks % f == 0),
                    default=0)
        if small + large <= 4:
            return False
    return True


def _rounded_blocks(blocks: int) -> int:
    """The power of two past `blocks` the single-core split may round towards (MathUtil::MapShape with
    rounding up): counts under 16 stay, larger ones go to twice the power of two just below them,
    at most 2048."""
    if blocks < 16:
        return blocks
    power = 16
    while power < 1024 and not power < blocks <= 2 * power:
        power *= 2
    return 2 * power


def _single_core_blocks(blocks: int) -> int:
    """How many blocks of 16 along M or N GetTiling gives a core that takes the whole extent: `blocks`
    itself when it splits well, else the first count towards `_rounded_blocks` that does
    (MathUtil::FindBestSingleCore for one core)."""
    if _splits_well(blocks):
        return blocks
    target, current = _rounded_blocks(blocks), blocks
    while current != target:
        if _splits_well(current):
            return current
        current += 1 if current < target else -1
    return current


@dataclass
class MatmulMatrixType:
    """What `SetAType` / `SetBType` / `SetCType` / `SetBiasType` said (defaults: GM, ND, float)."""

    position: int = 0
    format: int = 0
    dtype: int = 0
    transposed: bool = False


@dataclass
class MatmulTilingObject:
    """The value of a `!host.matmul_tiling`: what the setters recorded, as the library keeps it."""

    multi_core: bool
    soc: str
    chip: str  # the chip named in messages
    pool: dict[str, int]  # l1, l0a, l0b, l0c, ub, bt: the bytes GetTiling may use
    limited: set[str] = field(default_factory=set)  # the sizes SetBufferSpace lowered
    block_dim: int = 1
    types: dict[host.MatmulMatrix, MatmulMatrixType] = field(
        default_factory=lambda: {m: MatmulMatrixType() for m in host.MatmulMatrix}
    )
    shape: list[int] = field(default_factory=lambda: [_UNSET] * 3)  # singleM, N, K
    org: list[int] = field(default_factory=lambda: [_UNSET] * 4)  # orgM, N, Ka, Kb
    single_core: list[int] = field(default_factory=lambda: [_UNSET] * 3)
    base: list[int] = field(default_factory=lambda: [_UNSET] * 3)  # baseM, N, K
    bias: bool = False
    configured: list[str] = field(default_factory=list)  # setters of the split search, not modelled
    unknown: list[str] = field(default_factory=list)  # why the recorded state may be wrong

    @classmethod
    def create(cls, chip: ChipNumbers | None, multi_core: bool) -> MatmulTilingObject:
        """A new object: on `chip`'s platform, or with the library's built-in sizes (chip None)."""
        if chip is None:
            return cls(multi_core, "ASCEND910B", "built-in 910B configuration", dict(_BUILT_IN_POOL))
        bias_table = _BIAS_TABLE_BYTES if chip.soc in _BIAS_TABLE_SOCS else 0
        pool = {"l1": chip.l1, "l0a": chip.l0a, "l0b": chip.l0b, "l0c": chip.l0c, "ub": chip.ub,
                "bt": bias_table}
        return cls(multi_core, chip.soc, chip.name, pool)

    def bits(self, matrix: host.MatmulMatrix) -> int | None:
        return host.MATMUL_DTYPE_BITS.get(self.types[matrix].dtype)

    # the setters ----------------------------------------------------------------------------------

    def set_shape(self, m: int, n: int, k: int) -> None:
        self.shape = [m, n, k]
        if all(v == _UNSET for v in self.org):
            self.org = [m, n, k, k]  # SetOrgShape not called (yet): the original sizes follow

    def set_single_core(self, m: int, n: int, k: int) -> None:
        self.single_core = [v if v > 0 else old for v, old in zip((m, n, k), self.single_core)]

    def set_fix_split(self, m: int, n: int, k: int) -> int:
        if 0 in (m, n, k):
            return -1
        for index, value in ((0, m), (1, n)):
            if value != _UNSET:
                if _c_rem(value, _C0) != 0:
                    return -1
                self.base[index] = value
        bits = self.bits(host.MatmulMatrix.A)
        if bits is None:
            self.unknown.append("SetFixSplit with an A type the library has no size for")
            return 0
        k0 = _C0_BYTES // bits * 8
        if k != _UNSET:
            if k0 == 0 or _c_rem(k, k0) != 0:
                return -1
            self.base[2] = k
        return 0

    def set_buffer_space(self, sizes: dict[str, int]) -> int:
        if any(size < _UNSET or size > self.pool[name] for name, size in sizes.items()):
            return -1
        for name, size in sizes.items():
            if size != _UNSET:
                self.pool[name] = size if name == "bt" else size - size % 32
                self.limited.add(name)
        return 0

    # GetTiling ------------------------------------------------------------------------------------

    def failure(self) -> tuple[str, str] | None:
        """Why GetTiling returns -1 for this configuration, as ("check" | "split", message); None where
        none of the modelled checks rejects it."""
        if self.unknown:
            return None
        bits_a, bits_b = self.bits(host.MatmulMatrix.A), self.bits(host.MatmulMatrix.B)
        if bits_a is None or bits_b is None:
            return None  # the library throws on these types
        if any(v < _UNSET for v in self.base):
            return None  # negative multiples of 16 pass SetFixSplit: leave such objects alone
        why = self._config_failure(bits_a, bits_b) or self._base_failure()
        if why is not None:
            return "check", why
        why = self._split_failure(bits_b)
        return ("split", why) if why is not None else None

    def _has(self, name: str, label: str) -> str:
        size = _kib(self.pool[name])
        if name in self.limited:
            return f"SetBufferSpace leaves {size} of {label}"
        return f"the {self.chip} has {size}"

    def _config_failure(self, bits_a: int, bits_b: int) -> str | None:
        """MatmulApiTilingBase::CheckSetParam: the bias position, the fixed base blocks against L0A, L0B
        and L0C, and zero sizes."""
        bias_type = self.types[host.MatmulMatrix.BIAS]
        if self.soc in ("ASCEND910", "ASCEND310P") and self.bias and bias_type.position == _TSCM:
            return f"the bias is in TPosition::TSCM, which the {self.chip} does not support"
        base_m, base_n, base_k = self.base
        name_a = _MATMUL_DTYPE_NAMES.get(self.types[host.MatmulMatrix.A].dtype, "?")
        name_b = _MATMUL_DTYPE_NAMES.get(self.types[host.MatmulMatrix.B].dtype, "?")
        if base_m != _UNSET and base_k != _UNSET and _exceeds(base_m * base_k * bits_a, self.pool["l0a"], 8):
            need = _kib(base_m * base_k * bits_a // 8)
            return (f"the fixed split baseM {base_m} x baseK {base_k} of {name_a} needs {need} of L0A, "
                    f"{self._has('l0a', 'L0A')}")
        if base_k != _UNSET and base_n != _UNSET and _exceeds(base_k * base_n * bits_b, self.pool["l0b"], 8):
            need = _kib(base_k * base_n * bits_b // 8)
            return (f"the fixed split baseK {base_k} x baseN {base_n} of {name_b} needs {need} of L0B, "
                    f"{self._has('l0b', 'L0B')}")
        if base_m != _UNSET and base_n != _UNSET and _exceeds(base_m * base_n * _ACC_BYTES, self.pool["l0c"]):
            need = _kib(base_m * base_n * _ACC_BYTES)
            return (f"the fixed split {base_m} x {base_n} needs {need} of L0C accumulators, "
                    f"{self._has('l0c', 'L0C')}")
        if 0 in self.shape:
            m, n, k = self.shape
            return f"SetShape({m}, {n}, {k}) has a zero size; M, N and K must not be 0"
        return None

    def _base_failure(self) -> str | None:
        """The base-size check GetTiling makes before searching (MatmulTilingAlgorithm::CheckBaseMN)."""
        base_m, base_n, _ = self.base
        if self.soc in _BIAS_TABLE_SOCS and self.bias and base_n > _BIAS_COLUMNS:
            return (f"with a bias, baseN {base_n} is more than the {_BIAS_COLUMNS} columns one load of the "
                    f"{self.chip} bias table takes")
        checks: list[tuple[str, int, str]] = []
        if base_m != _UNSET and base_n != _UNSET:
            checks.append(("l0c", base_m * base_n * _ACC_BYTES, f"the fixed split {base_m} x {base_n} needs"))
        elif base_m != _UNSET:
            checks.append(("l0c", base_m * _C0 * _ACC_BYTES, f"baseM {base_m} needs, for 16 columns,"))
        elif base_n != _UNSET:
            checks.append(("l0c", base_n * _C0 * _ACC_BYTES, f"baseN {base_n} needs, for 16 rows,"))
        if base_m != _UNSET:
            checks.append(("l0a", base_m * _C0_BYTES, f"baseM {base_m} needs, for one 32-byte slice of K,"))
        if base_n != _UNSET:
            checks.append(("l0b", base_n * _C0_BYTES, f"baseN {base_n} needs, for one 32-byte slice of K,"))
        for name, need, what in checks:
            if _exceeds(need, self.pool[name]):
                label = {"l0a": "L0A", "l0b": "L0B", "l0c": "L0C"}[name]
                kind = " accumulators" if name == "l0c" else ""
                return f"{what} {_kib(need)} of {label}{kind}, {self._has(name, label)}"
        return None

    def _split_failure(self, bits_b: int) -> str | None:
        """The L0 split search finds no candidate: a fixed baseM (baseN) spans more blocks of 16 than the
        M (N) one core works on. Only where that search runs as the library's defaults set it up."""
        if self.configured:
            return None  # SetMatmulConfigParams, SetMadType, SetSparse, ... steer this search
        if any(v != _UNSET for v in self.single_core):
            cores = 1
            sizes = [c if c != _UNSET else s for c, s in zip(self.single_core, self.shape)]
        else:
            cores = self.block_dim if self.multi_core else 1
            sizes = [s if s != _UNSET else o for s, o in zip(self.shape, self.org[:3])]
        m, n, k = sizes
        if min(m, n, k) <= 0 or cores < 1:
            return None
        if cores > 1:
            shape_set = self.shape[0] != _UNSET or self.shape[1] != _UNSET
            if self.soc in ("ASCEND910B", "ASCEND950", "ASCEND350") and not shape_set:
                return None  # the multi-core M/N split settles the tiling without this search
            if self.types[host.MatmulMatrix.B].position == _TSCM:
                return None  # GetTiling returns 1 there when the core split fails
        # One core gets the blocks of 16 along M (N), or a few more where the library rounds the count up
        # to one that splits well; of several cores, each gets no more than that.
        m_blocks, n_blocks = _blocks(m), _blocks(n)
        most_m = max(m_blocks, _single_core_blocks(m_blocks))
        most_n = max(n_blocks, _single_core_blocks(n_blocks))
        if bits_b in (4, 8):
            most_n += most_n % 2  # int8 / int4 B is split in pairs of blocks
        base_m, base_n, _ = self.base
        for axis, base, size, most in (("M", base_m, m, most_m), ("N", base_n, n, most_n)):
            if base == _UNSET or _blocks(base) <= most:
                continue
            which = "rows" if axis == "M" else "columns"
            return (f"the fixed base{axis} {base} spans {_blocks(base)} blocks of 16 {which}, more than the "
                    f"{most} that {axis} = {size} gives {'each core' if cores > 1 else 'one core'}")
        return None


@register_impls
class MatmulTilingFunctions(InterpreterFunctions):
    """Interpreter implementations of the `host.matmul_*` ops."""

    @impl(host.MatmulCreateOp)
    def run_create(
        self, interpreter: Interpreter, op: host.MatmulCreateOp, args: PythonValues
    ) -> PythonValues:
        chip = cast(ChipNumbers, args[0]) if args else None
        return (MatmulTilingObject.create(chip, op.multi_core is not None),)

    @impl(host.MatmulSetDimOp)
    def run_set_dim(
        self, interpreter: Interpreter, op: host.MatmulSetDimOp, args: PythonValues
    ) -> PythonValues:
        cast(MatmulTilingObject, args[0]).block_dim = to_signed(int(args[1]), 32)
        return ()

    @impl(host.MatmulSetTypeOp)
    def run_set_type(
        self, interpreter: Interpreter, op: host.MatmulSetTypeOp, args: PythonValues
    ) -> PythonValues:
        obj = cast(MatmulTilingObject, args[0])
        position, fmt, dtype = (to_signed(int(v), 32) for v in args[1:4])
        obj.types[op.matrix.data] = MatmulMatrixType(position, fmt, dtype, bool(args[4]))
        return ()

    @impl(host.MatmulSetShapeOp)
    def run_set_shape(
        self, interpreter: Interpreter, op: host.MatmulSetShapeOp, args: PythonValues
    ) -> PythonValues:
        obj = cast(MatmulTilingObject, args[0])
        values = [to_signed(int(v), 32) for v in args[1:]]
        kind = op.kind.data
        if kind == host.MatmulShapeKind.SHAPE:
            obj.set_shape(*values[:3])
        elif kind == host.MatmulShapeKind.ORG:
            obj.org = values + [values[2]] if len(values) == 3 else values
        else:
            obj.set_single_core(*values[:3])
        return ()

    @impl(host.MatmulSetFixSplitOp)
    def run_set_fix_split(
        self, interpreter: Interpreter, op: host.MatmulSetFixSplitOp, args: PythonValues
    ) -> PythonValues:
        obj = cast(MatmulTilingObject, args[0])
        return (obj.set_fix_split(*(to_signed(int(v), 32) for v in args[1:])),)

    @impl(host.MatmulSetBiasOp)
    def run_set_bias(
        self, interpreter: Interpreter, op: host.MatmulSetBiasOp, args: PythonValues
    ) -> PythonValues:
        cast(MatmulTilingObject, args[0]).bias = bool(args[1])
        return ()

    @impl(host.MatmulSetBufferSpaceOp)
    def run_set_buffer_space(
        self, interpreter: Interpreter, op: host.MatmulSetBufferSpaceOp, args: PythonValues
    ) -> PythonValues:
        obj = cast(MatmulTilingObject, args[0])
        sizes = dict(zip(("l1", "l0c", "ub", "bt"), (to_signed(int(v), 32) for v in args[1:])))
        return (obj.set_buffer_space(sizes),)

    @impl(host.MatmulConfigureOp)
    def run_configure(
        self, interpreter: Interpreter, op: host.MatmulConfigureOp, args: PythonValues
    ) -> PythonValues:
        cast(MatmulTilingObject, args[0]).configured.append(op.method.data)
        return ()

    @impl(host.MatmulUnknownOp)
    def run_unknown(
        self, interpreter: Interpreter, op: host.MatmulUnknownOp, args: PythonValues
    ) -> PythonValues:
        cast(MatmulTilingObject, args[0]).unknown.append(op.what.data)
        return ()

    @impl(host.MatmulGetTilingOp)
    def run_get_tiling(
        self, interpreter: Interpreter, op: host.MatmulGetTilingOp, args: PythonValues
    ) -> PythonValues:
        obj = cast(MatmulTilingObject, args[0])
        state = _context_state(interpreter)
        found = obj.failure()
        if found is None:
            _fill_cube_tiling(obj, args[1] if len(args) > 1 else None, op.path)
            # the library may still fail, and a success rewrites the object's base sizes
            obj.unknown.append("an earlier GetTiling")
            note = ("GetTiling is taken as succeeding, and the TCubeTiling it fills comes from a model of the "
                    "library's split (ascendir.matmul_tiling), not the library")
            if note not in state.unmodelled:
                state.unmodelled.append(note)
            return (0,)
        stage, why = found
        if stage == "split":
            obj.unknown.append("an earlier GetTiling")  # the search may have touched the object
        state.matmul_failures.append((op, why))
        return (-1,)


def _fill_cube_tiling(obj: MatmulTilingObject, data: object, path: StringAttr | None) -> None:
    """Writes the modelled TCubeTiling into the tiling struct field GetTiling was given."""
    from ascendir.matmul_tiling import cube_tiling

    if not isinstance(data, TilingStruct) or obj.unknown:
        return
    fields = cube_tiling(obj)
    if fields is None:
        return
    prefix = f"{path.data}." if path is not None and path.data else ""
    for name, value in fields.items():
        data.fields[prefix + name] = value


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

    @impl(arith.BitcastOp)
    def run_bitcast(self, interpreter: Interpreter, op: arith.BitcastOp, args: PythonValues) -> PythonValues:
        """A value's bits as another type of the same width (`*(uint32_t *)&f`, a union of float and int)."""
        src, dst = op.operands[0].type, op.result.type
        raw = _bits_to_bytes(args[0], src)
        return (_bytes_to_value(raw, dst),)

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
# Running a tiling or InferShape function
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
    from ascendir.host_node_info import NodeInfoFunctions
    from ascendir.host_tensor_values import InputValuesFunctions

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
        MatmulTilingFunctions(),
        InputValuesFunctions(),
        NodeInfoFunctions(),
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


@dataclass
class _Run:
    """How one interpreted call ended: returned values, or the op it stopped at and why."""

    counter: _StepCounter
    returned: PythonValues | None = None  # None: it did not return
    failure_op: Operation | None = None
    missing: bool = False


def _entry_problem(module: ModuleOp, func_name: str, context: type[Attribute]) -> str | None:
    """Why `func_name` cannot be run with a context of type `context`; None when it can."""
    target = SymbolTable.lookup_symbol(module, func_name)
    if not isinstance(target, func.FuncOp):
        return f"no function named {func_name} in the module"
    arg_types = target.function_type.inputs.data
    if len(arg_types) != 1 or not isinstance(arg_types[0], context):
        shown = ", ".join(str(t) for t in arg_types)
        return f"{func_name} must take one !{context.name}, it takes ({shown})"  # type: ignore[attr-defined]
    return None


def _interpret(
    module: ModuleOp, target: func.FuncOp, state: TilingContextState, step_budget: int, diagnostics: list[str]
) -> _Run:
    """Call `target` on `state`; whatever stops it becomes a diagnostic, never an exception."""
    func_name = state.func_name
    counter = _StepCounter(budget=step_budget, result_cell=_result_cell(target))
    run = _Run(counter)
    interpreter = _make_interpreter(module, counter)
    interpreter.set_data(HostFunctions, _STATE_KEY, state)
    try:
        run.returned = interpreter.call_op(target, (state,))
    except StepBudgetExhausted:
        run.failure_op = counter.current
        diagnostics.append(
            f"interpreter step budget exhausted after {step_budget} ops{_where(counter.current)}; "
            "does a loop never end?"
        )
    except MissingInputError as error:
        run.missing = True
        run.failure_op = counter.current
        diagnostics.append(f"{error}{_where(counter.current)}")
    except HostEvalError as error:
        run.failure_op = counter.current
        diagnostics.append(f"{error}{_where(counter.current)}")
    except RecursionError:
        run.failure_op = counter.current
        diagnostics.append(f"{func_name} recursed too deeply{_where(counter.current)}")
    except Exception as error:  # noqa: BLE001 - evaluation must not raise, whatever an op implementation does
        run.failure_op = counter.current
        diagnostics.append(
            f"cannot evaluate {func_name}: {type(error).__name__}: {error}{_where(counter.current)}"
        )
    return run


def evaluate_tiling(
    module: ModuleOp, func_name: str, inputs: TilingInputs, *, step_budget: int = 1_000_000
) -> TilingResult:
    """Run the tiling function `func_name` of `module` on `inputs`; errors become diagnostics."""
    chip, diagnostics = resolve_chip(inputs.chip)
    state = TilingContextState(inputs=inputs, chip=chip, func_name=func_name)
    status: int | None = None

    problem = _entry_problem(module, func_name, TilingContextType)
    if problem is not None:
        diagnostics.append(problem)
        return _result(state, status, diagnostics)
    target = cast(func.FuncOp, SymbolTable.lookup_symbol(module, func_name))

    run = _interpret(module, target, state, step_budget, diagnostics)
    counter, failure_op = run.counter, run.failure_op
    if run.returned is not None:
        status = _status(run.returned, target)
        if status == GRAPH_FAILED:
            failure_op = counter.last_result_store or counter.current  # the return that gave up
            cause = _matmul_cause(state, failure_op)
            if cause is not None:
                failure_op = cause[0]
                diagnostics.append(f"GetTiling returns -1: {cause[1]}")
            diagnostics.append(f"{func_name} returned ge::GRAPH_FAILED")
            if cause is not None:
                state.matmul_failures = [f for f in state.matmul_failures if f[0] is not cause[0]]
        elif status is not None and status != GRAPH_SUCCESS:
            failure_op = counter.last_result_store or counter.current
            diagnostics.append(f"{func_name} returned failure status {status}")
        elif state.block_dim is None:
            diagnostics.append(f"{func_name} succeeded without calling SetBlockDim")
    # a GetTiling that failed without deciding the outcome: its TCubeTiling is left as it was
    state.notes.extend(f"GetTiling returned -1 ({why}) and the function went on"
                       for _, why in state.matmul_failures)
    result = _result(state, status, diagnostics)
    result.failure_op = failure_op
    result.missing_inputs = run.missing
    result.complete = not state.unmodelled
    return result


def evaluate_infer_shape(
    module: ModuleOp, func_name: str, inputs: TilingInputs, *, step_budget: int = 200_000
) -> InferShapeResult:
    """Run the InferShape function `func_name` of `module` on `inputs` (their shapes are the origin
    shapes it reads; outputs and chip are not used); errors become diagnostics."""
    # an InferShape context has no platform: the chip is never read
    state = InferShapeContextState(inputs=inputs, chip=_FALLBACK_CHIPS[_DEFAULT_CHIP], func_name=func_name)
    diagnostics: list[str] = []
    problem = _entry_problem(module, func_name, InferShapeContextType)
    if problem is not None:
        return InferShapeResult(None, [], [problem])
    target = cast(func.FuncOp, SymbolTable.lookup_symbol(module, func_name))

    run = _interpret(module, target, state, step_budget, diagnostics)
    status: int | None = None
    failure_op = run.failure_op
    written = {i: b for i, b in state.output_shapes.items() if b.written}
    if run.returned is not None:
        status = _status(run.returned, target)
        if status is not None and status != GRAPH_SUCCESS:
            failure_op = run.counter.last_result_store or run.counter.current  # the return that gave up
            shown = "ge::GRAPH_FAILED" if status == GRAPH_FAILED else f"failure status {status}"
            diagnostics.append(f"{func_name} returned {shown}")
        elif not written:
            diagnostics.append(f"{func_name} succeeded without writing any output shape")
        else:
            # an output it asked for but left as it was has rank 0: a scalar, seldom what was meant
            diagnostics.extend(f"{func_name} succeeded without writing the shape of output {i}"
                               for i in sorted(state.output_shapes) if i not in written)
    diagnostics.extend(state.notes)
    diagnostics.extend(state.unmodelled)
    count = max(written, default=-1) + 1
    outputs = [written[i].value() if i in written else None for i in range(count)]
    return InferShapeResult(status, outputs, diagnostics, complete=not state.unmodelled,
                            failure_op=failure_op, missing_inputs=run.missing)


def _matmul_cause(state: TilingContextState, failing: Operation | None) -> tuple[Operation, str] | None:
    """The GetTiling that returned -1 and decided the failing `return`, if one did: the returned value or
    a condition of an `if` around the return depends on its result."""
    if failing is None:
        return None
    for get_tiling, why in reversed(state.matmul_failures):
        if _depends_on(failing, get_tiling):
            return get_tiling, why
    return None


def _depends_on(failing: Operation, source: Operation) -> bool:
    """Whether the store `failing` (a `return` into the result cell) depends on a result of `source`:
    through the value it stores or the conditions of the `scf.if`s around it, following values through
    the memref cells of C++ locals (every store into a cell the chain loads from)."""
    work: list[SSAValue] = list(failing.operands[:1]) if isinstance(failing, memref.StoreOp) else []
    parent = failing.parent_op()
    while parent is not None:
        if isinstance(parent, scf.IfOp):
            work.append(parent.cond)
        parent = parent.parent_op()
    seen: set[SSAValue] = set()
    cells: set[SSAValue] = set()
    while work:
        value = work.pop()
        if value in seen:
            continue
        seen.add(value)
        owner = value.owner
        if not isinstance(owner, Operation):
            continue  # a block argument: a loop-carried value, not followed
        if owner is source:
            return True
        if isinstance(owner, memref.LoadOp) and owner.memref not in cells:
            cells.add(owner.memref)
            work.extend(use.operation.operands[0] for use in owner.memref.uses
                        if isinstance(use.operation, memref.StoreOp) and use.index == 1)
        work.extend(owner.operands)
        for region in owner.regions:  # the values an scf.if yields
            work.extend(v for op in region.walk() if isinstance(op, scf.YieldOp) for v in op.operands)
    return False


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
    diagnostics.extend(state.unmodelled)
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


def _attr_as(value: Any, kind: str) -> Any:
    """An attribute's value as the op reads it with a getter of `kind`, where the framework's storage makes
    the two agree: the harness's 1/0 for a bool attribute (the binding converts it to the attribute's declared
    type), a bool read as an int, and an int read from a list attribute, which lands on the first word of the
    runtime's ContinuousVector (its capacity: the element count for an attribute made from a list)."""
    if kind == "bool" and isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
        return bool(value)
    if kind == "int" and isinstance(value, bool):
        return int(value)
    if kind == "int" and isinstance(value, list | tuple) and all(isinstance(v, int) for v in value):
        return len(value)
    return value
