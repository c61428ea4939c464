"""An input tensor's values in the host evaluation: `context->GetInputTensor(i)->GetData<T>()`.

Most host tiling functions see only shapes, dtypes and attributes. Some read an input tensor's data: a shape or
index list passed as a tensor (Fill's `dims`, StridedSliceAssign's `begin` / `end` / `strides`, TopK's `k`).
The framework hands the host those tensors' values (the op registers them as value-depend inputs), so the
evaluation needs them too: a `TensorSpec` carries them in `values` when the caller knows them, and
`host.input_values` reads them as a list of ints, indexed like a list-of-int attribute (`host.list_get`).

Callers that hold the arrays (the benchmark harness, `ascendir run`) use `known_values` to fill `values` for small
tensors; a host that reads the data of a tensor given without them stops with an error naming the input.
"""

from __future__ import annotations

from typing import Any, cast

from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls

from ascendir.dialects import host

# Value-depend inputs are short lists (a shape, a slice's bounds); a tensor above this is data, not carried
VALUES_LIMIT = 4096


def known_values(array: Any) -> tuple[int | float, ...] | None:
    """The flat element values of `array` (a numpy array) when it is small enough to be a value-depend input;
    None otherwise, or when it is not numeric."""
    import numpy as np

    arr = np.asarray(array)
    if arr.size > VALUES_LIMIT or arr.dtype.kind not in "biuf":
        return None
    flat = arr.reshape(-1)
    if arr.dtype.kind == "f":
        return tuple(float(v) for v in flat)
    return tuple(int(v) for v in flat)


@register_impls
class InputValuesFunctions(InterpreterFunctions):
    @impl(host.InputValuesOp)
    def run_input_values(self, interpreter: Interpreter, op: host.InputValuesOp, args: PythonValues
                         ) -> PythonValues:
        from ascendir.host_eval import HostEvalError, TilingContextState
        from ascendir.host_eval_context import query_index

        state = cast(TilingContextState, args[0])
        index = query_index(op, args, "input")
        spec = state.tensor(index, output=False)
        if spec.values is None:
            raise HostEvalError(
                f"{state.func_name} reads the data of input {index} (GetInputTensor({index})->GetData), whose "
                f"values were not given (only its shape {list(spec.shape)} and dtype {spec.dtype})")
        if op.float_bits is not None:
            return (_float_bits(state.func_name, index, spec.dtype, spec.values, op.float_bits.value.data),)
        if any(isinstance(v, float) and not float(v).is_integer() for v in spec.values):
            raise HostEvalError(f"{state.func_name} reads input {index}'s data as integers, but it holds "
                                f"{spec.dtype} values that are not whole numbers")
        return (tuple(int(v) for v in spec.values),)


_FLOAT_DTYPES = {"float16": 16, "bfloat16": 16, "float32": 32, "float64": 64}


def _float_bits(func_name: str, index: int, dtype: str, values: tuple[int | float, ...], bits: int) -> tuple[int, ...]:
    """`GetData<T>()` of a floating-point T: each element's bit pattern (unsigned), read from memory of the
    input's dtype; a T of another width than that dtype reads other bytes, which the evaluator does not model."""
    import numpy as np

    from ascendir.host_eval import HostEvalError

    if _FLOAT_DTYPES.get(dtype) != bits:
        raise HostEvalError(f"{func_name} reads input {index}'s data as a {bits}-bit floating-point type, but it "
                            f"holds {dtype} values")
    if dtype == "bfloat16":  # the high half of each float32
        wide = np.asarray(values, np.float32).view(np.uint32)
        return tuple(int(v) >> 16 for v in wide)
    unsigned = {16: np.uint16, 32: np.uint32, 64: np.uint64}[bits]
    return tuple(int(v) for v in np.asarray(values, dtype).view(unsigned))
