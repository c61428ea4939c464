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
Where the pointer's cast names another element type than the tensor's (the MoE sorters' int32 view of an int64
tensor, ops-math diag_flat's `(__gm__ int16_t *)gmTensor.GetPhyAddr() + off` on a GlobalTensor<int32_t>), the
tensor is read as that type (`x.ReinterpretCast<P>()`): the pointer's offset counts P elements, and the call
works on P (its T), as the library's body does. A pointer of another form keeps the call opaque, as before.
The Matmul library's integer helpers that matmul kernels call directly (CeilDiv: "invoked by the matmulV3
operator", batch_matmul_utils.h) come through here too, computed as their headers define them
(matmul_library_math.py).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from frontend import ast as A

from . import ctypes as C, matmul_library_math
from .errors import Unsupported
from .vector_intrinsics import tensor_of_pointer

if TYPE_CHECKING:
    from .function import FunctionLowerer
    from .values import Val

# implementation function -> (public API, tensor classes its pointer operands point into, in order, and the
# argument counts it is called with)
_IMPL_CALLS = {
    "DataCopyPadGm2UBImpl": ("DataCopyPad", (C.LocalTensorT, C.GlobalTensorT), (4,)),
    # UB -> GM: (__gm__ T *dst, __ubuf__ T *src, DataCopyParams | DataCopyExtParams), DataCopyPad VECOUT -> GM's
    # body (the same headers), writing only the bytes asked for; moe_token_unpermute_with_routing_map calls it
    "DataCopyPadUB2GMImpl": ("DataCopyPad", (C.GlobalTensorT, C.LocalTensorT), (3,)),
    # DataCopy's block forms, (__ubuf__ T *dst, __gm__ T *src, DataCopyParams) and (__gm__ T *dst, __ubuf__ T
    # *src, DataCopyParams): the bodies of DataCopy GM -> VECIN and VECOUT -> GM with DataCopyParams
    # (dav_c220/kernel_operator_data_copy_impl.h); ops-math diag_flat zeroes its output with the UB -> GM one
    "DataCopyGM2UBImpl": ("DataCopy", (C.LocalTensorT, C.GlobalTensorT), (3,)),
    "DataCopyUB2GMImpl": ("DataCopy", (C.GlobalTensorT, C.LocalTensorT), (3,)),
    # (__ubuf__ T *dst, const T &scalar, count) and (dst, scalar, mask | mask[], repeatTime, dstBlockStride,
    # dstRepeatStride): Duplicate's count and mask forms (dav_c220/kernel_operator_vec_duplicate_impl.h)
    "DuplicateImpl": ("Duplicate", (C.LocalTensorT,), (3, 6)),
}


def is_impl_call(name: str, args: int) -> bool:
    return name in _IMPL_CALLS and args in _IMPL_CALLS[name][2] or name in matmul_library_math.FUNCTIONS


def lower_impl_call(lw: FunctionLowerer, e: A.Call, name: str, expected: object) -> Val | None:
    """The call as its public API on the tensors its pointers point to, or None when a pointer operand is not
    followed (the caller keeps it opaque). The Matmul library's integer helpers (CeilDiv, CeilAlign ...), for a
    kernel that includes it, are their values (matmul_library_math.py); without it, the name is not the library's."""
    from .calls import api_call

    if name in matmul_library_math.FUNCTIONS:
        return matmul_library_math.call(lw, e, name) if "matmul" in lw.scope.libraries else None
    api, classes, _ = _IMPL_CALLS[name]
    args: list[A.Node] = []
    for a, cls in zip(e.args, classes):
        tensor = tensor_of_pointer(a)
        if tensor is None:
            return None
        base_node = tensor.base if isinstance(tensor, A.Index) else tensor
        base = lw.expr(base_node)
        if not isinstance(base.ctype, cls):
            return None
        pointee = _cast_pointee(lw, a)
        if pointee is not None and pointee[0] != base.ctype.elem:
            # `(__gm__ int16_t *)x.GetPhyAddr() + k` on a tensor of another type: x read as int16_t, k of those
            tensor = _reinterpreted(a, pointee[1])
        args.append(tensor)
    args.extend(e.args[len(classes):])
    return api_call(lw, A.Call(e.span, e.callee, args), api, None, None, None, expected)  # type: ignore[arg-type]


def _cast_pointee(lw: FunctionLowerer, node: A.Node) -> tuple[C.Scalar, A.TypeRef] | None:
    """The element type a pointer argument's cast names, resolved and as written (`(__gm__ int16_t *)x.GetPhyAddr()
    + k`: int16_t, the cast binding tighter than the `+`); None without one cast of `x.GetPhyAddr()` to a pointer
    of a number."""
    if isinstance(node, A.Binary) and node.op == "+":
        node = node.lhs
    if not (isinstance(node, A.Cast) and node.type.pointers == ["*"] and _phy_addr_tensor(node) is not None):
        return None
    written = replace(node.type, pointers=[], address_space=None, qualifiers=[])
    try:
        t = lw.resolve_type(written)
    except Unsupported:  # a type the lowering cannot name here: keep the tensor's own (as before)
        return None
    return (t, written) if isinstance(t, C.Scalar) else None


def _phy_addr_tensor(node: A.Node) -> A.Expr | None:
    """`x` of `(P *)x.GetPhyAddr() [+ k]`, `x[i]` of `(P *)x.GetPhyAddr(i) [+ k]` (i counts x's elements)."""
    if isinstance(node, A.Binary) and node.op == "+":
        node = node.lhs
    while isinstance(node, A.Cast) and node.type.pointers and node.expr is not None:
        node = node.expr
    if not (isinstance(node, A.Call) and isinstance(node.callee, A.Member) and node.callee.member == "GetPhyAddr"
            and not node.callee.arrow and len(node.args) <= 1):
        return None
    x = node.callee.obj
    return A.Index(node.span, x, node.args[0]) if node.args else x  # type: ignore[arg-type]


def _reinterpreted(node: A.Node, pointee: A.TypeRef) -> A.Expr:
    """The tensor expression `(P *)x.GetPhyAddr() + k` points to, read as P: `x.ReinterpretCast<P>()[k]`."""
    x = _phy_addr_tensor(node)
    assert x is not None
    view = A.Call(node.span, A.Member(node.span, x, "ReinterpretCast", False, [A.TemplateArg(node.span, pointee)]),
                  [])
    if isinstance(node, A.Binary) and node.op == "+":
        return A.Index(node.span, view, node.rhs)  # type: ignore[arg-type]
    return view
