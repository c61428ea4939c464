"""`tensor->GetData<T>()` on a host tiling function's input tensor (`context->GetInputTensor(i)`).

The values are the input's data, which the framework hands the host for value-depend inputs (a shape or index
list passed as a tensor). Lowered to `host.input_values`, a list of ints that `ptr[i]` reads with
`host.list_get` as for a list-of-int attribute's `GetData()`; the evaluator takes them from the TensorSpec
(ascendir/host_tensor_values.py). Only integer element types are modelled: float data has not been seen read on
a host.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascendir.dialects import host as hd
from ascendir.lower.ctypes import Scalar
from ascendir.lower.function import Unsupported
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer


def tensor_data(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    from ascendir.lower.host import HostT, TensorRef

    ref = recv.obj
    if not isinstance(ref, TensorRef) or ref.output:
        raise Unsupported("GetData of a tensor other than an input", e)
    targs = callee.template_args or []
    t = lw._template_arg_value(targs[0]) if targs else None
    if not isinstance(t, Scalar) or t.is_float or t.kind == "bool":
        raise Unsupported(f"GetData<{t}> of an input tensor is modelled for integer element types only", e)
    values = lw.emit(hd.InputValuesOp(lw._context(e), ref.index, at=ref.at), e).results[0]
    return Val(HostT("list_data"), values)
