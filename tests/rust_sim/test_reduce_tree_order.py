"""The order vcadd (the intrinsic, and WholeReduceSum on it) adds one repeat's lanes: ReduceSum's page documents
a binary tree within a repeat, data0 + data1, data2 + data3, ..., then pairwise again. The simulator summed the
lanes in order, which rounds differently: with lanes [1, 0, e, e] (e = 2^-24) in order 1 + e stays 1 twice, where
the tree adds e + e first and gets 1 + 2e (issue 30: NPUKernelBench InplaceAddRmsNorm's reduce_common.h sums each
row's 64 partial sums with vcadd).
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void sums(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    pipe.InitBuffer(inQueue, 1, 128 * sizeof(float));
    pipe.InitBuffer(outQueue, 1, 8 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 128);
    yGm.SetGlobalBuffer((__gm__ float *)y, 8);
    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm, 128);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();
    LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    Duplicate(yLocal, 0.0f, 8);
    PipeBarrier<PIPE_V>();
    AscendCUtils::SetMask<float>(64);
    vcadd((__ubuf__ float *)yLocal.GetPhyAddr(), (__ubuf__ float *)xLocal.GetPhyAddr(), 2, 1, 1, 8, false);
    PipeBarrier<PIPE_V>();
    WholeReduceSum(yLocal[4], xLocal, 64, 2, 1, 1, 8);
    PipeBarrier<PIPE_V>();
    outQueue.EnQue(yLocal);
    yLocal = outQueue.DeQue<float>();
    DataCopy(yGm, yLocal, 8);
    inQueue.FreeTensor(xLocal);
    outQueue.FreeTensor(yLocal);
}
"""


def test_a_repeat_sums_as_a_tree_of_adjacent_pairs() -> None:
    e = np.float32(2.0 ** -24)
    x = np.zeros(128, dtype=np.float32)
    x[0:4] = [1.0, 0.0, e, e]  # repeat 0: the tree gives 1 + 2e, lane order 1
    x[64:68] = [e, e, 1.0, 0.0]  # repeat 1: 1 + 2e either way
    result = run(KERNEL, {"x": x}, block_dim=1, outputs={"y": ((8,), "float32")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], errors
    y = result.outputs["y"]
    want = np.float32(1.0) + np.float32(2.0) * e
    assert want != np.float32(1.0)
    assert y[0] == want and y[1] == want, y  # vcadd, mode 0
    assert y[4] == want and y[5] == want, y  # WholeReduceSum
