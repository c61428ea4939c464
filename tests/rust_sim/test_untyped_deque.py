"""`q.DeQue();` with no element type is TQueBind's untyped overload, `TBufHandle DeQue()`: it dequeues like
`DeQue<T>()` (waits for the producer's EnQue; the buffer leaves the queue) and hands back the raw buffer, which
a kernel may drop and keep using the typed tensor it enqueued. NPUKernelBench RmsNorm's reference answer does
this with a bfloat16 copy of gamma (`inQueueX.EnQue(gamma_tmp); inQueueX.DeQue(); Cast(..., gamma_tmp, ...)`).
The lowering gave the result a tensor of no element type, and the simulator refused the whole kernel ("does not
model tensors of element type none", all 9 cases not evaluated); the result is now a tensor of the buffer's bytes.
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void untyped_deque(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, 64 * sizeof(float));
    pipe.InitBuffer(outQ, 1, 64 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    yGm.SetGlobalBuffer((__gm__ float *)y, 64);
    LocalTensor<float> a = inQ.AllocTensor<float>();
    DataCopy(a, xGm, 64);
    inQ.EnQue(a);
    inQ.DeQue();
    LocalTensor<float> b = outQ.AllocTensor<float>();
    Muls(b, a, 2.0f, 64);
    inQ.FreeTensor(a);
    outQ.EnQue(b);
    b = outQ.DeQue<float>();
    DataCopy(yGm, b, 64);
    outQ.FreeTensor(b);
}
"""


def test_an_untyped_deque_waits_for_the_enque_and_the_typed_tensor_stays_usable() -> None:
    x = np.arange(64, dtype=np.float32)
    result = run(KERNEL, [x], block_dim=1, outputs={"y": ((64,), "float32")})
    assert result.completed, [d.message for d in result.findings]
    assert not result.findings, [d.message for d in result.findings]
    assert np.array_equal(result.outputs["y"], 2 * x)


def test_an_untyped_deque_of_an_empty_queue_is_still_caught() -> None:
    kernel = KERNEL.replace("    inQ.EnQue(a);\n", "")
    result = run(kernel, [np.zeros(64, np.float32)], block_dim=1, outputs={"y": ((64,), "float32")})
    assert any(d.is_error and "empty queue" in d.message for d in result.findings), \
        [d.message for d in result.findings]
