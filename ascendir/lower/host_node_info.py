"""`context->GetComputeNodeInfo()` in a host tiling function: the node's input instances.

    auto computeNodeInfoPtr = context->GetComputeNodeInfo();            // never null on a launched node
    auto anchorInstanceInfoPtr = computeNodeInfoPtr->GetInputInstanceInfo(VAR_INDEX);
    varTensorNum = anchorInstanceInfoPtr->GetInstanceNum();             // the tensor list's length

(NPUKernelBench ScatterList). The handles carry the input index; `GetInstanceNum()` lowers to
`host.input_instance_num`, which the evaluator answers from the inputs given (ascendir/host_node_info.py).
`GetInstanceStart()` is the instances of the inputs before it. Other queries are not modelled.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from xdsl.dialects import arith

from ascendir.dialects import host as hd
from ascendir.lower import ctypes as C
from ascendir.lower.function import Unsupported
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer


def compute_node_info(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    from ascendir.lower.host import HostT

    return Val(HostT("compute_node_info"))


def input_instance_info(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    from ascendir.lower.host import HostT

    if len(e.args) != 1:
        raise Unsupported("GetInputInstanceInfo takes the input's index", e)
    return Val(HostT("anchor_instance"), obj=lw.convert(lw.expr(e.args[0]), C.I64, e))


def instance_num(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    index = recv.obj
    assert isinstance(index, Val)
    count = lw.emit(hd.InputInstanceNumOp(lw._context(e), lw.ssa(index, e)), e).results[0]
    return lw.convert(Val(C.I64, count), C.U32, e)  # AnchorInstanceInfo::GetInstanceNum returns uint32_t


def instance_start(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    """The instances of the inputs before this one (a constant index): the sum of their counts."""
    index = recv.obj
    if not isinstance(index, Val) or not isinstance(index.const, int):
        raise Unsupported("GetInstanceStart of an input index known only at run time", e)
    ctx = lw._context(e)
    total = lw.const_ssa(0, C.I64, e)
    for k in range(index.const):
        count = lw.emit(hd.InputInstanceNumOp(ctx, lw.const_ssa(k, C.I64, e)), e).results[0]
        total = lw.emit(arith.AddiOp(total, count), e).results[0]
    return lw.convert(Val(C.I64, total), C.U32, e)


METHODS = {
    "compute_node_info": {"GetInputInstanceInfo": input_instance_info},
    "anchor_instance": {"GetInstanceNum": instance_num, "GetInstanceStart": instance_start},
}


def optional_ref(kind: str) -> Callable[[HostLowerer, A.Call, Val, A.Member], Val]:
    """`GetOptionalInputShape(ir_index)` / `GetOptionalInputTensor` / `GetOptionalInputDesc` on a tiling context:
    gert takes the optional input's IR index (its place in the OpDef), not its instance index as GetInputShape does;
    after a tensor-list input the two differ (ScatterList's mask, IR index 3, is instance 5 behind a list of three).
    The tensor is instance 0 of that input (`host.dynamic_input_index`), null when the input is absent."""

    def method(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
        from ascendir.lower.host import HostT, TensorRef

        if len(e.args) != 1:
            raise Unsupported(f"{callee.member} takes the input's index", e)
        ir_index = lw.ssa(lw.convert(lw.expr(e.args[0]), C.I64, e), e)
        at = lw.emit(hd.DynamicInputIndexOp(lw._context(e), ir_index, lw.const_ssa(0, C.I64, e)), e).results[0]
        return Val(HostT(kind), obj=TensorRef(0, optional=True, at=at))

    return method


CONTEXT_METHODS = {
    "GetComputeNodeInfo": compute_node_info, "GetOptionalInputShape": optional_ref("storage_shape"),
    "GetOptionalInputTensor": optional_ref("tensor"), "GetOptionalInputDesc": optional_ref("desc"),
}
