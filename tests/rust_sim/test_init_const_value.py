"""InitConstValue into L0A / L0B and MmadImpl, end to end: team kernels in the form of ops-nn's
conv3d_backprop_input_v2 L0C clearing (conv3d_backprop_input_v2_init_output.h SetL0CZero: InitConstValue of L0A
and L0B with a braced {repeatTimes, blockNum, dstGap, initValue}, then MmadImpl with cmatrixInitVal). A filled
with 2, B with 3: C = 2 * 3 * K everywhere; B filled in two iterations a fractal apart (dstGap 1) after a zero
fill: only the fractals written hold 3; the vendor's zeroing after a real product: C all 0. Semantics:
rust_sim/src/cube/fill.rs (InitConstValue / Fill into L1 / L0A / L0B) and cube/mmad.rs (MmadImpl runs as Mmad);
before, both calls did not resolve (the lowering's call gap, ASC958 when reached) in that vendor kernel.
"""

from __future__ import annotations

import numpy as np
import pytest

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;

// -D MODE: 0 A = 2, B = 3; 1 B = 3 in fractals 0 and 2 only (dstGap 1); 2 a product, then the vendor's zeroing
constexpr int32_t M = 32;
constexpr int32_t N = 48;
constexpr int32_t K = 16;

extern "C" __global__ __aicore__ void fill_mmad(GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    TPipe pipe;
    TBuf<TPosition::A2> a2Buf;
    TBuf<TPosition::B2> b2Buf;
    TBuf<TPosition::CO1> c1Buf;
    pipe.InitBuffer(a2Buf, M * K * sizeof(half));
    pipe.InitBuffer(b2Buf, K * N * sizeof(half));
    pipe.InitBuffer(c1Buf, M * N * sizeof(float));
    GlobalTensor<float> cGm;
    cGm.SetGlobalBuffer((__gm__ float *)c, M * N);
    LocalTensor<half> a2 = a2Buf.Get<half>();
    LocalTensor<half> b2 = b2Buf.Get<half>();
    LocalTensor<float> c1 = c1Buf.Get<float>();
    InitConstValue(a2, {1, static_cast<uint16_t>(M * K * sizeof(half) / 512), 0, (half)2.0});
    if (MODE == 1) {
        InitConstValue(b2, {1, static_cast<uint16_t>(K * N * sizeof(half) / 512), 0, (half)0.0});
        InitConstValue(b2, {2, 1, 1, (half)3.0});
    } else {
        InitConstValue(b2, {1, static_cast<uint16_t>(K * N * sizeof(half) / 512), 0, (half)3.0});
    }
    PipeBarrier<PIPE_ALL>();
    MmadParams mp;
    mp.m = M;
    mp.n = N;
    mp.k = K;
    mp.cmatrixInitVal = true;
    MmadImpl(c1, a2, b2, mp);
    PipeBarrier<PIPE_ALL>();
    if (MODE == 2) {
        // as SetL0CZero: zero L0A and L0B (a uint literal for the half value), C = A x B over k 1
        InitConstValue(a2, {1, static_cast<uint16_t>(M * K * sizeof(half) / 512), 0, 0U});
        InitConstValue(b2, {1, static_cast<uint16_t>(K * N * sizeof(half) / 512), 0, 0U});
        MmadParams zp;
        zp.m = M;
        zp.n = N;
        zp.k = 1;
        zp.cmatrixInitVal = true;
        PipeBarrier<PIPE_ALL>();
        MmadImpl(c1, a2, b2, zp);
        PipeBarrier<PIPE_ALL>();
    }
    FixpipeParamsV220 fp;
    fp.nSize = N;
    fp.mSize = M;
    fp.srcStride = M;
    fp.dstStride = N;
    fp.ndNum = 1;
    fp.srcNdStride = 0;
    fp.dstNdStride = 0;
    Fixpipe(cGm, c1, fp);
}
"""


def _run(mode: int) -> np.ndarray:
    result = run(KERNEL, [], block_dim=1, defines={"MODE": str(mode)},
                 outputs={"c": np.zeros((32, 48), np.float32)})
    assert result.ok, result.findings
    return result.outputs["c"]


def test_filled_a_and_b_multiply_to_the_product_of_the_values() -> None:
    np.testing.assert_array_equal(_run(0), np.full((32, 48), 2 * 3 * 16, np.float32))


def test_a_gap_between_iterations_leaves_those_fractals_alone() -> None:
    # L0B is ZN: K 16 is one row of N / 16 = 3 fractals; iterations at fractals 0 and 2 (dstGap 1): B's columns
    # 0..15 and 32..47 are 3, 16..31 stay 0
    want = np.zeros((32, 48), np.float32)
    want[:, :16] = want[:, 32:] = 2 * 3 * 16
    np.testing.assert_array_equal(_run(1), want)


@pytest.mark.parametrize("mode", [2])
def test_the_vendor_zeroing_of_l0c_after_a_product(mode: int) -> None:
    np.testing.assert_array_equal(_run(mode), np.zeros((32, 48), np.float32))


# conv3d_backprop_input_v2's ProcessWithL0 on two cube cores: each clears L0C as SetL0CZero does, writes its
# block of C, and meets the other at SyncAllCores' flag pair, CrossCoreSetFlag<0, PIPE_FIX>(SYNC_AIC_FLAG) /
# CrossCoreWaitFlag(SYNC_AIC_FLAG) (mode 0 among the AICs; the flag id is the library's constant, 11 in
# asc-devkit's dav_c220 kernel_operator_sync_impl.h: before, an undeclared name, ASC102, and the statement was
# not lowered)
TWO_CORES = """#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void clear_two(GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    TPipe pipe;
    TBuf<TPosition::A2> a2Buf;
    TBuf<TPosition::B2> b2Buf;
    TBuf<TPosition::CO1> c1Buf;
    pipe.InitBuffer(a2Buf, 16 * 16 * sizeof(half));
    pipe.InitBuffer(b2Buf, 16 * 16 * sizeof(half));
    pipe.InitBuffer(c1Buf, 16 * 16 * sizeof(float));
    GlobalTensor<float> cGm;
    cGm.SetGlobalBuffer((__gm__ float *)c + GetBlockIdx() * 256, 256);
    LocalTensor<half> a2 = a2Buf.Get<half>();
    LocalTensor<half> b2 = b2Buf.Get<half>();
    LocalTensor<float> c1 = c1Buf.Get<float>();
    InitConstValue(a2, {1, 1, 0, 0U});
    InitConstValue(b2, {1, 1, 0, 0U});
    MmadParams zp;
    zp.m = 16;
    zp.n = 16;
    zp.k = 1;
    zp.cmatrixInitVal = true;
    PipeBarrier<PIPE_ALL>();
    MmadImpl(c1, a2, b2, zp);
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsV220 fp;
    fp.nSize = 16;
    fp.mSize = 16;
    fp.srcStride = 16;
    fp.dstStride = 16;
    fp.ndNum = 1;
    fp.srcNdStride = 0;
    fp.dstNdStride = 0;
    Fixpipe(cGm, c1, fp);
    CrossCoreSetFlag<0, PIPE_FIX>(SYNC_AIC_FLAG);
    CrossCoreWaitFlag(SYNC_AIC_FLAG);
}
"""


def test_two_cube_cores_clear_their_blocks_and_meet_at_the_aic_flag() -> None:
    result = run(TWO_CORES, [], block_dim=2, outputs={"c": np.full((2, 16, 16), 7.0, np.float32)},
                 outputs_initialised=True)
    assert result.ok, result.findings
    np.testing.assert_array_equal(result.outputs["c"], np.zeros((2, 16, 16), np.float32))
