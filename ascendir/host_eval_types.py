"""The host evaluator's inputs, results and state: the tensors, attributes and chip a run is given, what it
returns (TilingResult, InferShapeResult), the errors that end a run, and the context's state while it runs
(the tiling struct, block dim, workspaces, shape buffers).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from xdsl.ir import Operation

from ascendir.dialects.host import GE_DATA_TYPES, GRAPH_SUCCESS, MAX_DIM_NUM, NUMPY_TO_GE
from ascendir.host_eval_chips import ChipNumbers


AttrValue = int | float | bool | str | list[int]
FieldValue = int | float | list[int | float]


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
    # the statements the host lowering left out that the run reached (host.left_out `at`s)
    left_out_reached: set[str] = field(default_factory=set)
    # the bytes of UB the kernel takes as SIMT local memory (TilingContext::SetLocalMemorySize; 0: none)
    local_memory_size: int = 0
    # TilingContext::SetNeedAtomic(true): the runtime initialises the outputs before the launch (see
    # host.SetNeedAtomicOp), so a launch starts them as zeros that count as written (passes/sim/launch_buffers.py)
    need_atomic: bool = False

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
    need_atomic: bool = False  # SetNeedAtomic's flag (False when not called)
    local_memory_size: int = 0  # SetLocalMemorySize's (SIMT dynamic UB) bytes; 0 when not set, as the framework's
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
