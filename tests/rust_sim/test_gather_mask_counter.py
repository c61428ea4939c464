"""GatherMask in counter mode (reduceMode true): with repeatTimes > 1 and a mask that fits one repeat, mask elements
are gathered in each of repeatTimes repeats (asc-devkit's TopK Small mode extracts each row's k pairs so, repeatTimes
= rows and mask = 64 floats, as do ops-transformer's moe_gating_top_k group scores and moe_gating_top_k_softmax_v2's
per-row extraction); before, the simulator took mask as the total and ran one repeat. With repeatTimes 1, mask stays
the total count over as many repeats as it needs.
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void gm(GM_ADDR x, GM_ADDR y, GM_ADDR cnt, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, yBuf, patBuf;
    pipe.InitBuffer(xBuf, 256 * sizeof(float));
    pipe.InitBuffer(yBuf, 256 * sizeof(float));
    pipe.InitBuffer(patBuf, 32);
    GlobalTensor<float> xGm, yGm;
    GlobalTensor<uint32_t> cntGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 256);
    yGm.SetGlobalBuffer((__gm__ float *)y, 8);
    cntGm.SetGlobalBuffer((__gm__ uint32_t *)cnt, 1);
    LocalTensor<float> xLocal = xBuf.Get<float>();
    LocalTensor<float> yLocal = yBuf.Get<float>();
    LocalTensor<uint32_t> pattern = patBuf.Get<uint32_t>();
    DataCopy(xLocal, xGm, 256);
    Duplicate(yLocal, -1.0f, 64);
    pattern.SetValue(0, 0b101);  // elements 0 and 2 of each repeat
    pattern.SetValue(1, 0);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    SetFlag<HardEvent::S_V>(EVENT_ID0);
    WaitFlag<HardEvent::S_V>(EVENT_ID0);
    GatherMaskParams params;
    params.src0BlockStride = 1;
    params.repeatTimes = REPEATS;
    params.src0RepeatStride = 8;
    params.src1RepeatStride = 0;
    uint64_t rsvdCnt = 0;
    GatherMask(yLocal, xLocal, pattern, true, MASK, params, rsvdCnt);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, yLocal, 8);
    SetFlag<HardEvent::V_S>(EVENT_ID0);
    WaitFlag<HardEvent::V_S>(EVENT_ID0);
    cntGm.SetValue(0, (uint32_t)rsvdCnt);
}
"""


def _run(repeats: int, mask: int) -> object:
    x = np.arange(256, dtype=np.float32)
    source = KERNEL.replace("REPEATS", str(repeats)).replace("MASK", str(mask))
    return run(source, {"x": x}, chip="910B2", block_dim=1,
               outputs={"y": ((8,), "float32"), "cnt": ((1,), "uint32")})


def test_mask_elements_in_each_of_repeat_times_repeats() -> None:
    result = _run(4, 64)
    assert not [f for f in result.findings if f.severity.name == "ERROR"], result.findings
    np.testing.assert_array_equal(result.outputs["y"], [0, 2, 64, 66, 128, 130, 192, 194])
    assert result.outputs["cnt"][0] == 8


def test_one_repeat_time_keeps_mask_as_the_total() -> None:
    result = _run(1, 128)  # two repeats' worth: the pattern again on the second
    assert not [f for f in result.findings if f.severity.name == "ERROR"], result.findings
    np.testing.assert_array_equal(result.outputs["y"][:4], [0, 2, 64, 66])
    np.testing.assert_array_equal(result.outputs["y"][4:], [-1, -1, -1, -1])
    assert result.outputs["cnt"][0] == 4
