"""Method calls in the lowering of calls: on user objects (inlined, CRTP, function-object and function-pointer
members, through pointers to one of several objects), and the AscendC objects' methods with ops of their own
(TPipe::InitBuffer, TQue's AllocTensor / DeQue / EnQue / FreeTensor, TBuf::Get, GlobalTensor::SetGlobalBuffer,
tensors' GetValue / SetValue / ReinterpretCast, LocalMemAllocator::Alloc); other methods are catalogued APIs.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import DenseArrayBase, i32

from ascendir.dialects import ascendc as asc
from ascendir.lower import ctypes as C, host_program, host_program_vectors
from ascendir.lower import code_pointer, list_tensor
from ascendir.lower.calls_api import api_call, lower_args, opaque_call
from ascendir.lower.calls_inline import inline_method
from ascendir.lower.ctypes import CType, Scalar
from ascendir.lower.function import Unsupported
from ascendir.lower.values import Instance, Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer


def method_call(lw: FunctionLowerer, e: A.Call, callee: A.Member, expected: CType | None) -> Val:
    name = callee.member
    targs = callee.template_args
    if lw.host_program is not None:
        value = host_program.method(lw, e, callee)  # the platform's core counts, in a host program
        if value is not None:
            return value
    if isinstance(callee.obj, A.This):
        if lw.frame.this is None:
            raise Unsupported("'this' outside a member function", e)
        recv = Val(lw.frame.this.ctype, obj=lw.frame.this)
    else:
        recv = lw.expr(callee.obj)
    if isinstance(recv.ctype, C.Pointer) and isinstance(recv.obj, Instance):
        recv = Val(recv.obj.ctype, obj=recv.obj)
    elif code_pointer.is_pointer(recv):  # `ptr->Method()` with `Kernel *ptr = this`
        reached = code_pointer.objects_at(lw, recv, e)
        if len(reached) > 1 and not targs:  # one of several objects: the method of each, under a test of which
            return code_pointer.each_object(lw, recv, e, lambda held: lw._operator_call(held, name, e, e.args))
        recv = Val(reached[0][1].ctype, obj=reached[0][1])
    elif isinstance(recv.ctype, C.Pointer) and not isinstance(recv.ctype.pointee, Scalar | C.VoidT):
        recv = Val(recv.ctype.pointee, recv.ssa, obj=recv.obj)  # `pipe->InitBuffer(...)`: objects, not memory
    if lw.host_program is not None:
        listed = host_program_vectors.method(lw, e, name, recv)  # `options.pads.data()`: a listed std::vector
        if listed is not None:
            return listed
    inst = recv.obj if isinstance(recv.obj, Instance) else None
    if inst is not None:
        found = inst.find_method(name)
        if found is None and inst.whole is not None:
            # a base-class part calling what only the derived class declares: the CRTP idiom
            # (`static_cast<Derived*>(this)->Compute(n)`) dispatches to the object it is part of
            found = inst.outermost().find_method(name)
        if found is None:
            member = inst.member(name)
            if isinstance(member, Instance) and member.find_method("operator()") is not None:
                return lw._operator_call(member, "operator()", e, e.args)  # `params.callback()`: a function object
            called = code_pointer.call(lw, e, member, lambda: lower_args(lw, e.args))
            if called is not None:
                return called  # `hook.invoke(target)`: a function pointer member
            element = tensor_element(lw, e, callee) if name in inst.members else None
            if element is not None:
                return element
            raise Unsupported(f"'{inst.info.name}' has no method '{name}'", e)
        return inline_method(lw, e, found, name, targs)
    t = recv.ctype
    if isinstance(t, C.ObjectT) and t.name.startswith("LocalMemAllocator") and name == "Alloc":
        return _local_alloc(lw, e, recv, targs, expected)
    receiver = _receiver_name(t)
    if receiver is None:
        raise Unsupported(f"method '{name}' called on a value of type {t}", e)
    special = _DEDICATED.get((receiver, name))
    if special is not None:
        result = special(lw, e, recv, targs, expected)
        if result is not None:
            return result
    if not lw.catalog.has_api(name, receiver):
        closest = lw.catalog.closest(name, receiver)
        lw.report.unknown_api(f"{receiver}::{name}", e, closest)
        return opaque_call(lw, e, f"{receiver}::{name}", [recv, *lower_args(lw, e.args, tolerant=True)])
    return api_call(lw, e, name, receiver, recv, targs, expected)


_HARDWARE_POSITION = {"UB": "VECCALC", "L1": "A1", "L0A": "A2", "L0B": "B2", "L0C": "CO1", "BIAS": "C2"}


def _local_alloc(lw: FunctionLowerer, e: A.Call, recv: Val, targs: list[A.TemplateArg] | None,
                 expected: CType | None) -> Val:
    """`Alloc<T, N>()`, `Alloc<TPosition::X, T>(n)`, `Alloc<TPosition::X, T, N>()`."""
    values = [lw._template_arg_value(a) for a in targs or []]
    position = next((v for v in values if isinstance(v, str) and v in asc.POSITIONS), None)
    elem = next((v for v in values if isinstance(v, Scalar)), None)
    if elem is None and isinstance(expected, C.LocalTensorT):
        elem = expected.elem
    counts = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
    args = lower_args(lw, e.args)
    if args:
        count = lw.convert(args[0], C.U32, e)
    elif counts:
        count = Val(C.U32, const=counts[-1])
    else:
        raise Unsupported("LocalMemAllocator::Alloc needs an element count", e)
    assert isinstance(recv.ctype, C.ObjectT)
    hardware = recv.ctype.name.partition("<")[2].rstrip(">")
    t = C.LocalTensorT(elem, position or _HARDWARE_POSITION.get(hardware, asc.UNKNOWN_POSITION))
    op = asc.LocalAllocOp.create(operands=[lw.ssa(recv, e), lw.ssa(count, e)], result_types=[C.ir_type(t)])
    return Val(t, lw.emit(op, e).results[0])


def _receiver_name(t: CType) -> str | None:
    match t:
        case C.PipeT():
            return "TPipe"
        case C.QueueT():
            return "TQue"
        case C.BufT():
            return "TBuf"
        case C.GlobalTensorT():
            return "GlobalTensor"
        case C.LocalTensorT():
            return "LocalTensor"
        case C.ObjectT(name):
            return name
        case _:
            return None


def _elem_from(lw: FunctionLowerer, targs: list[A.TemplateArg] | None, expected: CType | None) -> Scalar | None:
    # the first template argument that names a type: `DeQue<T>()`, or TQueBind's `DeQue<srcPos, dstPos, T>()`,
    # whose first two name the TPositions the buffer moves between
    for targ in targs or []:
        v = lw._template_arg_value(targ)
        if isinstance(v, Scalar):
            return v
    if isinstance(expected, C.LocalTensorT):
        return expected.elem
    return None


def _report_untyped(lw: FunctionLowerer, e: A.Call, method: str, why: str) -> None:
    """`q.AllocTensor()`, `buf.Get()` with no element type named and none to take from a declaration: C++ does
    not deduce a template argument from the return type, so the build fails (the tensor would otherwise reach the
    simulator with no element type and the whole kernel be refused there)."""
    lw.report.no_match(method, e, f"no matching member function for call to '{method}': the element type T cannot "
                                  f"be deduced from the call and {why}; name it, as in {method}<half>(...)", [])


def _init_buffer(lw: FunctionLowerer, e: A.Call, recv: Val, targs: object, expected: object) -> Val | None:
    args = lower_args(lw, e.args)
    if not args or not isinstance(args[0].ctype, C.QueueT | C.BufT):
        return None
    buf = args[0]
    if isinstance(buf.ctype, C.QueueT) and len(args) == 3:
        num, length = lw.convert(args[1], C.U32, e), lw.convert(args[2], C.U32, e)
        operands = [lw.ssa(recv, e), lw.ssa(buf, e), lw.ssa(num, e), lw.ssa(length, e)]
    elif isinstance(buf.ctype, C.BufT) and len(args) == 2:
        length = lw.convert(args[1], C.U32, e)
        operands = [lw.ssa(recv, e), lw.ssa(buf, e), lw.ssa(length, e)]
    else:
        return None
    # Op.create with the operands in order: the same op (one optional operand needs no segment sizes), built
    # without the IRDL constructor's argument checks, which cost ~40 us (the module is verified afterwards)
    op = asc.InitBufferOp.create(operands=operands)
    lw.emit(op, e)
    return Val(C.VoidT())


def _alloc_or_deque(lw: FunctionLowerer, e: A.Call, recv: Val, targs: list[A.TemplateArg] | None,
                    expected: CType | None) -> Val | None:
    if len(e.args) > 1:
        return None
    q = recv.ctype
    assert isinstance(q, C.QueueT)
    method = e.callee.member  # type: ignore[union-attr]
    if e.args:
        return _in_place_alloc_or_deque(lw, e, recv, targs, method)
    elem = _elem_from(lw, targs, expected)
    if elem is None and method == "DeQue":
        # `q.DeQue();` with no T is TQueBind's untyped overload, `TBufHandle DeQue()`: the same dequeue (wait for
        # the producer, the buffer leaves the queue) handing back the raw buffer, here a tensor of its bytes
        # (NPUKernelBench RmsNorm dequeues a bfloat16 copy of gamma this way and keeps using the typed tensor)
        elem = C.U8
    elif elem is None and not targs:
        _report_untyped(lw, e, method, "AllocTensor has no overload without one (TQueBind's is AllocBuffer)")
    t = C.LocalTensorT(elem, q.position)
    cls = asc.AllocTensorOp if method == "AllocTensor" else asc.DeQueOp
    op = cls.create(operands=[lw.ssa(recv, e)], result_types=[C.ir_type(t)])
    return Val(t, lw.emit(op, e).results[0])


def _in_place_alloc_or_deque(lw: FunctionLowerer, e: A.Call, recv: Val, targs: list[A.TemplateArg] | None,
                             method: str) -> Val | None:
    """`q.AllocTensor<T>(tensor)` / `q.DeQue<T>(tensor)`, the in-place forms (the catalog's 'inplace' overloads,
    for depth-0 queues: ops-nn embedding_dense_grad's `TQueBind<VECIN, VECOUT, 0>`): the same allocation or
    dequeue as the forms that return the tensor, handed back through the argument, so they are lowered as
    `tensor = q.AllocTensor<T>()`. The simulator ran no 'inplace' overload (ASC958)."""
    target = e.args[0]
    if not isinstance(target, A.Name | A.Member | A.Index):
        return None
    given = lower_args(lw, e.args)[0]
    if not isinstance(given.ctype, C.LocalTensorT):
        return None  # (the catalogued call reports what else it was given)
    elem = _elem_from(lw, targs, None) or given.ctype.elem
    q = recv.ctype
    assert isinstance(q, C.QueueT)
    t = C.LocalTensorT(elem, q.position)
    cls = asc.AllocTensorOp if method == "AllocTensor" else asc.DeQueOp
    op = cls.create(operands=[lw.ssa(recv, e)], result_types=[C.ir_type(t)])
    lw.assign(target, Val(t, lw.emit(op, e).results[0]), e)
    return Val(C.VoidT())


def _enque_or_free(lw: FunctionLowerer, e: A.Call, recv: Val, targs: list[A.TemplateArg] | None,
                   expected: object) -> Val | None:
    args = lower_args(lw, e.args)
    if len(args) != 1 or not isinstance(args[0].ctype, C.LocalTensorT):
        return None
    method = e.callee.member  # type: ignore[union-attr]
    named = _elem_from(lw, targs, None)
    given = args[0].ctype.elem
    if isinstance(named, Scalar) and isinstance(given, Scalar) and named != given:
        # `EnQue<T>(const LocalTensor<T>&)` with T named: no conversion between tensors of two element types.
        # The op is still built, so the queue's protocol is followed as written.
        lw.report.no_match(method, e, f"no matching function for call to '{method}<{named}>': it takes a "
                                      f"LocalTensor<{named}>, the argument is a LocalTensor<{given}>", [])
    operands = [lw.ssa(recv, e), lw.ssa(args[0], e)]
    if method == "EnQue":
        op = asc.EnQueOp.create(operands=operands, result_types=[C.scalar_ir_type(C.BOOL)])
        return Val(C.BOOL, lw.emit(op, e).results[0])
    lw.emit(asc.FreeTensorOp.create(operands=operands), e)
    return Val(C.VoidT())


def _tbuf_get(lw: FunctionLowerer, e: A.Call, recv: Val, targs: list[A.TemplateArg] | None,
              expected: CType | None) -> Val | None:
    b = recv.ctype
    assert isinstance(b, C.BufT)
    args = lower_args(lw, e.args)
    method = e.callee.member  # type: ignore[union-attr]
    if method == "GetWithOffset" and len(args) != 2 or method == "Get" and len(args) > 1 or (
            method == "AllocTensor" and args):
        return None
    elem = _elem_from(lw, targs, expected)
    if elem is None and not targs:
        _report_untyped(lw, e, method, "TBuf's overloads without one are private and return a TBufHandle"
                        if method == "Get" else f"{method} has no overload without one")
    t = C.LocalTensorT(elem, b.position)
    count = [lw.ssa(lw.convert(args[0], C.U32, e), e)] if args else []
    offset = [lw.ssa(lw.convert(args[1], C.U32, e), e)] if len(args) > 1 else []
    op = asc.TBufGetOp.create(operands=[lw.ssa(recv, e), *count, *offset], result_types=[C.ir_type(t)],
                              properties={"operandSegmentSizes": _segments(1, len(count), len(offset))})
    return Val(t, lw.emit(op, e).results[0])


def _tbuf_free(lw: FunctionLowerer, e: A.Call, recv: Val, targs: object, expected: object) -> Val | None:
    """TBuf::FreeTensor, the counterpart of its AllocTensor (the queue interface TBuf inherits from TQueBind): the
    buffer stays the TBuf's, so nothing happens."""
    args = lower_args(lw, e.args)
    return Val(C.VoidT()) if len(args) == 1 else None


def _set_global_buffer(lw: FunctionLowerer, e: A.Call, recv: Val, targs: object, expected: object) -> Val | None:
    args = lower_args(lw, e.args)
    if not args or len(args) > 2:
        return None
    g = recv.ctype
    assert isinstance(g, C.GlobalTensorT)
    ptr = args[0]
    if isinstance(ptr.ctype, C.Pointer) and ptr.ssa is None and ptr.const == 0:
        # SetGlobalBuffer(nullptr) (asc-devkit's batch_matmul sets its unused bias so): a tensor over no memory,
        # whose accesses the simulator reports; the null address as a GM pointer
        target = C.ir_type(C.Pointer(g.elem or C.U8, gm=True))
        if not isinstance(target, asc.GmPtrType):
            return None
        word = lw.ssa(lw.convert(Val(C.U64, const=0), C.U64, e), e)
        ptr = Val(C.Pointer(g.elem or C.U8, gm=True),
                  lw.emit(asc.GmPtrFromIntOp.create(operands=[word], result_types=[target]), e).results[0])
    if not isinstance(ptr.ctype, C.Pointer) or ptr.ssa is None:
        return None
    ptr = lw.pointer_cast(ptr, C.Pointer(g.elem or C.U8, gm=True), e)
    count = [lw.ssa(lw.convert(args[1], C.U64, e), e)] if len(args) == 2 else []
    # Op.create, as in _init_buffer: the same op as the IRDL constructor's, several times cheaper
    lw.emit(asc.SetGlobalBufferOp.create(operands=[lw.ssa(recv, e), lw.ssa(ptr, e), *count]), e)
    return Val(C.VoidT())


def _get_value(lw: FunctionLowerer, e: A.Call, recv: Val, targs: object, expected: object) -> Val | None:
    args = lower_args(lw, e.args)
    t = recv.ctype
    elem = t.elem if isinstance(t, C.LocalTensorT | C.GlobalTensorT) else None
    if len(args) != 1 or elem is None:
        return None
    op = asc.GetValueOp.create(operands=[lw.ssa(recv, e), lw.ssa(args[0], e)], result_types=[C.scalar_ir_type(elem)])
    return Val(elem, lw.emit(op, e).results[0])


def tensor_element(lw: FunctionLowerer, e: A.Call, callee: A.Node) -> Val | None:
    """`xLocal(i)` / `this->reduceRes(0)`: a tensor's operator(), its element i as GetValue reads it; None
    when the callee is no tensor or the call has not one argument."""
    if len(e.args) != 1:
        return None
    tensor = lw.expr(callee)
    if not isinstance(tensor.ctype, C.LocalTensorT | C.GlobalTensorT):
        return None
    return _get_value(lw, e, tensor, None, None)


def _set_value(lw: FunctionLowerer, e: A.Call, recv: Val, targs: object, expected: object) -> Val | None:
    args = lower_args(lw, e.args)
    t = recv.ctype
    elem = t.elem if isinstance(t, C.LocalTensorT | C.GlobalTensorT) else None
    if len(args) != 2 or elem is None:
        return None
    lw.set_tensor_element(recv, args[0], args[1], e)
    return Val(C.VoidT())


def _reinterpret_cast(lw: FunctionLowerer, e: A.Call, recv: Val, targs: list[A.TemplateArg] | None,
                      expected: CType | None) -> Val | None:
    t = recv.ctype
    assert isinstance(t, C.LocalTensorT)
    elem = _elem_from(lw, targs, expected)
    if elem is None or e.args:
        return None
    out = C.LocalTensorT(elem, t.position)
    op = asc.ReinterpretCastOp.create(operands=[lw.ssa(recv, e)], result_types=[C.ir_type(out)])
    return Val(out, lw.emit(op, e).results[0])


@lru_cache(maxsize=64)
def _segments(*sizes: int) -> DenseArrayBase:
    return DenseArrayBase.from_list(i32, list(sizes))


_DEDICATED = {
    ("TPipe", "InitBuffer"): _init_buffer,
    ("TQue", "AllocTensor"): _alloc_or_deque,
    ("TQue", "DeQue"): _alloc_or_deque,
    ("TQue", "EnQue"): _enque_or_free,
    ("TQue", "FreeTensor"): _enque_or_free,
    ("TBuf", "Get"): _tbuf_get,
    ("TBuf", "GetWithOffset"): _tbuf_get,
    # TBuf's AllocTensor<T>() is its whole block as Get<T>() gives it (asc-devkit kernel_tpipe.h, inherited from
    # TQueBind; asc-devkit's layernorm_v2 example takes its Normalize scratch so)
    ("TBuf", "AllocTensor"): _tbuf_get,
    ("TBuf", "FreeTensor"): _tbuf_free,
    ("GlobalTensor", "SetGlobalBuffer"): _set_global_buffer,
    ("GlobalTensor", "GetValue"): _get_value,
    ("LocalTensor", "GetValue"): _get_value,
    ("GlobalTensor", "SetValue"): _set_value,
    ("LocalTensor", "SetValue"): _set_value,
    ("LocalTensor", "ReinterpretCast"): _reinterpret_cast,
    **list_tensor.METHODS,
}
