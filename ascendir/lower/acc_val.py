"""`GetAccVal<T>()` / `GetReduceRepeatSumSpr<T>()`: the SPR.ACC_VAL register read as T.

asc-devkit declares both forms (include/basic_api/kernel_operator_vec_reduce_intf.h): the plain one returns the
register as an int64_t (`get_acc_val()`), the template one its bits as T (GetAccValImpl<T>: the int64_t's first
sizeof(T) bytes, its low bits on this little-endian core). ops-nn add_layer_norm and deep_norm read the sum of a
ReduceSum in accumulate mode with `GetAccVal<float>()`. The simulator models the register once (the catalog's
plain overload, rust_sim/src/vector/vcadd.rs); the template form is that read, narrowed and reinterpreted here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import arith

from ascendir.lower import ctypes as C
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

NAMES = frozenset({"GetAccVal", "GetReduceRepeatSumSpr"})


def typed_read(lw: FunctionLowerer, e: A.Call, name: str, targs: list[A.TemplateArg] | None) -> Val | None:
    """The template form's value, or None where the call is not one (the catalog's overloads take it)."""
    if name not in NAMES or not targs or len(targs) != 1 or e.args or not lw.catalog.has_api("GetAccVal"):
        return None
    want = lw._template_arg_value(targs[0])
    if not isinstance(want, C.Scalar) or want.bits > 64:
        return None  # a template parameter out of reach: the catalog's resolution reports it
    from ascendir.lower.calls_api import api_call

    raw = api_call(lw, e, "GetAccVal", None, None, None, None)  # the register as an int64_t
    if raw.ssa is None or raw.ctype == want:
        return raw
    value = raw.ssa
    if want.bits < 64:
        value = lw.emit(arith.TruncIOp(value, C.scalar_ir_type(C.Scalar(f"uint{want.bits}_t"))), e).results[0]
    if want.is_float:
        value = lw.emit(arith.BitcastOp(value, C.scalar_ir_type(want)), e).results[0]
    return Val(want, value)
