"""The vcadd compiler intrinsic on UB pointers and GetAccVal / get_acc_val, as vendor norm kernels write them
(NPUKernelBench AddLayerNormGrad's ReduceSumFP32, RmsNorm's reduce_common.h): mode 1 with a nullptr dst sums
every repeat into ACC_VAL, read back as float bits; mode 0 writes one sum per repeat. Before, vcadd was an
opaque intrinsic and the sums were never computed.
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline float SumAll(const LocalTensor<float> &src, int32_t count)
{
    int32_t perRep = 64;
    int32_t repeatTimes = count / perRep;
    int32_t tail = count % perRep;
    float value = 0.0;
    if (repeatTimes > 0) {
        AscendCUtils::SetMask<float>(perRep);
        vcadd(nullptr, (__ubuf__ float *)src.GetPhyAddr(), repeatTimes, 1, 1, 8, true);
        set_flag(PIPE_V, PIPE_S, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_S, EVENT_ID0);
        uint64_t acc = GetAccVal();
        value = *reinterpret_cast<float *>(&acc);
    }
    if (tail != 0) {
        AscendCUtils::SetMask<float>(tail);
        vcadd(nullptr, (__ubuf__ float *)src[repeatTimes * perRep].GetPhyAddr(), 1, 1, 1, 8, true);
        set_flag(PIPE_V, PIPE_S, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_S, EVENT_ID0);
        uint64_t acc = get_acc_val();
        value += *reinterpret_cast<float *>(&acc);
    }
    return value;
}

extern "C" __global__ __aicore__ void sums(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    pipe.InitBuffer(inQueue, 1, 256 * sizeof(float));
    pipe.InitBuffer(outQueue, 1, 64 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 256);
    yGm.SetGlobalBuffer((__gm__ float *)y, 64);
    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm, 256);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();
    LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    Duplicate(yLocal, 0.0f, 64);
    PipeBarrier<PIPE_V>();
    // mode 0: one sum of 16 lanes per row of 64, for the 4 rows, written 2 elements apart from y[2]
    AscendCUtils::SetMask<float>(16);
    vcadd((__ubuf__ float *)yLocal.GetPhyAddr() + 2, (__ubuf__ float *)xLocal.GetPhyAddr(), 4, 2, 1, 8, false);
    PipeBarrier<PIPE_V>();
    ResetMask();
    float total = SumAll(xLocal, 200);
    yLocal.SetValue(0, total);
    outQueue.EnQue(yLocal);
    yLocal = outQueue.DeQue<float>();
    DataCopy(yGm, yLocal, 64);
    inQueue.FreeTensor(xLocal);
    outQueue.FreeTensor(yLocal);
}
"""


def test_vcadd_modes_and_acc_val() -> None:
    x = np.arange(256, dtype=np.float32) / 8
    result = run(KERNEL, {"x": x}, block_dim=1, outputs={"y": ((64,), "float32")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], errors
    y = result.outputs["y"]
    # mode 1: the sum of x[0:200], from 3 full repeats and a tail of 8 lanes
    assert y[0] == np.float32(x[:200].sum())
    # mode 0: row r's first 16 lanes to y[2 + 2 r]
    for r in range(4):
        assert y[2 + 2 * r] == np.float32(x[64 * r:64 * r + 16].sum()), (r, y[:12])
    assert y[3] == 0 and y[1] == 0
