"""Library-internal implementation functions that vendor kernels call directly, lowered as the public API
call they implement.

ops-transformer's MoE sorters copy an int64 tensor as int32 words with
`DataCopyPadGm2UBImpl((__ubuf__ int32_t *)dstLocal.GetPhyAddr(), (__gm__ int32_t *)srcGlobal.GetPhyAddr(),
dataCopyParams, padParams)`. In asc-devkit (impl/basic_api/dav_c220/kernel_operator_data_copy_impl.h, and
kernel_operator_data_copy_intf_impl.h, where DataCopyPad GM -> VECIN/VECOUT calls it with
`(__ubuf__ T *)dst.GetPhyAddr(), (__gm__ T *)src.GetPhyAddr()`) it is DataCopyPad's GM -> UB body: the same
two parameter flavours (DataCopyParams + DataCopyPadParams, DataCopyExtParams + DataCopyPadExtParams<T>), the
same byte-granular rows and paddings; it returns at once on an AIC core. So each pointer is read back to the
tensor it was taken from (vector_intrinsics.tensor_of_pointer) and the call lowers as DataCopyPad on them.
The tensors keep their own element type where the pointer casts name another (the MoE sorters' int32 view of
an int64 tensor): rows and strides count bytes, so without padding the copy is the same bytes. (With
padding, the paddings would count the tensor's elements, not the pointer's: not met so far.) A pointer of
another form keeps the call opaque, as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from frontend import ast as A

from . import ctypes as C
from .vector_intrinsics import tensor_of_pointer

if TYPE_CHECKING:
    from .function import FunctionLowerer
    from .values import Val

# implementation function -> (public API, tensor classes its pointer operands point into, in order, and how
# many arguments it takes)
_IMPL_CALLS = {
    "DataCopyPadGm2UBImpl": ("DataCopyPad", (C.LocalTensorT, C.GlobalTensorT), 4),
    # UB -> GM: (__gm__ T *dst, __ubuf__ T *src, DataCopyParams | DataCopyExtParams), DataCopyPad VECOUT -> GM's
    # body (the same headers), writing only the bytes asked for; moe_token_unpermute_with_routing_map calls it
    "DataCopyPadUB2GMImpl": ("DataCopyPad", (C.GlobalTensorT, C.LocalTensorT), 3),
}


def is_impl_call(name: str, args: int) -> bool:
    return name in _IMPL_CALLS and args == _IMPL_CALLS[name][2]


def lower_impl_call(lw: FunctionLowerer, e: A.Call, name: str, expected: object) -> Val | None:
    """The call as its public API on the tensors its pointers point to, or None when a pointer operand is not
    followed (the caller keeps it opaque)."""
    from .calls import api_call

    api, classes, _ = _IMPL_CALLS[name]
    args: list[A.Node] = []
    for a, cls in zip(e.args, classes):
        tensor = tensor_of_pointer(a)
        if tensor is None:
            return None
        base = lw.expr(tensor.base if isinstance(tensor, A.Index) else tensor)
        if not isinstance(base.ctype, cls):
            return None
        args.append(tensor)
    args.extend(e.args[len(classes):])
    return api_call(lw, A.Call(e.span, e.callee, args), api, None, None, None, expected)  # type: ignore[arg-type]
