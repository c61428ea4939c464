"""`qa.FreeTensor(b)` of a tensor taken from another queue `qb` whose buffers are freed with the same event (two
VECIN queues), with `qb.FreeTensor(a)` beside it: on the device FreeTensor frees the tensor's own buffer through its
handle and sets the free event both queues wait on (asc-devkit checks the owner only under ASCENDC_CPU_DEBUG), so
the kernel runs as if each tensor went back to its own queue. The simulator stopped the core at the first one
(ASC955 error; NPUKernelBench DeepNormGrad's CopyOutMeanRstd frees mean and rstd through each other's queue); it
now warns and frees the buffer in its own queue. Queues whose free events differ keep the error.
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void swapped_free(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qa, qb;
    TQue<TPosition::VECOUT, 1> qz;
    pipe.InitBuffer(qa, 1, 64 * sizeof(float));
    pipe.InitBuffer(qb, 1, 64 * sizeof(float));
    pipe.InitBuffer(qz, 1, 64 * sizeof(float));
    GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 128);
    yGm.SetGlobalBuffer((__gm__ float *)y, 128);
    zGm.SetGlobalBuffer((__gm__ float *)z, 128);
    for (int32_t i = 0; i < 2; ++i) {
        LocalTensor<float> a = qa.AllocTensor<float>();
        LocalTensor<float> b = qb.AllocTensor<float>();
        DataCopy(a, xGm[i * 64], 64);
        DataCopy(b, yGm[i * 64], 64);
        qa.EnQue(a);
        qb.EnQue(b);
        a = qa.DeQue<float>();
        b = qb.DeQue<float>();
        LocalTensor<float> z = qz.AllocTensor<float>();
        Add(z, a, b, 64);
        qz.EnQue(z);
        qa.FreeTensor(b);
        qb.FreeTensor(a);
        z = qz.DeQue<float>();
        DataCopy(zGm[i * 64], z, 64);
        qz.FreeTensor(z);
    }
}
"""


def test_a_tensor_freed_through_another_queue_of_the_same_events_goes_back_to_its_own() -> None:
    x = np.arange(128, dtype=np.float32)
    y = np.full(128, 0.5, dtype=np.float32)
    result = run(KERNEL, [x, y], block_dim=1, outputs={"z": ((128,), "float32")})
    assert result.completed
    assert not [d for d in result.findings if d.is_error], [d.message for d in result.findings]
    assert [d.code for d in result.findings] == ["ASC955", "ASC955"]  # warnings, one per FreeTensor statement
    assert np.array_equal(result.outputs["z"], x + y)


def test_a_tensor_freed_through_a_queue_of_other_events_stays_an_error() -> None:
    kernel = KERNEL.replace("qz.FreeTensor(z);", "qa.FreeTensor(z);").replace("qa.FreeTensor(b);", "qb.FreeTensor(b);") \
        .replace("qb.FreeTensor(a);", "qa.FreeTensor(a);")
    result = run(kernel, [np.zeros(128, np.float32), np.zeros(128, np.float32)], block_dim=1,
                 outputs={"z": ((128,), "float32")})
    assert any(d.is_error and d.code == "ASC955" for d in result.findings), [d.message for d in result.findings]
