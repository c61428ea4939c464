"""The library-internal FMATRIX setter before a LoadData3DParamsV2Pro load, end to end: a team-written float
matmul in the form of ops-nn transpose_batch_mat_mul's float B path (pp_matmul_ein_sum_kernel.h:
Load3DSetFMatrixCal(1, K, padList), then LoadData(l0b, l1b, LoadData3DParamsV2Pro(N, false, false, false,
false, false, K << 16 | N, 0x10101010101))): A through a Load3Dv2 into L0A, B through that pair into L0B, both
from ND2NZ layouts in L1 zeroed first with InitConstValue (32-byte blocks); Mmad with kDirectionAlign, Fixpipe.
Against numpy on shapes with M, N and K tails. Semantics: rust_sim/src/cube/load3d.rs (Load3DSetFMatrixCal /
BCal / Load3DSetPaddingCal set what SetFmatrix and SetLoadDataPaddingValue set) and cube/fill.rs. Before, the
setter was catalogued but not simulated (ASC958) and V2Pro's eight-argument constructor was not known.
"""

from __future__ import annotations

import numpy as np
import pytest

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t M_PAD = (M + 15) / 16 * 16;
constexpr int32_t K_PAD = (K + 15) / 16 * 16;
constexpr int32_t N_PAD = (N + 15) / 16 * 16;

extern "C" __global__ __aicore__ void mm_pro(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    TPipe pipe;
    TBuf<TPosition::A1> a1Buf;
    TBuf<TPosition::B1> b1Buf;
    TBuf<TPosition::A2> a2Buf;
    TBuf<TPosition::B2> b2Buf;
    TBuf<TPosition::CO1> c1Buf;
    pipe.InitBuffer(a1Buf, M_PAD * K_PAD * sizeof(float));
    pipe.InitBuffer(b1Buf, K_PAD * N_PAD * sizeof(float));
    pipe.InitBuffer(a2Buf, M_PAD * K_PAD * sizeof(float));
    pipe.InitBuffer(b2Buf, K_PAD * N_PAD * sizeof(float));
    pipe.InitBuffer(c1Buf, M_PAD * N_PAD * sizeof(float));
    GlobalTensor<float> aGm;
    GlobalTensor<float> bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ float *)a, M * K);
    bGm.SetGlobalBuffer((__gm__ float *)b, K * N);
    cGm.SetGlobalBuffer((__gm__ float *)c, M * N);
    LocalTensor<float> a1 = a1Buf.Get<float>();
    LocalTensor<float> b1 = b1Buf.Get<float>();
    LocalTensor<float> a2 = a2Buf.Get<float>();
    LocalTensor<float> b2 = b2Buf.Get<float>();
    LocalTensor<float> c1 = c1Buf.Get<float>();
    // L1 zeroed in 32-byte blocks, then A as [K_PAD / 8][M_PAD][8] and B as [N_PAD / 8][K_PAD][8]
    InitConstValue(a1, {1, static_cast<uint16_t>(M_PAD * K_PAD * sizeof(float) / 32), 0, 0.0f});
    InitConstValue(b1, {1, static_cast<uint16_t>(K_PAD * N_PAD * sizeof(float) / 32), 0, 0.0f});
    PipeBarrier<PIPE_ALL>();
    Nd2NzParams na;
    na.ndNum = 1;
    na.nValue = M;
    na.dValue = K;
    na.srcNdMatrixStride = 0;
    na.srcDValue = K;
    na.dstNzC0Stride = M_PAD;
    na.dstNzNStride = 1;
    na.dstNzMatrixStride = 0;
    DataCopy(a1, aGm, na);
    Nd2NzParams nb;
    nb.ndNum = 1;
    nb.nValue = K;
    nb.dValue = N;
    nb.srcNdMatrixStride = 0;
    nb.srcDValue = N;
    nb.dstNzC0Stride = K_PAD;
    nb.dstNzNStride = 1;
    nb.dstNzMatrixStride = 0;
    DataCopy(b1, bGm, nb);
    PipeBarrier<PIPE_ALL>();
    uint8_t noPad[4] = {0, 0, 0, 0};
    // A = the 1 x M_PAD map of K_PAD channels: M_PAD x K_PAD into L0A
    LoadData3DParamsV2<float> pa(noPad, 1, M_PAD, K_PAD, K_PAD, M_PAD, 0, 0, 1, 1, 1, 1, 1, 1, false, false, 0);
    LoadData(a2, a1, pa);
    // B = the 1 x K_PAD map of N_PAD channels: K_PAD x N_PAD into L0B, the map from the left FMATRIX register
    Load3DSetFMatrixCal(1, K_PAD, noPad);
    uint64_t extConfig = ((uint64_t)K_PAD << 16) | (uint64_t)N_PAD;
    LoadData(b2, b1, LoadData3DParamsV2Pro(N_PAD, false, false, false, false, false, extConfig, 0x10101010101));
    PipeBarrier<PIPE_ALL>();
    MmadParams mp;
    mp.m = M;
    mp.n = N;
    mp.k = K;
    mp.kDirectionAlign = true;
    mp.cmatrixInitVal = true;
    Mmad(c1, a2, b2, mp);
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsV220 fp;
    fp.nSize = N;
    fp.mSize = M;
    fp.srcStride = M_PAD;
    fp.dstStride = N;
    fp.ndNum = 1;
    fp.srcNdStride = 0;
    fp.dstNdStride = 0;
    Fixpipe(cGm, c1, fp);
}
"""


@pytest.mark.parametrize("m, n, k", [(30, 70, 40), (17, 24, 70)])
def test_float_matmul_with_b_through_the_internal_setter_and_v2pro_matches_numpy(m: int, n: int, k: int) -> None:
    rng = np.random.default_rng(m + n + k)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float32)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float32)
    want = a.astype(np.float64) @ b.astype(np.float64)
    result = run(KERNEL, [a, b], block_dim=1, defines={"M": str(m), "N": str(n), "K": str(k)},
                 outputs={"c": np.zeros((m, n), np.float32)})
    assert result.ok, result.findings
    np.testing.assert_allclose(result.outputs["c"], want, rtol=1e-5, atol=1e-5)
