"""Vector compiler intrinsics called on UB pointers, lowered as the catalogued call on the tensors they point
into.

Vendor kernels reach below the AscendC API for a few reductions: `vcadd((__ubuf__ float *)dst.GetPhyAddr(),
(__ubuf__ float *)src.GetPhyAddr() + off, repeat, dstRepStride, srcBlkStride, srcRepStride, mode)`, with
`nullptr` as dst when mode 1 sums into the ACC_VAL register. The simulator works on tensors, not raw
addresses, so each pointer operand is read back to the LocalTensor expression it was taken from: the
pointer `(T *)x.GetPhyAddr()` is `x`, `(T *)x.GetPhyAddr() + k` and `(T *)x.GetPhyAddr(k)` are `x[k]`.
A pointer of any other form (a pointer variable, arithmetic on a uint64 address) is not followed: the call
stays opaque, as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from frontend import ast as A

from . import ctypes as C

if TYPE_CHECKING:
    from .function import FunctionLowerer
    from .values import Val

# intrinsic -> how many of its leading operands are UB pointers (the first may be nullptr)
_POINTER_INTRINSICS = {"vcadd": 2}


def is_vector_intrinsic(name: str) -> bool:
    return name in _POINTER_INTRINSICS


def _strip_casts(node: A.Node) -> A.Node:
    while isinstance(node, A.Cast) and node.type.pointers and node.expr is not None:
        node = node.expr
    return node


def _phy_addr_tensor(node: A.Node) -> tuple[A.Expr, A.Node | None] | None:
    """(`x`, element offset or None) for `x.GetPhyAddr()` / `x.GetPhyAddr(k)`, under any pointer casts."""
    node = _strip_casts(node)
    if (isinstance(node, A.Call) and isinstance(node.callee, A.Member) and node.callee.member == "GetPhyAddr"
            and not node.callee.arrow and len(node.args) <= 1):
        return node.callee.obj, (node.args[0] if node.args else None)
    return None


def tensor_of_pointer(node: A.Node) -> A.Expr | None:
    """The LocalTensor expression a UB pointer argument points to the start of (see the module's doc), or
    None when the pointer is not one of the forms followed."""
    node = _strip_casts(node)
    offset: A.Node | None = None
    if isinstance(node, A.Binary) and node.op == "+":
        base = _phy_addr_tensor(node.lhs)
        if base is None or base[1] is not None:
            return None
        tensor, offset = base[0], node.rhs
    else:
        found = _phy_addr_tensor(node)
        if found is None:
            return None
        tensor, offset = found
    if offset is None:
        return tensor
    return A.Index(node.span, tensor, offset)  # type: ignore[arg-type]


def lower_pointer_intrinsic(lw: FunctionLowerer, e: A.Call, name: str, expected: object) -> Val | None:
    """The intrinsic call as its catalogued API on tensors, or None when a pointer operand is not followed
    (the caller keeps it opaque)."""
    from .calls import api_call

    pointers = _POINTER_INTRINSICS[name]
    if len(e.args) < pointers:
        return None
    args: list[A.Node] = []
    for i, a in enumerate(e.args[:pointers]):
        if i == 0 and isinstance(_strip_casts(a), A.NullLit):
            continue  # vcadd(nullptr, src, ...): the accumulate form, no destination operand
        tensor = tensor_of_pointer(a)
        if tensor is None:
            return None
        # (the base only: an element offset's subtensor is lowered once, by the call)
        base = lw.expr(tensor.base if isinstance(tensor, A.Index) else tensor)
        if not isinstance(base.ctype, C.LocalTensorT):
            return None
        args.append(tensor)
    args.extend(e.args[pointers:])
    return api_call(lw, A.Call(e.span, e.callee, args), name, None, None, None, expected)  # type: ignore[arg-type]


# The mask-register intrinsics under the AscendC mask APIs (asc-devkit impl/basic_api/kernel_utils_base.h:
# AscendCUtils::SetMaskCount / SetMaskNorm call set_mask_count() / set_mask_norm(), SetVectorMask calls
# set_vector_mask(maskHigh, maskLow)): name -> (API, overload). In Counter mode the low word is the count.
_MASK_INTRINSICS = {"set_mask_norm": ("SetMaskNorm", 0), "set_mask_count": ("SetMaskCount", 0),
                    "set_vector_mask": ("SetVectorMask", 2)}


def is_mask_intrinsic(name: str, args: int) -> bool:
    return name in _MASK_INTRINSICS and _MASK_INTRINSICS[name][1] == args


def lower_mask_intrinsic(lw: FunctionLowerer, e: A.Call, name: str, expected: object) -> Val:
    """`set_mask_norm()`, `set_mask_count()`, `set_vector_mask(high, low)` as the catalogued mask calls (the
    vector mask register carries no element type: `uint64_t` stands for the template's T)."""
    from .calls import api_call

    api = _MASK_INTRINSICS[name][0]
    targs = None
    if api == "SetVectorMask":
        u64 = A.TypeRef(e.span, "uint64_t")
        targs = [A.TemplateArg(e.span, u64)]
    call = A.Call(e.span, e.callee, list(e.args))
    return api_call(lw, call, api, None, None, targs, expected)  # type: ignore[arg-type]
