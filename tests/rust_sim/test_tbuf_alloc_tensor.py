"""TBuf::AllocTensor<T>() / FreeTensor (the queue interface TBuf inherits from TQueBind, asc-devkit kernel_tpipe.h):
the buffer's whole block as Get<T>() gives it, and a FreeTensor that changes nothing. asc-devkit's layernorm_v2
example takes its Normalize scratch this way; before, the simulator stopped there (ASC958 'does not model
AscendC::AllocTensor')."""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    yGm.SetGlobalBuffer((__gm__ float *)y, 64);
    pipe.InitBuffer(buf, 64 * sizeof(float));
    LocalTensor<float> t = buf.AllocTensor<float>();
    DataCopy(t, xGm, 64);
    PipeBarrier<PIPE_ALL>();
    Adds(t, t, 1.0f, 64);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<float> same = buf.Get<float>();
    DataCopy(yGm, same, 64);
    PipeBarrier<PIPE_ALL>();
    buf.FreeTensor(t);
}
"""


def test_tbuf_alloc_tensor_is_its_block() -> None:
    x = np.arange(64, dtype=np.float32)
    result = run(KERNEL, [x], outputs={"y": np.zeros(64, np.float32)}, block_dim=1)
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], x + 1)
