"""The tensors a caller hands a launch, made ready for it: their dtypes (numpy's names and ours, bfloat16 as uint16
bit patterns, int4 packed two a byte), the inputs in the op's order (tensor lists as lists), the outputs given as
arrays, TensorSpecs or (shape, dtype), and the dtypes a caller declares. passes/sim/launch.py runs the launch;
passes/sim/launch_buffers.py binds these arrays to the kernel's parameters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from passes.sim.tensor_list import is_tensor_list

ML_DTYPES = {"float16": np.float16, "float32": np.float32, "float64": np.float64, "int8": np.int8,
             "uint8": np.uint8, "int16": np.int16, "uint16": np.uint16, "int32": np.int32, "uint32": np.uint32,
             "int64": np.int64, "uint64": np.uint64, "bool": np.bool_}


# (here, not in launch.py, because checking the tensors raises it; launch.py and passes.sim export it)
class SimError(Exception):
    """The kernel cannot be simulated as given (no kernel, bad inputs); the message says why."""


def bfloat16_dtype() -> Any:
    """numpy has no bfloat16: arrays of it are passed as uint16 bit patterns."""
    return np.uint16


def numpy_dtype(name: str) -> Any:
    if name == "bfloat16":
        return bfloat16_dtype()
    if name == INT4:
        return np.uint8  # packed, two elements a byte (packed_int4_bytes)
    return ML_DTYPES.get(name, np.float32)


# int4b_t tensors: numpy has no 4-bit type (and np.dtype("int4") is a 4-byte int), so an int4 output is its
# packed bytes, two elements a byte with the even one in the low nibble (rust_sim/src/int4.rs), and its spec's
# shape counts the elements
INT4 = "int4"


def packed_int4_bytes(shape: Sequence[int]) -> int:
    """The bytes of an int4 tensor of `shape`: half its elements, rounded up."""
    return (int(np.prod(shape, dtype=np.int64)) + 1) // 2


def dtype_name(arr: np.ndarray) -> str:
    for name, t in ML_DTYPES.items():
        if arr.dtype == np.dtype(t):
            return name
    raise SimError(f"arrays of dtype {arr.dtype} cannot be passed to a kernel")


# the names of the op descriptions and of C++ for the dtypes the launch allocates (GE_DTYPES's spellings)
DTYPE_ALIASES = {"half": "float16", "fp16": "float16", "float": "float32", "fp32": "float32",
                 "double": "float64", "bf16": "bfloat16"}


def given_dtype_name(value: Any) -> str:
    """The launch's name of a dtype a caller gives as a name (any spelling of DTYPE_ALIASES), a numpy type or
    a numpy dtype; another value as str() gives it (launch_args.dtype_given rejects the unknown ones)."""
    if isinstance(value, str):
        return DTYPE_ALIASES.get(value.strip().lower(), value.strip().lower())
    try:
        return np.dtype(value).name
    except TypeError:
        return str(value)


def _dtype_of(value: Any) -> str | None:
    """The dtype name of an input or output given as an array, a TensorSpec or (shape, dtype)."""
    if isinstance(value, np.ndarray):
        return dtype_name(value)
    if isinstance(value, tuple) and len(value) == 2:
        return given_dtype_name(value[1])
    return getattr(value, "dtype", None) if not isinstance(value, (list, dict)) else None


def _spec_dtype(a: np.ndarray) -> str:
    return dtype_name(a)


def _declared_dtypes(dtypes: Sequence[str | None] | Mapping[str, str] | None, inputs: int) -> Any:
    """`declared(position, name)`: the dtype the caller gives for the tensor at `position` (inputs, then outputs)
    or of `name`, else None."""
    named = dict(dtypes) if isinstance(dtypes, Mapping) else {}
    listed = list(dtypes) if dtypes is not None and not isinstance(dtypes, Mapping) else []

    def declared(position: int, name: str | None) -> str | None:
        if name is not None and named.get(name):
            return named[name]
        return listed[position] if position < len(listed) else None

    return declared


def _host_values(value: Any) -> Any:
    """A small input's element values, for a host that reads the tensor's data (GetInputTensor(i)->GetData)."""
    from ascendir.host_tensor_values import known_values

    return known_values(value) if hasattr(value, "dtype") and hasattr(value, "reshape") else None


def _output_spec(value: Any, dtype: str | None) -> Any:
    from ascendir.host_eval import TensorSpec

    if value is None:
        return None
    if isinstance(value, TensorSpec):
        return TensorSpec(value.shape, dtype or value.dtype)
    return TensorSpec(tuple(value.shape), dtype or _spec_dtype(value))


def _ordered_inputs(inputs: Any, names: list[str]) -> list[Any]:
    """The inputs in the op's order: arrays, None for an absent optional input, lists of arrays for tensor
    lists (dynamic inputs)."""
    if isinstance(inputs, Mapping):
        if names and all(k in names for k in inputs):
            return [_input(inputs.get(n)) for n in names]
        return [_input(v) for v in inputs.values()]
    return [_input(v) for v in inputs]


def _input(v: Any) -> Any:
    if is_tensor_list(v):
        return [_array(t) for t in v]
    return _array(v)


def _items(value: Any) -> list[Any]:
    """The tensors of one input or output: a tensor list's items, else the value itself."""
    return list(value) if isinstance(value, list) else [value]


def _array(v: Any) -> np.ndarray | None:
    if v is None:
        return None
    arr = np.ascontiguousarray(v)
    return arr


def _given_outputs(outputs: Any, names: list[str]) -> dict[str, Any]:
    from ascendir.host_eval import TensorSpec

    if outputs is None:
        return {}
    items = outputs.items() if isinstance(outputs, Mapping) else zip(names or [f"out{i}" for i in range(len(outputs))],
                                                                     outputs)
    if isinstance(outputs, Mapping) and names and all(n in names for n in outputs):
        # by name: in the op's order, which the launch pairs them with (a caller's dict may list them otherwise)
        items = [(n, outputs[n]) for n in names if n in outputs]
    def one(name: str, value: Any) -> Any:
        if isinstance(value, np.ndarray | TensorSpec):
            return value
        if isinstance(value, tuple) and len(value) == 2:
            from passes.sim.launch_args import dtype_given  # (it imports this module's names)

            return TensorSpec(tuple(value[0]), dtype_given(value[1], f"output {name}"))
        raise SimError(f"output {name}: give an array, a TensorSpec or (shape, dtype), or a list of them")

    found: dict[str, Any] = {}
    for name, value in items:
        found[name] = [one(name, v) for v in value] if is_tensor_list(value) else one(name, value)
    return found
