"""Load3Dv2 of int8 into L0A with enTranspose, end to end: a team-written int8 weight gradient in the transposed
orientation, dW^T = img2col(X)^T x dY (int8 x int8 -> int32), against numpy. The 5HD map X [C1][H][W][32] goes
into L0A through one Load3Dv2 with enTranspose (A = the img2col window transposed: its M the (c1, kh, kw, c0)
columns, its K the output positions padded to whole 32 x 32 squares); dY^T (Cout x the padded positions, zero
past them) through ND2NZ and LoadData 2D into L0B, as asc-devkit's mmad_load3dv2 example loads its int8 B; Mmad
into int32 and Fixpipe out. The tails: 20 and 40 input channels (padded to 32 / 64), 30 and 42 output positions
(padded to 32 / 64), Cout 24 and 10; a 1 x 1 filter over a 1 x K map is the plain A-stored-K-by-M matmul (M 50,
N 20, K 70). With -D SMALL_K=true the same loads set enSmallK, which the 910B's implementation does not pass to
the instruction: the results are the same. Semantics: rust_sim/src/cube/load3d.rs; before, the int8 transposing
load and enSmallK were reported as not modelled (ASC958).
"""

from __future__ import annotations

import numpy as np
import pytest

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;

// -D: CIN, H, W, COUT, FH (= FW), STRIDE, PAD, SMALL_K
constexpr int32_t C0 = 32;
constexpr int32_t C1 = (CIN + C0 - 1) / C0;
constexpr int32_t HO = (H + 2 * PAD - FH) / STRIDE + 1;
constexpr int32_t WO = (W + 2 * PAD - FH) / STRIDE + 1;
constexpr int32_t P = HO * WO;
constexpr int32_t PPAD = (P + 31) / 32 * 32;          // K of the Mmad: whole 32 x 32 squares
constexpr int32_t KTOT = C1 * FH * FH * C0;           // M of the Mmad: the img2col columns
constexpr int32_t NPAD = (COUT + 15) / 16 * 16;

extern "C" __global__ __aicore__ void dw_int8(GM_ADDR x, GM_ADDR dyt, GM_ADDR dwt, GM_ADDR workspace,
                                              GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    TPipe pipe;
    TBuf<TPosition::A1> a1Buf;
    TBuf<TPosition::B1> b1Buf;
    TBuf<TPosition::A2> a2Buf;
    TBuf<TPosition::B2> b2Buf;
    TBuf<TPosition::CO1> c1Buf;
    pipe.InitBuffer(a1Buf, C1 * H * W * C0);
    pipe.InitBuffer(b1Buf, PPAD * NPAD);
    pipe.InitBuffer(a2Buf, KTOT * PPAD);
    pipe.InitBuffer(b2Buf, PPAD * NPAD);
    pipe.InitBuffer(c1Buf, KTOT * NPAD * sizeof(int32_t));
    GlobalTensor<int8_t> xGm;
    GlobalTensor<int8_t> dyGm;
    GlobalTensor<int32_t> dwGm;
    xGm.SetGlobalBuffer((__gm__ int8_t *)x, C1 * H * W * C0);
    dyGm.SetGlobalBuffer((__gm__ int8_t *)dyt, COUT * PPAD);
    dwGm.SetGlobalBuffer((__gm__ int32_t *)dwt, KTOT * COUT);
    LocalTensor<int8_t> a1 = a1Buf.Get<int8_t>();
    LocalTensor<int8_t> b1 = b1Buf.Get<int8_t>();
    LocalTensor<int8_t> a2 = a2Buf.Get<int8_t>();
    LocalTensor<int8_t> b2 = b2Buf.Get<int8_t>();
    LocalTensor<int32_t> c1 = c1Buf.Get<int32_t>();
    DataCopy(a1, xGm, C1 * H * W * C0);
    // dY^T (COUT rows of PPAD) as B given N x K: [PPAD / 32][NPAD][32] in L1
    Nd2NzParams nd;
    nd.ndNum = 1;
    nd.nValue = COUT;
    nd.dValue = PPAD;
    nd.srcNdMatrixStride = 0;
    nd.srcDValue = PPAD;
    nd.dstNzC0Stride = NPAD;
    nd.dstNzNStride = 1;
    nd.dstNzMatrixStride = 0;
    DataCopy(b1, dyGm, nd);
    PipeBarrier<PIPE_ALL>();
    uint8_t pads[4] = {PAD, PAD, PAD, PAD};
    // A = img2col(X)^T: the PPAD x KTOT window from (0, 0), transposed into L0A (KTOT x PPAD)
    LoadData3DParamsV2<int8_t> pa(pads, H, W, C1 * C0, KTOT, PPAD, 0, 0, STRIDE, STRIDE, FH, FH, 1, 1, true,
                                  SMALL_K, 0);
    LoadData(a2, a1, pa);
    LoadData2DParams pb;
    pb.startIndex = 0;
    pb.repeatTimes = NPAD / 16;
    pb.srcStride = 1;
    pb.dstGap = 0;
    pb.ifTranspose = false;
    for (int32_t i = 0; i < PPAD / C0; i++) {
        LoadData(b2[i * NPAD * C0], b1[i * NPAD * C0], pb);
    }
    PipeBarrier<PIPE_ALL>();
    Mmad(c1, a2, b2, MmadParams(KTOT, COUT, PPAD, 0, false, true));
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsV220 fp;
    fp.nSize = COUT;
    fp.mSize = KTOT;
    fp.srcStride = KTOT;
    fp.dstStride = COUT;
    fp.ndNum = 1;
    fp.srcNdStride = 0;
    fp.dstNdStride = 0;
    Fixpipe(dwGm, c1, fp);
}
"""


def _img2col(x5: np.ndarray, f: int, stride: int, pad: int) -> np.ndarray:
    """X[p][k] of an f x f window over the 5HD map x5 [C1][H][W][32], k in (c1, kh, kw, c0) order, int64."""
    c1, h, w, c0 = x5.shape
    xp = np.pad(x5.astype(np.int64), ((0, 0), (pad, pad), (pad, pad), (0, 0)))
    ho, wo = (h + 2 * pad - f) // stride + 1, (w + 2 * pad - f) // stride + 1
    out = np.zeros((ho * wo, c1, f, f, c0), np.int64)
    for oh in range(ho):
        for ow in range(wo):
            out[oh * wo + ow] = xp[:, oh * stride:oh * stride + f, ow * stride:ow * stride + f, :]
    return out.reshape(ho * wo, -1)


def _case(cin: int, h: int, w: int, cout: int, f: int, stride: int, pad: int, small_k: str = "false",
          seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    c1 = (cin + 31) // 32
    x = rng.integers(-8, 8, (cin, h, w)).astype(np.int8)
    padded = np.zeros((c1 * 32, h, w), np.int8)
    padded[:cin] = x
    x5 = np.ascontiguousarray(padded.reshape(c1, 32, h, w).transpose(0, 2, 3, 1))
    cols = _img2col(x5, f, stride, pad)
    p = cols.shape[0]
    ppad = (p + 31) // 32 * 32
    dy = rng.integers(-8, 8, (p, cout)).astype(np.int8)
    dyt = np.zeros((cout, ppad), np.int8)
    dyt[:, :p] = dy.T
    want = cols.T @ dy.astype(np.int64)
    defines = dict(CIN=cin, H=h, W=w, COUT=cout, FH=f, STRIDE=stride, PAD=pad, SMALL_K=small_k)
    result = run(KERNEL, [x5, dyt], block_dim=1, defines={k: str(v) for k, v in defines.items()},
                 outputs={"dwt": np.zeros(want.shape, np.int32)})
    assert result.ok, result.findings
    np.testing.assert_array_equal(result.outputs["dwt"], want)


@pytest.mark.parametrize("shape", [(20, 9, 11, 24, 3, 2, 1), (40, 7, 6, 10, 3, 1, 1)],
                         ids=["cin20-stride2-pad1", "cin40-stride1-pad1"])
def test_int8_transposed_img2col_weight_gradient_matches_numpy(shape: tuple[int, ...]) -> None:
    _case(*shape)


def test_int8_a_stored_k_by_m_through_a_1x1_load_matches_numpy() -> None:
    # A given K x M (as mmad_load3dv2's transposed-A scenarios give it): the 1 x K map of M channels, a 1 x 1
    # filter; A = its window transposed; M 50 (two C1 blocks), K 70 (padded to 96), N 20
    _case(50, 1, 70, 20, 1, 1, 0, seed=1)


def test_en_small_k_changes_nothing_on_the_910b() -> None:
    _case(20, 9, 11, 24, 3, 2, 1, small_k="true")
