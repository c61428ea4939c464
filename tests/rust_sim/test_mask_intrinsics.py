"""The mask-register compiler intrinsics `set_mask_count()`, `set_vector_mask(high, low)` and `set_mask_norm()`
(what AscendCUtils::SetMaskCount, SetVectorMask and SetMaskNorm call), as NPUKernelBench LayerNormV4's
single-read path uses them around `vcadd`: Counter mode with the row length as the count, then Normal mode
again for the AscendC calls. Before, each was an unresolved call and the core stopped (ASC958)."""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void rowsum(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, yBuf;
    pipe.InitBuffer(xBuf, 4 * 64 * sizeof(float));
    pipe.InitBuffer(yBuf, 64 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 4 * 64);
    yGm.SetGlobalBuffer((__gm__ float *)y, 64);
    LocalTensor<float> xLocal = xBuf.Get<float>();
    LocalTensor<float> yLocal = yBuf.Get<float>();
    DataCopy(xLocal, xGm, 4 * 64);
    PipeBarrier<PIPE_ALL>();
    Duplicate(yLocal, 0.0f, 64);
    for (uint32_t row = 0; row < 4; ++row) {
        set_mask_count();
        set_vector_mask(0x0, 50);  // the first 50 of the row's 64 elements
        vcadd(nullptr, (__ubuf__ float *)xLocal.GetPhyAddr() + row * 64, 1, 1, 1, 8, 1);
        PipeBarrier<PIPE_V>();
        int64_t acc = GetAccVal();
        float sum = *reinterpret_cast<float *>(&acc);
        set_mask_norm();
        yLocal.SetValue(row, sum);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, yLocal, 64);
}
"""


def test_counter_mode_count_from_set_vector_mask() -> None:
    x = (np.arange(256, dtype=np.float32) % 7).reshape(4, 64)
    result = run(KERNEL, {"x": x.reshape(-1)}, block_dim=1, outputs={"y": ((64,), "float32")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], errors
    expected = np.zeros(64, np.float32)
    expected[:4] = x[:, :50].sum(axis=1)
    np.testing.assert_allclose(result.outputs["y"], expected, rtol=1e-6)
