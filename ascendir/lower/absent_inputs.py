"""Absent optional inputs: a kernel pointer parameter the launch binds to no tensor is nullptr on the device.

aclnn passes nullptr for an optional input the caller leaves out (ops-transformer moe_gating_top_k_softmax's
example: `aclnnMoeGatingTopKSoftmaxGetWorkspaceSize(input, nullptr, ...)` for `finished`), and kernels test for it:
`if (finished != nullptr) { ... DataCopyPad from finished ... }`. The lowering took every kernel pointer as
non-null, so such a kernel read its absent input. The launch now names the op's inputs it gives no tensor
(LoweringOptions.absent_inputs, positions among the op's inputs); the kernel's pointer parameters pair with the
op's inputs in order, as the launch binds them (passes/sim/launch_buffers.py _buffers), and those of absent inputs
compare equal to nullptr and convert to false, directly or through pointer casts (`(__gm__ bool *)finished`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from xdsl.ir import BlockArgument, SSAValue

from ascendir.dialects import ascendc as asc
from ascendir.lower import ctypes as C
from ascendir.lower.values import Val

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer


def mark(lw: FunctionLowerer, param_types: Sequence[C.CType], args: Sequence[BlockArgument]) -> None:
    """Remember the kernel's parameters that the launch binds to absent inputs."""
    absent = set(getattr(lw.options, "absent_inputs", ()) or ())
    pointers = [arg for t, arg in zip(param_types, args) if isinstance(t, C.Pointer)]
    lw.null_args = {arg for k, arg in enumerate(pointers) if k in absent}


def is_null(lw: FunctionLowerer, v: Val) -> bool:
    """Whether `v` is a parameter bound to an absent input, or a cast of one."""
    null_args = getattr(lw, "null_args", None)
    if not null_args or v.ssa is None:
        return False
    value: SSAValue = v.ssa
    while isinstance(value.owner, asc.GmPtrCastOp | asc.ReinterpretCastOp):
        value = value.owner.operands[0]
    return value in null_args


def compare(lw: FunctionLowerer, op: str, a: Val, b: Val) -> Val | None:
    """`p == nullptr` / `p != nullptr` (either side) for a parameter of an absent input; None otherwise."""
    if op not in ("==", "!="):
        return None
    for p, other in ((a, b), (b, a)):
        if other.ssa is None and other.const == 0 and isinstance(other.ctype, C.Pointer | C.Scalar) and \
                is_null(lw, p):
            return Val(C.BOOL, const=int(op == "=="))
    return None
