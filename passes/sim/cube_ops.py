"""What the cube path adds to building a program: which cores a kernel runs on.

A kernel that does not say its type (no KERNEL_TASK_TYPE_DEFAULT, no `__mix__`) runs where its code needs:
the compiler makes it a MIX kernel (one cube core and two vector cores per block on the 910B) when it has
both cube and vector work, or uses the high-level Matmul object (whose AIV side calls the AIC side; the
object is cube-only only under ASCENDC_CUBE_ONLY, which comes with KERNEL_TYPE_AIC_ONLY), a cube kernel when
it has cube work only, and a vector kernel otherwise.
"""

from __future__ import annotations

from ascendir.dialects import ascendc as asc

# the op families that run on the vector core
_VECTOR_FAMILIES = asc.VECTOR_PIPE_FAMILIES | {"high_level", "mask"}
_VECTOR_POSITIONS = ("VECIN", "VECOUT", "VECCALC")


def kernel_type(kernel: asc.KernelOp) -> str:
    """The kernel's type as the simulator runs it: what it declares, else what its code needs."""
    declared = kernel.kernel_type.data
    if declared != "default":
        return declared
    cube = vector = matmul = False
    for op in kernel.walk():
        if isinstance(op, asc.MatmulObjectOp):
            matmul = True
        elif isinstance(op, asc.ApiCallOp):
            cube |= op.FAMILY == "cube"
            vector |= op.FAMILY in _VECTOR_FAMILIES
        elif isinstance(op, asc.TQueOp | asc.TBufOp):
            vector |= op.result.type.position.data.rsplit("::", 1)[-1] in _VECTOR_POSITIONS
    if matmul or (cube and vector):
        return "mix_aic_1_2"
    if cube:
        return "aic"
    return declared
