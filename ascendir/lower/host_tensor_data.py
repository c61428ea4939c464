"""`tensor->GetData<T>()` on a host tiling function's input tensor (`context->GetInputTensor(i)`).

The values are the input's data, which the framework hands the host for value-depend inputs (a shape or index
list passed as a tensor). Lowered to `host.input_values`, a list of ints that `ptr[i]` reads with
`host.list_get` as for a list-of-int attribute's `GetData()`; the evaluator takes them from the TensorSpec
(ascendir/host_tensor_values.py). A floating-point T (ops-math LinSpace reads its start and stop this way) gives
the values' bit patterns (host.input_values' float_bits), and `ptr[i]` bitcasts the element back to T; the handle's
type says which T (HostT detail `const float*`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import arith

from ascendir.dialects import host as hd
from ascendir.lower import ctypes as C
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
    if isinstance(t, Scalar) and t.is_float and t.name in _FLOAT_NAMES:
        values = lw.emit(hd.InputValuesOp(lw._context(e), ref.index, at=ref.at, float_bits=t.bits), e).results[0]
        return Val(HostT("list_data", f"const {t.name}*"), values)
    if not isinstance(t, Scalar) or t.is_float or t.kind == "bool":
        raise Unsupported(f"GetData<{t}> of an input tensor is modelled for integer and float element types only", e)
    values = lw.emit(hd.InputValuesOp(lw._context(e), ref.index, at=ref.at), e).results[0]
    return Val(HostT("list_data"), values)


_FLOAT_NAMES = ("half", "bfloat16_t", "float", "double")


def element(lw: HostLowerer, base: Val, pos: Val, e: A.Node) -> Val:
    """`ptr[i]` of a `GetData<T>()` handle (or of a list attribute's data): an int64 element, or the element's
    bits as T where the handle is a floating-point T's."""
    read = lw.emit(hd.ListGetOp(lw.ssa(base, e), lw.ssa(lw.convert(pos, C.I64, e), e)), e).results[0]
    detail = getattr(base.ctype, "detail", "")
    name = detail[len("const "):-1] if detail.startswith("const ") and detail.endswith("*") else ""
    if name not in _FLOAT_NAMES:
        return Val(C.I64, read)
    t = C.Scalar(name)
    if t.bits < 64:
        read = lw.emit(arith.TruncIOp(read, C.scalar_ir_type(C.Scalar(f"uint{t.bits}_t"))), e).results[0]
    return Val(t, lw.emit(arith.BitcastOp(read, C.scalar_ir_type(t)), e).results[0])
