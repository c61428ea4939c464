"""A kernel class holding its TPipe through a pointer member initialised to null (`TPipe *pipe_ = nullptr;`) and
set in the constructor. NPUKernelBench AddRmsNormQuant and InplaceFusedMatmulSoftmaxGrad do this; the member
initialiser was lowered as a store of an undefined TPipe into the member, and the simulator's program builder
stopped at it ("an object (TPipe, TQue, TBuf) that is not one declared in the kernel", ASC958).
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

class Copy {
public:
    __aicore__ inline Copy(TPipe *pipe) { pipe_ = pipe; }
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x, 64);
        yGm.SetGlobalBuffer((__gm__ float *)y, 64);
        pipe_->InitBuffer(queue, 1, 64 * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> t = queue.AllocTensor<float>();
        DataCopy(t, xGm, 64);
        queue.EnQue(t);
        LocalTensor<float> u = queue.DeQue<float>();
        DataCopy(yGm, u, 64);
        queue.FreeTensor(u);
    }

private:
    TPipe *pipe_ = nullptr;
    TQueBind<QuePosition::VECIN, QuePosition::VECOUT, 1> queue;
    GlobalTensor<float> xGm, yGm;
};

extern "C" __global__ __aicore__ void copy(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    Copy op(&pipe);
    op.Init(x, y);
    op.Process();
}
"""


def test_a_pipe_pointer_member_initialised_to_null_then_set() -> None:
    x = np.arange(64, dtype=np.float32)
    result = run(KERNEL, {"x": x}, block_dim=1, outputs={"y": ((64,), "float32")})
    assert not [f for f in result.findings if f.severity == "error"], result.findings
    np.testing.assert_array_equal(result.outputs["y"], x)
