"""And with a zero byte (Or with an all-ones byte) decides the result byte whatever the other operand holds, so
that byte counts as written even where the other operand's is not: ops-math diag_v2 loads a few rows of a 64 x 64
tile, ANDs the whole tile with a diagonal mask and ORs the rows together, and its output was an ASC952 error
('writes ... that come from memory nothing wrote') on every core, although the unloaded rows meet only zero mask
bytes. Bytes that the written operand does not decide stay unwritten."""

from __future__ import annotations

import numpy as np

from passes.sim.launch import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void pick(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4 * 64 * sizeof(int16_t));
    LocalTensor<int16_t> all = buf.Get<int16_t>();
    LocalTensor<int16_t> xl = all[0];
    LocalTensor<int16_t> ml = all[64];
    LocalTensor<int16_t> yl = all[128];
    LocalTensor<int16_t> zl = all[192];
    GlobalTensor<int16_t> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ int16_t *)x, 64);
    yGm.SetGlobalBuffer((__gm__ int16_t *)y, 64);
    zGm.SetGlobalBuffer((__gm__ int16_t *)z, 64);
    DataCopy(xl, xGm, 16);                 // only the first 16 elements are loaded
    Duplicate(ml, (int16_t)0, 64);
    Duplicate(ml, (int16_t)-1, FIRST);     // the mask keeps the first FIRST elements
    PipeBarrier<PIPE_V>();
    And(yl, ml, xl, 64);                   // the rest: 0, decided by the mask's zero bytes
    Not(ml, ml, 64);
    PipeBarrier<PIPE_V>();
    Or(zl, ml, xl, 64);                    // the rest: -1, decided by the mask's all-ones bytes
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, yl, 64);
    DataCopy(zGm, zl, 64);
}
"""


def _run(first: int):
    x = np.arange(1, 65, dtype=np.int16)
    return run(KERNEL.replace("FIRST", str(first)), {"x": x}, block_dim=1,
               outputs={"y": ((64,), "int16"), "z": ((64,), "int16")}), x


def test_bytes_a_mask_decides_are_written() -> None:
    result, x = _run(16)
    assert not [f for f in result.findings if f.code == "ASC952"], result.findings
    want_y = np.where(np.arange(64) < 16, x, 0)
    want_z = np.where(np.arange(64) < 16, x, -1)
    np.testing.assert_array_equal(result.outputs["y"], want_y)
    np.testing.assert_array_equal(result.outputs["z"], want_z)


def test_bytes_the_mask_does_not_decide_stay_unwritten() -> None:
    result, _ = _run(32)  # elements 16..31 of x were never loaded and the mask keeps them
    hits = [f for f in result.findings if f.code == "ASC952"]
    assert hits and "'y'" in hits[0].message, result.findings
