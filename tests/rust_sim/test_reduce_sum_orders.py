"""The order in which the vector sums add their terms (rust_sim/src/vector/reduce/order.rs has the evidence):
ReduceSum's count form adds each repeat's tree in sequence (method 2 on A2/A3), its mask form builds a tree of the
per-repeat trees (method 1), as AscendC::Sum and Mean do per row; BlockReduceSum is a tree per 32-byte block;
ReduceSum<float, pattern> folds at a power of two (AR: columns j + P onto j, then adjacent pairs; RA: rows by
halves). The simulator added every term in lane order and rounded once, which gives other values.

Half input, 4 repeats of 128 lanes: 1 at 7; 0.5 at 306; 1 at 384, 2048 at 414, 1 at 507 (the step is 2 from 2048
up, ties go to even):
- each repeat's tree: 1, 0, 0.5, and (1 + 2048 -> 2048) + 1 -> 2048
- in sequence (count form): 1 + 0 + 0.5 = 1.5, + 2048 = 2049.5 -> 2050
- as a tree (mask form, Sum): (1 + 0) + (0.5 + 2048 -> 2048) = 2049 -> 2048
- in lane order, each sum in half: 1, 1.5, 2.5, 2050.5 -> 2050, 2051 -> 2052; the simulator's old sum in f32,
  rounded once per repeat and once over the repeats: 2052
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

HALF_KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void sums(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> workBuf;
    pipe.InitBuffer(inQueue, 1, 640 * sizeof(half));
    pipe.InitBuffer(outQueue, 1, 96 * sizeof(half));
    pipe.InitBuffer(workBuf, 4096);
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, 640);
    yGm.SetGlobalBuffer((__gm__ half *)y, 96);
    LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
    DataCopy(xLocal, xGm, 640);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<half>();
    LocalTensor<half> yLocal = outQueue.AllocTensor<half>();
    LocalTensor<half> work = workBuf.Get<half>();
    Duplicate(yLocal, (half)0, 96);
    PipeBarrier<PIPE_V>();
    ReduceSum(yLocal, xLocal, work, 512);
    PipeBarrier<PIPE_V>();
    ReduceSum(yLocal[16], xLocal, work, 128, 4, 8);
    PipeBarrier<PIPE_V>();
    SumParams sumParams;
    sumParams.outter = 1;
    sumParams.inner = 512;
    sumParams.n = 512;
    Sum(yLocal[32], xLocal, workBuf.Get<uint8_t>(), sumParams);
    PipeBarrier<PIPE_V>();
    MeanParams meanParams;
    meanParams.outter = 1;
    meanParams.inner = 512;
    meanParams.n = 512;
    Mean(yLocal[48], xLocal, workBuf.Get<uint8_t>(), meanParams);
    PipeBarrier<PIPE_V>();
    BlockReduceSum(yLocal[64], xLocal[512], 1, 128, 1, 1, 8);
    PipeBarrier<PIPE_V>();
    outQueue.EnQue(yLocal);
    yLocal = outQueue.DeQue<half>();
    DataCopy(yGm, yLocal, 96);
    inQueue.FreeTensor(xLocal);
    outQueue.FreeTensor(yLocal);
}
"""


def test_half_sums_add_in_the_documented_orders() -> None:
    x = np.zeros(640, dtype=np.float16)
    x[[7, 306, 384, 414, 507]] = [1.0, 0.5, 1.0, 2048.0, 1.0]
    # one repeat for BlockReduceSum, block 0 (16 lanes): 1 at lane 1, 2048 at 5, 1 at 6, 0.5 at 7. The tree:
    # (0 + 1) = 1, (2048 + 0) + (1 + 0.5) = 2049.5 -> 2050, then 1 + 2050 = 2051 -> 2052; lane order 1,
    # 2049 -> 2048, 2049 -> 2048, 2048.5 -> 2048; f32 rounded once (the old simulator) 2050.5 -> 2050
    x[512 + np.array([1, 5, 6, 7])] = [1.0, 2048.0, 1.0, 0.5]
    result = run(HALF_KERNEL, {"x": x}, block_dim=1, outputs={"y": ((96,), "float16")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], [str(f) for f in errors]
    y = result.outputs["y"].astype(np.float32)
    in_lane_order = np.float16(0)
    for v in x[:512]:
        in_lane_order = np.float16(in_lane_order + v)
    assert in_lane_order == 2052.0
    assert y[0] == 2050.0, y[0]  # ReduceSum, count form: the repeats in sequence
    assert y[16] == 2048.0, y[16]  # ReduceSum, mask form: a tree of the repeats
    assert y[32] == 2048.0, y[32]  # Sum: a tree of the repeats
    # Mean<half>: the sum times half(1 / 512), in half: 2048 / 512 = 4 (the old 2052 / 512: 4.0078125)
    assert y[48] == 4.0, y[48]
    assert y[64] == 2052.0, y[64:72]
    assert not y[65:72].any(), y[64:72]


FLOAT_KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void sums(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(inQueue, 1, 216 * sizeof(float));
    pipe.InitBuffer(outQueue, 1, 16 * sizeof(float));
    pipe.InitBuffer(tmpBuf, 4096);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 216);
    yGm.SetGlobalBuffer((__gm__ float *)y, 16);
    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm, 216);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();
    LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    Duplicate(yLocal, 0.0f, 16);
    PipeBarrier<PIPE_V>();
    uint32_t arShape[2] = {2, 96};
    ReduceSum<float, Pattern::Reduce::AR>(yLocal, xLocal, tmpBuf.Get<uint8_t>(), arShape, true);
    PipeBarrier<PIPE_V>();
    uint32_t raShape[2] = {3, 8};
    ReduceSum<float, Pattern::Reduce::RA>(yLocal[8], xLocal[192], tmpBuf.Get<uint8_t>(), raShape, true);
    PipeBarrier<PIPE_V>();
    outQueue.EnQue(yLocal);
    yLocal = outQueue.DeQue<float>();
    DataCopy(yGm, yLocal, 16);
    inQueue.FreeTensor(xLocal);
    outQueue.FreeTensor(yLocal);
}
"""


def test_pattern_sums_fold_at_a_power_of_two() -> None:
    e = np.float32(2.0 ** -24)  # 1 + e is 1 in f32 (a tie, to even); 1 + 2e is exact
    want = np.float32(1.0) + np.float32(2.0) * e
    assert want != 1.0
    x = np.zeros(216, dtype=np.float32)
    # AR, row 0 of 96: P = 64, column 65 onto column 1 (e + e), then the pair (1, 2e); lane order 1 + e + e = 1
    x[[0, 1, 65]] = [1.0, e, e]
    # AR, row 1: the same at its start, and column 95 onto 31: unchanged
    x[[96, 97, 161]] = [1.0, e, e]
    # RA, 3 rows of 8 at 192: column 0 [e, 1, e]: row 2 onto row 0 (2e), then + 1; lane order e + 1 + e = 1
    x[[192, 200, 208]] = [e, 1.0, e]
    result = run(FLOAT_KERNEL, {"x": x}, block_dim=1, outputs={"y": ((16,), "float32")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], [str(f) for f in errors]
    y = result.outputs["y"]
    assert y[0] == want and y[1] == want, y[:2]
    assert y[8] == want, y[8:16]
    assert not y[9:16].any(), y[8:16]


MEAN_KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void means(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> workBuf;
    pipe.InitBuffer(inQueue, 1, 32 * sizeof(half));
    pipe.InitBuffer(outQueue, 1, 32 * sizeof(half));
    pipe.InitBuffer(workBuf, 4096);
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, 32);
    yGm.SetGlobalBuffer((__gm__ half *)y, 32);
    LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
    DataCopy(xLocal, xGm, 32);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<half>();
    LocalTensor<half> yLocal = outQueue.AllocTensor<half>();
    Duplicate(yLocal, (half)0, 32);
    PipeBarrier<PIPE_V>();
    MeanParams meanParams;
    meanParams.outter = 2;
    meanParams.inner = 16;
    meanParams.n = 11;
    Mean(yLocal, xLocal, workBuf.Get<uint8_t>(), meanParams);
    PipeBarrier<PIPE_V>();
    Mean<half, float>(yLocal[16], xLocal, workBuf.Get<uint8_t>(), meanParams);
    PipeBarrier<PIPE_V>();
    outQueue.EnQue(yLocal);
    yLocal = outQueue.DeQue<half>();
    DataCopy(yGm, yLocal, 32);
    inQueue.FreeTensor(xLocal);
    outQueue.FreeTensor(yLocal);
}
"""


def test_mean_multiplies_by_the_reciprocal_in_its_accumulation_type() -> None:
    # rows of eleven 1s and eleven 2s. Mean<half>: the sum times half(1 / 11) = 1489 * 2^-14, in half:
    # 11 * it = 2047.375 * 2^-11 -> 2047 * 2^-11 (0.99951172), twice that for the 2s. Mean<half, float>: the
    # float sum times 1.0f / 11 is 1.0 in f32, cast to half once: 1 and 2 (the sum divided by n, as before)
    x = np.zeros(32, dtype=np.float16)
    x[:11] = 1.0
    x[16:27] = 2.0
    result = run(MEAN_KERNEL, {"x": x}, block_dim=1, outputs={"y": ((32,), "float16")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], [str(f) for f in errors]
    y = result.outputs["y"].astype(np.float32)
    assert list(y[:2]) == [2047 / 2048, 2047 / 1024], y[:2]
    assert list(y[16:18]) == [1.0, 2.0], y[16:18]
