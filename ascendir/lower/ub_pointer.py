"""Raw UB pointers (`__ubuf__ T *`) held as the byte addresses they are.

Vendor kernels take `(__ubuf__ T *)x.GetPhyAddr()` into pointer variables, step them with pointer arithmetic
and fill arrays of them for the address-list instructions (`__ubuf__ T *srcList[16]` for TransDataTo5HDImpl,
LayerNormV4's transpose path). The simulator works on tensors, but those instructions take addresses: the
hardware loads the lists into its VA registers (asc-devkit `SetVaReg`) and reads UB where they point. So a UB
pointer is lowered as its UB byte address, a uint64 (what `LocalTensor::GetPhyAddr` returns), `p + n` adds
`n * sizeof(T)` bytes, a cast between UB pointer types keeps the address, and an array of them is an array of
uint64 words that the call passes whole. Reading or writing one element through such a pointer (`p[i]`, `*p`:
a SIMT thread's `dst[idx] = src[idx]`, a vector function's `uint16_t n = counts[i]`) is the scalar GetValue /
SetValue of a local tensor of T that starts at the address (`ascendc.ub_ptr_tensor`): the simulator reads UB
there, with its bounds and unwritten-data checks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from frontend import ast as A

from . import ctypes as C

if TYPE_CHECKING:
    from .function import FunctionLowerer
    from .values import Val


def is_ub_pointer(t: object) -> bool:
    return isinstance(t, C.Pointer) and t.ub


def from_int(lw: FunctionLowerer, v: Val, t: C.Pointer, node: A.Node) -> Val:
    """`(__ubuf__ T *)addr`: the address itself."""
    from .values import Val

    word = lw.convert(v, C.U64, node)
    return Val(t, word.ssa, const=word.const)


def to_int(lw: FunctionLowerer, v: Val, t: C.Scalar, node: A.Node) -> Val:
    """`(uint64_t)p`: the address."""
    from .values import Val

    return lw.convert(Val(C.U64, v.ssa, const=v.const), t, node)


def cast(v: Val, t: C.Pointer) -> Val:
    """`(__ubuf__ U *)p`: the same address, stepping in U's size from now on."""
    from .values import Val

    return Val(t, v.ssa, const=v.const)


def offset(lw: FunctionLowerer, p: Val, n: Val, node: A.Node) -> Val:
    """`p + n`: n elements of p's pointee further on."""
    from .values import Val

    t = p.ctype
    assert isinstance(t, C.Pointer)
    size = C.size_of(t.pointee)
    if size is None:
        from .errors import Unsupported

        raise Unsupported(f"arithmetic on a UB pointer to {t.pointee}", node)
    step = lw.arith("*", lw.convert(n, C.I64, node), Val(C.I64, const=size), node)
    addr = lw.arith("+", Val(C.U64, p.ssa, const=p.const), lw.convert(step, C.U64, node), node)
    return Val(t, addr.ssa, const=addr.const)


def pointee_template_args(args: list[Val]) -> list[object]:
    """`TransDataTo5HDImpl(dstList, srcList, params)` on `__ubuf__ T *` arrays: T, which the call deduces from
    the pointers' type (the arrays hold uint64 addresses to us, so their element type does not say it)."""
    for a in args:
        t = a.ctype
        if isinstance(t, C.ArrayT) and isinstance(t.elem, C.Pointer) and t.elem.ub \
                and isinstance(t.elem.pointee, C.Scalar):
            return [t.elem.pointee]
    return []


def element_tensor(lw: FunctionLowerer, p: Val, node: A.Node) -> tuple[Val, C.Scalar]:
    """The local tensor of p's pointee that starts at p's address, and that element type."""
    from ascendir.dialects import ascendc as asc

    from .errors import Unsupported
    from .values import Val

    t = p.ctype
    assert isinstance(t, C.Pointer)
    if not isinstance(t.pointee, C.Scalar) or t.pointee.bits % 8:
        raise Unsupported(f"an element of a UB pointer to {t.pointee}: only scalar elements are modelled", node)
    tensor_t = C.LocalTensorT(t.pointee)
    op = asc.UbPtrTensorOp.create(operands=[lw.ssa(lw.convert(Val(C.U64, p.ssa, const=p.const), C.U64, node), node)],
                                  result_types=[C.ir_type(tensor_t)])
    return Val(tensor_t, lw.emit(op, node).results[0]), t.pointee


def load(lw: FunctionLowerer, p: Val, index: Val, node: A.Node) -> Val:
    """`p[index]` read: the element's value (GetValue of the tensor at p)."""
    from ascendir.dialects import ascendc as asc

    from .values import Val

    tensor, elem = element_tensor(lw, p, node)
    op = asc.GetValueOp.create(operands=[lw.ssa(tensor, node), lw.ssa(lw.convert(index, C.I64, node), node)],
                               result_types=[C.scalar_ir_type(elem)])
    return Val(elem, lw.emit(op, node).results[0], obj=("ub_elem", p, index))


def store(lw: FunctionLowerer, p: Val, index: Val, value: Val, node: A.Node) -> None:
    """`p[index] = value`: SetValue of the tensor at p."""
    tensor, _ = element_tensor(lw, p, node)
    lw.set_tensor_element(tensor, lw.convert(index, C.I64, node), value, node)
