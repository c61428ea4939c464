"""RepeatReduceSum's mask overload (issue 29): the deprecated name of ReduceRepeat<SUM>, one sum per repeat like
WholeReduceSum, with repeatTime before mask and a dstBlkStride the docs call ineffective (asc-devkit
附录/接口变更说明.md; kernel_operator_vec_reduce_intf_impl.h: ReduceRepeatCommon<SUM>, dstBlkStride unused).
catlass 19_mla's softmax epilogue sums each row of a strided score tile with it (block_epilogue_mla_softmax.hpp,
`RepeatReduceSum<float, false>(dst, src, rows, 0, 0, 1, 1, kSeqTileRound / 8)` under a mask set before); the
simulator did not model it and the core stopped there.
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

ROWS, COLS = 4, 80  # a row of 80 floats: 10 blocks, the repeat stride

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void row_sums(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    pipe.InitBuffer(inQueue, 1, 320 * sizeof(float));
    pipe.InitBuffer(outQueue, 1, 24 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 320);
    yGm.SetGlobalBuffer((__gm__ float *)y, 24);
    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm, 320);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();
    LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    Duplicate(yLocal, -1.0f, 24);
    PipeBarrier<PIPE_V>();
    // the first 64 of each row, one sum a row at y[0..4) (dstRepStride 1 element; dstBlkStride 3 has no effect)
    RepeatReduceSum<float>(yLocal, xLocal, 4, 64, 3, 1, 1, 10);
    PipeBarrier<PIPE_V>();
    // the first 48 of each row, every other element from y[8]
    RepeatReduceSum<float>(yLocal[8], xLocal, 4, 48, 0, 1, 2, 10);
    PipeBarrier<PIPE_V>();
    // the mask the call finds (isSetMask false), as 19_mla calls it: lanes 0..15, then the mask back to full
    SetVectorMask<float, MaskMode::NORMAL>(0, 0xFFFF);
    RepeatReduceSum<float, false>(yLocal[16], xLocal, 4, 0, 0, 1, 1, 10);
    SetVectorMask<int8_t>((uint64_t)-1, (uint64_t)-1);
    PipeBarrier<PIPE_V>();
    outQueue.EnQue(yLocal);
    yLocal = outQueue.DeQue<float>();
    DataCopy(yGm, yLocal, 24);
    inQueue.FreeTensor(xLocal);
    outQueue.FreeTensor(yLocal);
}
"""


def test_repeat_reduce_sum_is_one_sum_per_repeat() -> None:
    x = (np.arange(ROWS * COLS) % 7 - 3).astype(np.float32)  # small integers: every order sums exactly
    result = run(KERNEL, {"x": x}, block_dim=1, outputs={"y": ((24,), "float32")})
    bad = [f for f in result.findings if f.severity.name in ("ERROR", "WARNING")]
    assert bad == [], bad
    rows = x.reshape(ROWS, COLS)
    y = result.outputs["y"]
    np.testing.assert_array_equal(y[0:4], rows[:, :64].sum(axis=1))
    np.testing.assert_array_equal(y[4:8], -1.0)  # past the 4 results: untouched
    np.testing.assert_array_equal(y[8:16:2], rows[:, :48].sum(axis=1))
    np.testing.assert_array_equal(y[9:16:2], -1.0)  # dstRepStride 2: the odd ones untouched
    np.testing.assert_array_equal(y[16:20], rows[:, :16].sum(axis=1))
    np.testing.assert_array_equal(y[20:24], -1.0)
