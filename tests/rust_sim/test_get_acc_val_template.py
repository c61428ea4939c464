"""`GetAccVal<float>()` after ReduceSum's count form, as ops-nn add_layer_norm / deep_norm read a row's sum
(their ReduceSumFP32): on 2201 that ReduceSum is one vcadd in accumulate mode, which leaves the sum in SPR.ACC_VAL,
and the template form reads the register's low bits as T. Before, the template form was 'no matching function'
(ASC101: the catalog has the int64_t form only) and ReduceSum left ACC_VAL as it was.
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void row_sums(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    pipe.InitBuffer(inQueue, 1, 200 * sizeof(float));
    pipe.InitBuffer(outQueue, 1, 8 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 200);
    yGm.SetGlobalBuffer((__gm__ float *)y, 8);
    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm, 200);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();
    LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    Duplicate(yLocal, 0.0f, 8);
    PipeBarrier<PIPE_V>();
    ResetMask();
    ReduceSum(xLocal, xLocal, xLocal, 200);   // the count form, in place: ACC_VAL = the sum of x[0:200]
    set_flag(PIPE_V, PIPE_S, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_S, EVENT_ID0);
    float total = GetAccVal<float>();
    int64_t raw = GetAccVal();
    yLocal.SetValue(0, total);
    yLocal.SetValue(1, *reinterpret_cast<float *>(&raw));
    outQueue.EnQue(yLocal);
    yLocal = outQueue.DeQue<float>();
    DataCopy(yGm, yLocal, 8);
    inQueue.FreeTensor(xLocal);
    outQueue.FreeTensor(yLocal);
}
"""


def test_get_acc_val_float_reads_reduce_sums_total() -> None:
    x = (np.arange(200, dtype=np.float32) - 50) / 4
    result = run(KERNEL, {"x": x}, block_dim=1, outputs={"y": ((8,), "float32")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], errors
    y = result.outputs["y"]
    expected = np.float32(x.astype(np.float64).sum())  # small integers / 4: exact in any order
    assert y[0] == expected, y
    assert y[1] == expected, y
