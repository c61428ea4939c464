"""MulAddDst and Axpy read dst as their addend, and that read steps with dst's own repeat stride (asc-devkit docs
MulAddDst.md: dst_i = src0_i * src1_i + dst_i, one dst operand under BinaryRepeatParams' dst strides). catlass's
TileVmad (gemv/tile/tile_vmad.hpp, float row-major) multiplies a tile of rows by a vector so: Counter mode over
rows * 64 elements, one repeat per row, dstRepStride = src0RepStride = a row, src1RepStride 0. The simulator gave
the addend the default repeat stride (8 blocks): row r added row 0's columns 64r.. instead of its own, and only
row 0 of each tile came out right (issue 29, 17_gemv_aiv).
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

ROWS, COLS = 4, 256

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void gm(GM_ADDR a, GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> aBuf, xBuf;
    pipe.InitBuffer(aBuf, 4 * 256 * sizeof(float));
    pipe.InitBuffer(xBuf, 256 * sizeof(float));
    GlobalTensor<float> aGm, xGm, yGm;
    aGm.SetGlobalBuffer((__gm__ float *)a, 4 * 256);
    xGm.SetGlobalBuffer((__gm__ float *)x, 256);
    yGm.SetGlobalBuffer((__gm__ float *)y, 4 * 256);
    LocalTensor<float> aLocal = aBuf.Get<float>();
    LocalTensor<float> xLocal = xBuf.Get<float>();
    DataCopy(aLocal, aGm, 4 * 256);
    DataCopy(xLocal, xGm, 256);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    BinaryRepeatParams params;
    params.dstBlkStride = 1;
    params.src0BlkStride = 1;
    params.src1BlkStride = 1;
    params.dstRepStride = 256 / 8;  // a row of 256 floats, in 32-byte blocks
    params.src0RepStride = 256 / 8;
    params.src1RepStride = 0;
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(4 * 64);  // 64 columns of each of the 4 rows
    // columns 0..64 of each row: a * x; then each further 64 columns multiplied and added onto them
    Mul<float, false>(aLocal, aLocal, xLocal, MASK_PLACEHOLDER, 1, params);
    PipeBarrier<PIPE_V>();
    for (uint32_t i = 1; i < 256 / 64; i++) {
        MulAddDst<float, float, false>(aLocal, aLocal[i * 64], xLocal[i * 64], MASK_PLACEHOLDER, 1, params);
        PipeBarrier<PIPE_V>();
    }
    SetMaskNorm();
    ResetMask();
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, aLocal, 4 * 256);
}
"""


def test_counter_mode_mul_add_dst_accumulates_each_row_into_its_own_columns() -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((ROWS, COLS)).astype(np.float32)
    x = rng.standard_normal(COLS).astype(np.float32)
    result = run(KERNEL, {"a": a.ravel(), "x": x}, chip="910B2", block_dim=1,
                 outputs={"y": ((ROWS * COLS,), "float32")})
    assert not [f for f in result.findings if f.severity.name == "ERROR"], result.findings
    y = result.outputs["y"].reshape(ROWS, COLS)
    # the partial sums of each row, 64 columns at a time, in the kernel's order
    want = a[:, :64] * x[:64]
    for i in range(1, COLS // 64):
        want = a[:, 64 * i:64 * (i + 1)] * x[64 * i:64 * (i + 1)] + want
    np.testing.assert_allclose(y[:, :64], want, rtol=1e-6, atol=1e-6)
    # the columns past 64 are src0 only: left as loaded
    np.testing.assert_array_equal(y[:, 64:], a[:, 64:])
