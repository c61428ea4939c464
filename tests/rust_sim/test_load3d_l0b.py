"""Load3Dv2 into L0B without enTranspose, end to end: a team-written weight gradient of a 3 x 3 convolution (the
form of asc-devkit's conv3d_bp_filter: dW = dY^T x img2col(X)), against numpy. dY goes into L0A through Load3Dv2
with enTranspose (a 1 x P map of Cout channels, A = its img2col transposed: Cout x P) and img2col(X) into L0B
without enTranspose (B = the window: its K the output positions, its N the (c1, kh, kw, c0) columns), one C1
slice per Mmad; Fixpipe writes each slice's columns of dW. The tails: Cout 24 (A's M), 30 output positions (K,
padded to 32 with zero rows of dY), 20 input channels (padded to 32). The semantics: rust_sim/src/cube/load3d.rs
(into L0B, B = X with or without enTranspose, as the vendor's B loads read it). Before, the load into L0B
without enTranspose was reported as not modelled (ASC958); int8 into L0B is reported as the 910B's
implementation reports it (not available). asc-devkit's load_data_l12l0 example (skipped without a checkout)
covers the loads from L1 into L0A / L0B of its int8, half and float scenarios.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;

// -D: CIN, H, W, COUT, STRIDE, PAD (3 x 3 filter, dilation 1), B_TRANSPOSE (the L0B load's enTranspose)
constexpr int32_t C1 = (CIN + 15) / 16;
constexpr int32_t HO = (H + 2 * PAD - 3) / STRIDE + 1;
constexpr int32_t WO = (W + 2 * PAD - 3) / STRIDE + 1;
constexpr int32_t P = HO * WO;
constexpr int32_t PPAD = (P + 15) / 16 * 16;
constexpr int32_t CO_PAD = (COUT + 15) / 16 * 16;
constexpr int32_t KSTEP = 9 * 16;
constexpr int32_t K = C1 * KSTEP;

extern "C" __global__ __aicore__ void conv_dw(GM_ADDR x, GM_ADDR dy, GM_ADDR dw, GM_ADDR workspace, GM_ADDR tiling)
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
    // dY as a 5HD map [CO_PAD / 16][1][PPAD][16] (zero past the P positions and the COUT channels), X 5HD
    DataCopy(a1, dyGm, CO_PAD * PPAD);
    DataCopy(b1, xGm, C1 * H * W * 16);
    PipeBarrier<PIPE_ALL>();
    uint8_t noPad[4] = {0, 0, 0, 0};
    uint8_t pads[4] = {PAD, PAD, PAD, PAD};
    // A = dY^T: the 1 x 1 img2col of the dY map (PPAD rows of CO_PAD channels), transposed: CO_PAD x PPAD
    LoadData3DParamsV2<half> pa(noPad, 1, PPAD, CO_PAD, CO_PAD, PPAD, 0, 0, 1, 1, 1, 1, 1, 1, true, false, 0);
    LoadData(a2, a1, pa);
    // B = the img2col window of X: PPAD output positions (K) by one C1 slice of KSTEP columns (N)
    LoadData3DParamsV2<half> pb(pads, H, W, C1 * 16, KSTEP, PPAD, 0, 0, STRIDE, STRIDE, 3, 3, 1, 1, B_TRANSPOSE,
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


def _img2col(x5: np.ndarray, stride: int, pad: int) -> np.ndarray:
    """X[p][k] of a 3 x 3 window over the 5HD map x5 [C1][H][W][16], k in (c1, kh, kw, c0) order, float64."""
    c1, h, w, _ = x5.shape
    xp = np.pad(x5.astype(np.float64), ((0, 0), (pad, pad), (pad, pad), (0, 0)))
    ho, wo = (h + 2 * pad - 3) // stride + 1, (w + 2 * pad - 3) // stride + 1
    out = np.zeros((ho * wo, c1, 3, 3, 16))
    for oh in range(ho):
        for ow in range(wo):
            out[oh * wo + ow] = xp[:, oh * stride:oh * stride + 3, ow * stride:ow * stride + 3, :]
    return out.reshape(ho * wo, -1)


@pytest.mark.parametrize("b_transpose", ["false", "true"])
def test_weight_gradient_kernel_matches_numpy(b_transpose: str) -> None:
    cin, h, w, cout, stride, pad = 20, 9, 11, 24, 2, 1
    rng = np.random.default_rng(3)
    c1 = (cin + 15) // 16
    x = rng.uniform(-1, 1, (cin, h, w)).astype(np.float16)
    padded = np.zeros((c1 * 16, h, w), np.float16)
    padded[:cin] = x
    x5 = np.ascontiguousarray(padded.reshape(c1, 16, h, w).transpose(0, 2, 3, 1))
    cols = _img2col(x5, stride, pad)
    p = cols.shape[0]
    ppad, co_pad = (p + 15) // 16 * 16, (cout + 15) // 16 * 16
    dy = rng.uniform(-1, 1, (p, cout)).astype(np.float16)
    # the dY map: [CO_PAD / 16][1][PPAD][16], zero past P and COUT
    dmap = np.zeros((co_pad, ppad), np.float16)
    dmap[:cout, :p] = dy.T
    dmap = np.ascontiguousarray(dmap.reshape(co_pad // 16, 16, ppad).transpose(0, 2, 1))
    want = dy.T.astype(np.float64) @ cols
    defines = dict(CIN=cin, H=h, W=w, COUT=cout, STRIDE=stride, PAD=pad, B_TRANSPOSE=b_transpose)
    result = run(KERNEL, [x5, dmap], block_dim=1, defines={k: str(v) for k, v in defines.items()},
                 outputs={"dw": np.zeros(want.shape, np.float32)})
    assert result.ok, result.findings
    # fp16 products are exact in fp32; only the order of the sums differs
    np.testing.assert_allclose(result.outputs["dw"], want, rtol=1e-5, atol=1e-5)


DEVKIT = Path(os.environ.get("ASC_DEVKIT", "/work/ext/real/asc-devkit"))
L12L0 = DEVKIT / "examples/01_simd_cpp_api/03_basic_api/03_matrix_compute/load_data_l12l0/load_data_l12l0.asc"
# scenario: (element type, A given K x M, B given N x K); 1-2 are int4 (not simulated)
_SCENARIOS = {3: ("i8", 0, 1), 4: ("i8", 0, 1), 5: ("i8", 1, 0), 6: ("f16", 0, 1), 7: ("f16", 0, 1),
              8: ("f16", 1, 0), 9: ("f16", 1, 0), 10: ("f16", 1, 0), 11: ("f32", 0, 1), 12: ("f32", 0, 1),
              13: ("f32", 1, 0), 14: ("f32", 1, 0)}


def _l12l0(scenario: int, pad_rows: int = 0) -> tuple[object, np.ndarray]:
    m, n, k = 40, 50, 70
    dt, a_t, b_t = _SCENARIOS[scenario]
    rng = np.random.default_rng(scenario)
    if dt == "i8":
        a = rng.integers(-8, 8, (m, k)).astype(np.int8)
        b = rng.integers(-8, 8, (k, n)).astype(np.int8)
        out = np.int32
    else:
        t = np.float16 if dt == "f16" else np.float32
        a = rng.uniform(-1, 1, (m, k)).astype(t)
        b = rng.uniform(-1, 1, (k, n)).astype(t)
        out = np.float32
    a_in = np.ascontiguousarray(a.T) if a_t else a
    b_in = np.ascontiguousarray(b.T) if b_t else b
    if pad_rows:
        a_in = np.concatenate([a_in, np.zeros((pad_rows, a_in.shape[1]), a_in.dtype)])
        b_in = np.concatenate([b_in, np.zeros((pad_rows, b_in.shape[1]), b_in.dtype)])
    result = run(str(L12L0), [a_in, b_in], block_dim=1, defines={"SCENARIO_NUM": str(scenario)},
                 outputs={"c": np.zeros((m, n), out)})
    return result, a.astype(np.float64) @ b.astype(np.float64)


@pytest.mark.skipif(not L12L0.is_file(), reason=f"no asc-devkit checkout at {DEVKIT} (set ASC_DEVKIT)")
@pytest.mark.parametrize("scenario", list(range(3, 14)))
def test_vendor_load_data_l12l0_example_matches_numpy(scenario: int) -> None:
    # its main: M 40, N 50, K 70; LoadData 2D, LoadDataWithTranspose (int8 / half / float) and Load3Dv2 into L0A
    # (4, 7, 12; A transposed in 10, 13) and into L0B (10, 13: the example notes enTranspose acts on L0A only)
    result, want = _l12l0(scenario)
    assert result.ok, result.findings
    np.testing.assert_allclose(result.outputs["c"], want, rtol=1e-5, atol=1e-5)


@pytest.mark.skipif(not L12L0.is_file(), reason=f"no asc-devkit checkout at {DEVKIT} (set ASC_DEVKIT)")
def test_vendor_load_data_l12l0_scenario_14_reads_past_its_inputs() -> None:
    # float with a Zz L1 layout: its ND2NZ copies ceil(70 / 16) = 5 blocks of 16 rows of A (K x M) and of B, 80 rows
    # of 70: 10 rows past the end of each input (ASC950); given inputs padded with zero rows, it matches numpy
    result, _ = _l12l0(14)
    assert any(d.code == "ASC950" and "'a'" in d.message for d in result.findings), result.findings
    result, want = _l12l0(14, pad_rows=10)
    assert result.ok, result.findings
    np.testing.assert_allclose(result.outputs["c"], want, rtol=1e-5, atol=1e-5)


BOUNDARY = DEVKIT / "examples/01_simd_cpp_api/06_compatibility_guide/set_loaddata_boundary/set_loaddata_boundary.asc"


@pytest.mark.skipif(not BOUNDARY.is_file(), reason=f"no asc-devkit checkout at {DEVKIT} (set ASC_DEVKIT)")
def test_vendor_set_loaddata_boundary_example_runs_with_the_documented_wrap() -> None:
    # A (32 x 32 half, 2048 bytes of NZ in L1 from byte 0) goes to L0A by a LoadData3DParamsV2Pro load after
    # SetFmatrix and SetLoadDataBoundary(1024); B by Load3Dv2 under an IsResetLoad3dConfig {false, false} after
    # SetLoadDataPaddingValue(0) (T deduced as int). With the boundary the second K block of A (bytes 1024..2047)
    # is read from L1 byte 0: C = [A0 A0] x B, A0 the first 16 columns of A. (The example's expected output is not
    # in the checkout: this is the documented wrap, not a comparison with the device.) Before: ASC958 at the V2Pro
    # load, the non-default config and the padding value without T.
    rng = np.random.default_rng(1)
    a = rng.uniform(-1, 1, (32, 32)).astype(np.float16)
    b = rng.uniform(-1, 1, (32, 32)).astype(np.float16)
    result = run(str(BOUNDARY), [a, b], block_dim=1, outputs={"c": np.zeros((32, 32), np.float32)})
    assert result.ok, result.findings
    wrapped = a.astype(np.float64)
    wrapped[:, 16:] = wrapped[:, :16]
    np.testing.assert_allclose(result.outputs["c"], wrapped @ b.astype(np.float64), rtol=1e-5, atol=1e-5)
