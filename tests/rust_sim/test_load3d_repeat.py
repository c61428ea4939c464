"""SetLoadDataRepeat with repeatTime over 1, end to end: a team-written 3 x 3 convolution whose img2col A comes
into L0A by one Load3Dv2 per C1 slice, a 16-row window repeated along the height (repeatMode 0, repeatStride 1:
16 rows apart) as often as the output positions need, each iteration after the previous one in L0A's ZZ; and
a weight gradient whose B (the window of output positions by one C1 slice of columns) comes into L0B the same
way. Both against numpy on shapes with tails (20 / 8 input channels, 30 / 70 output positions, Cout 24 / 5,
stride 2 padding 1 and stride 1 padding 2 dilation 2). Semantics: rust_sim/src/cube/load3d_repeat.rs; before,
a Load3D after a repeatTime over 1 was reported as not modelled (ASC958). Along the width and into L0A with
enTranspose it still is (the 910B's docs do not say where those iterations write).
"""

from __future__ import annotations

import numpy as np
import pytest

from passes.sim import run

CONV = """#include "kernel_operator.h"
using namespace AscendC;

// -D: CIN, H, W, COUT, STRIDE, PAD, DIL (3 x 3 filter)
constexpr int32_t C1 = (CIN + 15) / 16;
constexpr int32_t HO = (H + 2 * PAD - DIL * 2 - 1) / STRIDE + 1;
constexpr int32_t WO = (W + 2 * PAD - DIL * 2 - 1) / STRIDE + 1;
constexpr int32_t M = HO * WO;
constexpr int32_t MT = (M + 15) / 16;                 // 16-row windows: the repeat count
constexpr int32_t KSTEP = 9 * 16;
constexpr int32_t K = C1 * KSTEP;
constexpr int32_t NPAD = (COUT + 15) / 16 * 16;

extern "C" __global__ __aicore__ void conv_rpt(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    TPipe pipe;
    TBuf<TPosition::A1> a1Buf;
    TBuf<TPosition::B1> b1Buf;
    TBuf<TPosition::A2> a2Buf;
    TBuf<TPosition::B2> b2Buf;
    TBuf<TPosition::CO1> c1Buf;
    pipe.InitBuffer(a1Buf, C1 * H * W * 16 * sizeof(half));
    pipe.InitBuffer(b1Buf, K * NPAD * sizeof(half));
    pipe.InitBuffer(a2Buf, MT * 16 * KSTEP * sizeof(half));
    pipe.InitBuffer(b2Buf, KSTEP * NPAD * sizeof(half));
    pipe.InitBuffer(c1Buf, MT * 16 * NPAD * sizeof(float));
    GlobalTensor<half> xGm;
    GlobalTensor<half> wGm;
    GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, C1 * H * W * 16);
    wGm.SetGlobalBuffer((__gm__ half *)w, K * COUT);
    yGm.SetGlobalBuffer((__gm__ float *)y, M * COUT);
    LocalTensor<half> a1 = a1Buf.Get<half>();
    LocalTensor<half> b1 = b1Buf.Get<half>();
    LocalTensor<half> a2 = a2Buf.Get<half>();
    LocalTensor<half> b2 = b2Buf.Get<half>();
    LocalTensor<float> c1 = c1Buf.Get<float>();
    DataCopy(a1, xGm, C1 * H * W * 16);
    Nd2NzParams nd;
    nd.ndNum = 1;
    nd.nValue = K;
    nd.dValue = COUT;
    nd.srcNdMatrixStride = 0;
    nd.srcDValue = COUT;
    nd.dstNzC0Stride = K;
    nd.dstNzNStride = 1;
    nd.dstNzMatrixStride = 0;
    DataCopy(b1, wGm, nd);
    PipeBarrier<PIPE_ALL>();
    uint8_t padList[4] = {PAD, PAD, PAD, PAD};
    // one 16 x KSTEP window from (0, c * KSTEP), MT times 16 rows further down: the whole of A in one call
    SetLoadDataRepeat({1, MT, 0});
    LoadData3DParamsV2<half> p(padList, H, W, C1 * 16, KSTEP, 16, 0, 0, STRIDE, STRIDE, 3, 3, DIL, DIL, false,
                               false, 0);
    for (int32_t c = 0; c < C1; c++) {
        p.kStartPt = c * KSTEP;
        LoadData(a2, a1, p);
        LoadData2DParams lb;
        lb.repeatTimes = NPAD / 16;
        lb.srcStride = K / 16;
        lb.ifTranspose = true;
        for (int32_t i = 0; i < KSTEP / 16; i++) {
            lb.startIndex = c * (KSTEP / 16) + i;
            LoadData(b2[i * NPAD * 16], b1, lb);
        }
        PipeBarrier<PIPE_ALL>();
        Mmad(c1, a2, b2, MmadParams(M, COUT, KSTEP, 0, false, c == 0));
        PipeBarrier<PIPE_ALL>();
    }
    SetLoadDataRepeat({0, 1, 0});
    FixpipeParamsV220 fp;
    fp.nSize = COUT;
    fp.mSize = M;
    fp.srcStride = MT * 16;
    fp.dstStride = COUT;
    fp.ndNum = 1;
    fp.srcNdStride = 0;
    fp.dstNdStride = 0;
    Fixpipe(yGm, c1, fp);
}
"""

# the weight gradient dW = dY^T x img2col(X): A = dY^T through a transposing load (no repeat), B = the window of
# PPAD output positions (B's K) by one C1 slice, 16 rows at a time repeated into L0B's ZN
DW = """#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t C1 = (CIN + 15) / 16;
constexpr int32_t HO = (H + 2 * PAD - DIL * 2 - 1) / STRIDE + 1;
constexpr int32_t WO = (W + 2 * PAD - DIL * 2 - 1) / STRIDE + 1;
constexpr int32_t P = HO * WO;
constexpr int32_t PPAD = (P + 15) / 16 * 16;
constexpr int32_t CO_PAD = (COUT + 15) / 16 * 16;
constexpr int32_t KSTEP = 9 * 16;
constexpr int32_t K = C1 * KSTEP;

extern "C" __global__ __aicore__ void dw_rpt(GM_ADDR x, GM_ADDR dy, GM_ADDR dw, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    TPipe pipe;
    TBuf<TPosition::A1> a1Buf;
    TBuf<TPosition::B1> b1Buf;
    TBuf<TPosition::A2> a2Buf;
    TBuf<TPosition::B2> b2Buf;
    TBuf<TPosition::CO1> c1Buf;
    pipe.InitBuffer(a1Buf, CO_PAD * PPAD * sizeof(half));
    pipe.InitBuffer(b1Buf, C1 * H * W * 16 * sizeof(half));
    pipe.InitBuffer(a2Buf, CO_PAD * PPAD * sizeof(half));
    pipe.InitBuffer(b2Buf, PPAD * KSTEP * sizeof(half));
    pipe.InitBuffer(c1Buf, CO_PAD * KSTEP * sizeof(float));
    GlobalTensor<half> xGm;
    GlobalTensor<half> dyGm;
    GlobalTensor<float> dwGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, C1 * H * W * 16);
    dyGm.SetGlobalBuffer((__gm__ half *)dy, CO_PAD * PPAD);
    dwGm.SetGlobalBuffer((__gm__ float *)dw, COUT * K);
    LocalTensor<half> a1 = a1Buf.Get<half>();
    LocalTensor<half> b1 = b1Buf.Get<half>();
    LocalTensor<half> a2 = a2Buf.Get<half>();
    LocalTensor<half> b2 = b2Buf.Get<half>();
    LocalTensor<float> c1 = c1Buf.Get<float>();
    DataCopy(a1, dyGm, CO_PAD * PPAD);
    DataCopy(b1, xGm, C1 * H * W * 16);
    PipeBarrier<PIPE_ALL>();
    uint8_t noPad[4] = {0, 0, 0, 0};
    uint8_t pads[4] = {PAD, PAD, PAD, PAD};
    LoadData3DParamsV2<half> pa(noPad, 1, PPAD, CO_PAD, CO_PAD, PPAD, 0, 0, 1, 1, 1, 1, 1, 1, true, false, 0);
    LoadData(a2, a1, pa);
    LoadDataRepeatParam rp;
    rp.repeatStride = 1;
    rp.repeatTime = PPAD / 16;
    rp.repeatMode = 0;
    SetLoadDataRepeat(rp);
    LoadData3DParamsV2<half> pb(pads, H, W, C1 * 16, KSTEP, 16, 0, 0, STRIDE, STRIDE, 3, 3, DIL, DIL, false,
                                false, 0);
    for (int32_t c = 0; c < C1; c++) {
        pb.kStartPt = c * KSTEP;
        LoadData(b2, b1, pb);
        PipeBarrier<PIPE_ALL>();
        Mmad(c1, a2, b2, MmadParams(COUT, KSTEP, PPAD, 0, false, true));
        PipeBarrier<PIPE_ALL>();
        FixpipeParamsV220 fp;
        fp.nSize = KSTEP;
        fp.mSize = COUT;
        fp.srcStride = CO_PAD;
        fp.dstStride = K;
        fp.ndNum = 1;
        fp.srcNdStride = 0;
        fp.dstNdStride = 0;
        Fixpipe(dwGm[c * KSTEP], c1, fp);
        PipeBarrier<PIPE_ALL>();
    }
}
"""


def _img2col(x5: np.ndarray, stride: int, pad: int, dil: int) -> np.ndarray:
    """X[p][k] of a dilated 3 x 3 window over the 5HD map x5 [C1][H][W][16], k in (c1, kh, kw, c0), float64."""
    c1, h, w, _ = x5.shape
    xp = np.pad(x5.astype(np.float64), ((0, 0), (pad, pad), (pad, pad), (0, 0)))
    span = 2 * dil + 1
    ho, wo = (h + 2 * pad - span) // stride + 1, (w + 2 * pad - span) // stride + 1
    out = np.zeros((ho * wo, c1, 3, 3, 16))
    for oh in range(ho):
        for ow in range(wo):
            out[oh * wo + ow] = xp[:, oh * stride:oh * stride + span:dil, ow * stride:ow * stride + span:dil, :]
    return out.reshape(ho * wo, -1)


def _map(cin: int, h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    c1 = (cin + 15) // 16
    x = np.zeros((c1 * 16, h, w), np.float16)
    x[:cin] = rng.uniform(-1, 1, (cin, h, w)).astype(np.float16)
    return np.ascontiguousarray(x.reshape(c1, 16, h, w).transpose(0, 2, 3, 1))


SHAPES = [(20, 9, 11, 24, 2, 1, 1), (8, 10, 7, 5, 1, 2, 2)]


def _defines(cin: int, h: int, w: int, cout: int, stride: int, pad: int, dil: int) -> dict[str, str]:
    d = dict(CIN=cin, H=h, W=w, COUT=cout, STRIDE=stride, PAD=pad, DIL=dil)
    return {k: str(v) for k, v in d.items()}


@pytest.mark.parametrize("shape", SHAPES, ids=["s2p1", "s1p2d2"])
def test_conv_with_a_repeated_load_into_l0a_matches_numpy(shape: tuple[int, ...]) -> None:
    cin, h, w, cout, stride, pad, dil = shape
    rng = np.random.default_rng(cin)
    x5 = _map(cin, h, w, rng)
    cols = _img2col(x5, stride, pad, dil)
    wmat = np.zeros((cols.shape[1], cout), np.float16)
    wmat[:] = rng.uniform(-1, 1, wmat.shape).astype(np.float16)
    want = cols @ wmat.astype(np.float64)
    result = run(CONV, [x5, wmat], block_dim=1, defines=_defines(*shape),
                 outputs={"y": np.zeros(want.shape, np.float32)})
    assert result.ok, result.findings
    # fp16 products are exact in fp32; only the order of the sums differs
    np.testing.assert_allclose(result.outputs["y"], want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("shape", SHAPES, ids=["s2p1", "s1p2d2"])
def test_weight_gradient_with_a_repeated_load_into_l0b_matches_numpy(shape: tuple[int, ...]) -> None:
    cin, h, w, cout, stride, pad, dil = shape
    rng = np.random.default_rng(cin + 1)
    x5 = _map(cin, h, w, rng)
    cols = _img2col(x5, stride, pad, dil)
    p = cols.shape[0]
    ppad, co_pad = (p + 15) // 16 * 16, (cout + 15) // 16 * 16
    dy = rng.uniform(-1, 1, (p, cout)).astype(np.float16)
    dmap = np.zeros((co_pad, ppad), np.float16)
    dmap[:cout, :p] = dy.T
    dmap = np.ascontiguousarray(dmap.reshape(co_pad // 16, 16, ppad).transpose(0, 2, 1))
    want = dy.T.astype(np.float64) @ cols
    result = run(DW, [x5, dmap], block_dim=1, defines=_defines(*shape),
                 outputs={"dw": np.zeros(want.shape, np.float32)})
    assert result.ok, result.findings
    np.testing.assert_allclose(result.outputs["dw"], want, rtol=1e-5, atol=1e-5)


def test_a_repeat_along_the_width_is_reported() -> None:
    kernel = CONV.replace("SetLoadDataRepeat({1, MT, 0});", "SetLoadDataRepeat({1, MT, 1});")
    assert kernel != CONV
    rng = np.random.default_rng(0)
    x5 = _map(20, 9, 11, rng)
    wmat = np.zeros((2 * 144, 24), np.float16)
    result = run(kernel, [x5, wmat], block_dim=1, defines=_defines(*SHAPES[0]),
                 outputs={"y": np.zeros((30, 24), np.float32)})
    assert any(d.code == "ASC958" and "repeatMode 1" in d.message for d in result.findings), result.findings


def test_the_repeated_load_is_timed_as_all_its_iterations() -> None:
    # the load's MTE1 time follows the bytes it writes (timing/cost.rs, Class::Copy): the repeated load moves
    # MT windows, one call without the repeat one window; the B loads are the same in both
    single = CONV.replace("SetLoadDataRepeat({1, MT, 0});", "SetLoadDataRepeat({1, 1, 0});")
    assert single != CONV
    rng = np.random.default_rng(0)
    shape = SHAPES[1]  # MT 5
    x5 = _map(shape[0], shape[1], shape[2], rng)
    wmat = np.zeros((144, shape[3]), np.float16)
    busy = []
    for kernel in (CONV, single):
        result = run(kernel, [x5, wmat], block_dim=1, defines=_defines(*shape),
                     outputs={"y": np.zeros((70, shape[3]), np.float32)})
        assert result.completed and result.pipes, result.findings
        busy.append(result.pipes["PIPE_MTE1"]["busy"])
    assert busy[0] > busy[1] > 0, busy
