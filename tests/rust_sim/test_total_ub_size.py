"""TOTAL_UB_SIZE and TOTAL_L0C_SIZE (asc-devkit impl/basic_api/utils/kernel_utils_constants.h) are the chip's UB and
L0C sizes: 192 / 128 KiB on the 2201 chips, 248 / 256 KiB on 3510 (the 950). They were declared but unknown, so
a kernel splitting its UB by them put the second half at an unknown offset, with no finding: ops-nn mat_mul_v3's
ND-to-NZ copy (mat_mul_nd2nz.h, `transBuf = tempUb[(TOTAL_UB_SIZE / NUM_TWO) / sizeof(T)]`) turned rows into
fractals in place and came out shuffled, and the Matmul of 50x100 @ 100x70 read it (bench/README.md, session 14,
engineer mmv3c). The kernels below are the team's.
"""

from __future__ import annotations

import numpy as np
import pytest

from passes.sim import run

SPLIT = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void halves(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, TOTAL_UB_SIZE);
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, 16 * 128);
    yGm.SetGlobalBuffer((__gm__ half *)y, 16 * 128);
    LocalTensor<half> rows = ub.Get<half>();
    LocalTensor<half> fractals = rows[(TOTAL_UB_SIZE / 2) / sizeof(half)];  // the second half of UB
    DataCopy(rows, xGm, 16 * 128);
    PipeBarrier<PIPE_ALL>();
    uint16_t height = 16;
    uint16_t rowBlocks = 8;
    // 16 rows of 128 halves to eight 16 x 16 fractals: block b of row i lands at i * 16 + b * 256
    Copy(fractals, rows, 128, 16, {height, 1, 1, rowBlocks});
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, fractals, 16 * 128);
}
"""

SIZES = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void sizes(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<uint32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ uint32_t *)y, 2);
    yGm.SetValue(0, TOTAL_UB_SIZE);
    yGm.SetValue(1, TOTAL_L0C_SIZE);
    DataCacheCleanAndInvalid<uint32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(yGm);
}
"""


def test_a_kernel_splitting_ub_by_total_ub_size_gets_two_halves() -> None:
    x = np.arange(16 * 128).astype(np.float16)
    result = run(SPLIT, {"x": x}, block_dim=1, outputs={"y": ((16 * 128,), "float16")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], errors
    np.testing.assert_array_equal(result.outputs["y"], x.reshape(16, 8, 16).transpose(1, 0, 2).reshape(-1))


@pytest.mark.parametrize(("chip", "ub", "l0c"), [("910B2", 192 * 1024, 128 * 1024), ("950PR", 248 * 1024, 256 * 1024)])
def test_total_sizes_are_the_chips(chip: str, ub: int, l0c: int) -> None:
    result = run(SIZES, {}, chip=chip, block_dim=1, outputs={"y": ((2,), "uint32")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], errors
    assert list(result.outputs["y"]) == [ub, l0c]
