"""Load3Dv2 (img2col) end to end: a team-written 3 x 3 convolution (Load3Dv2 -> Mmad -> Fixpipe, the feature
map 5HD in L1, the weights through ND2NZ and LoadData 2D) against a numpy conv2d on two shapes with tails
(channels, filters and output positions that are not whole fractals; stride 2 / padding 1 / dilation 1 and
stride 1 / padding 2 / dilation 2); and asc-devkit's mmad_load3dv2 example (its five scenarios, read from the
checkout; skipped without it) against numpy matmul. rust_sim/src/cube/load3d.rs has the semantics and the
hand-computed Rust tests. The kernel's LoadData3DParamsV2 is built with its padList C array: before, copying
that struct moved the array as a register and the program did not load.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;

// the shape comes from -D: CIN channels padded to C1 * 16 in the 5HD input, COUT filters, 3 x 3
constexpr int32_t C1 = (CIN + 15) / 16;
constexpr int32_t KH = 3;
constexpr int32_t KW = 3;
constexpr int32_t HO = (H + 2 * PAD - DIL * (KH - 1) - 1) / STRIDE + 1;
constexpr int32_t WO = (W + 2 * PAD - DIL * (KW - 1) - 1) / STRIDE + 1;
constexpr int32_t M = HO * WO;
constexpr int32_t KSTEP = KH * KW * 16;   // one C1 slice of the img2col matrix per K step
constexpr int32_t K = C1 * KSTEP;
constexpr int32_t NPAD = (COUT + 15) / 16 * 16;
constexpr int32_t MTILE = 16;

extern "C" __global__ __aicore__ void conv3x3(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
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
    pipe.InitBuffer(a2Buf, MTILE * KSTEP * sizeof(half));
    pipe.InitBuffer(b2Buf, KSTEP * NPAD * sizeof(half));
    pipe.InitBuffer(c1Buf, MTILE * NPAD * sizeof(float));
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

    // the feature map is already 5HD [C1][H][W][16] in GM; the weights are the K x COUT matrix, K in
    // (c1, kh, kw, c0) order, and go to B1 as NZ [NPAD / 16][K][16]
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
    // the img2col window: MTILE output positions from mStartPt by the KSTEP columns of one C1 slice
    LoadData3DParamsV2<half> p(padList, H, W, C1 * 16, KSTEP, MTILE, 0, 0, STRIDE, STRIDE, KW, KH, DIL, DIL,
                               false, false, 0);
    for (int32_t m0 = 0; m0 < M; m0 += MTILE) {
        const int32_t curM = M - m0 < MTILE ? M - m0 : MTILE;
        for (int32_t c = 0; c < C1; c++) {
            p.mStartPt = m0;
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
            Mmad(c1, a2, b2, MmadParams(curM, COUT, KSTEP, 0, false, c == 0));
            PipeBarrier<PIPE_ALL>();
        }
        FixpipeParamsV220 fp;
        fp.nSize = COUT;
        fp.mSize = curM;
        fp.srcStride = MTILE;
        fp.dstStride = COUT;
        fp.ndNum = 1;
        fp.srcNdStride = 0;
        fp.dstNdStride = 0;
        Fixpipe(yGm[m0 * COUT], c1, fp);
        PipeBarrier<PIPE_ALL>();
    }
}
"""

DEVKIT = Path(os.environ.get("ASC_DEVKIT", "/work/ext/real/asc-devkit"))
MMAD_LOAD3DV2 = DEVKIT / "examples/01_simd_cpp_api/03_basic_api/03_matrix_compute/mmad_load3dv2/mmad_load3dv2.asc"


def _conv2d(x: np.ndarray, w: np.ndarray, stride: int, pad: int, dil: int) -> np.ndarray:
    """y[oh * Wo + ow][co] of a 3 x 3 convolution of x (Cin, H, W) by w (Cout, Cin, 3, 3), in float64."""
    cin, h, wd = x.shape
    xp = np.pad(x.astype(np.float64), ((0, 0), (pad, pad), (pad, pad)))
    ho = (h + 2 * pad - 2 * dil - 1) // stride + 1
    wo = (wd + 2 * pad - 2 * dil - 1) // stride + 1
    y = np.zeros((ho * wo, w.shape[0]))
    for oh in range(ho):
        for ow in range(wo):
            patch = xp[:, oh * stride:oh * stride + 2 * dil + 1:dil, ow * stride:ow * stride + 2 * dil + 1:dil]
            y[oh * wo + ow] = np.tensordot(w.astype(np.float64), patch, axes=([1, 2, 3], [0, 1, 2]))
    return y


@pytest.mark.parametrize("cin, h, wd, cout, stride, pad, dil", [(20, 9, 11, 24, 2, 1, 1), (8, 10, 7, 5, 1, 2, 2)])
def test_conv_kernel_matches_numpy(cin: int, h: int, wd: int, cout: int, stride: int, pad: int, dil: int) -> None:
    _conv_case(KERNEL, cin, h, wd, cout, stride, pad, dil)


# the map's size and padding from SetFmatrix into the right FMATRIX register, which fMatrixCtrl makes the load
# read (the params' own l1H / l1W / padList go into the left one and are not used)
RIGHT_REGISTER = KERNEL.replace("""    LoadData3DParamsV2<half> p(padList, H, W, C1 * 16, KSTEP, MTILE, 0, 0, STRIDE, STRIDE, KW, KH, DIL, DIL,
                               false, false, 0);""", """    uint8_t noPad[4] = {0, 0, 0, 0};
    SetFmatrix(H, W, padList, FmatrixMode::FMATRIX_RIGHT);
    LoadData3DParamsV2<half> p(noPad, 1, 1, C1 * 16, KSTEP, MTILE, 0, 0, STRIDE, STRIDE, KW, KH, DIL, DIL,
                               false, false, 0, false, false, true);""")


def test_conv_kernel_through_the_right_fmatrix_register_matches_numpy() -> None:
    assert RIGHT_REGISTER != KERNEL
    _conv_case(RIGHT_REGISTER, 20, 9, 11, 24, 2, 1, 1)


def _conv_case(kernel: str, cin: int, h: int, wd: int, cout: int, stride: int, pad: int, dil: int) -> None:
    rng = np.random.default_rng(cin)
    x = rng.uniform(-1, 1, (cin, h, wd)).astype(np.float16)
    w = rng.uniform(-1, 1, (cout, cin, 3, 3)).astype(np.float16)
    c1 = (cin + 15) // 16
    # the map 5HD [C1][H][W][16] and the K x Cout weight matrix, K in (c1, kh, kw, c0) order; channels padded
    x5 = np.zeros((c1 * 16, h, wd), np.float16)
    x5[:cin] = x
    x5 = np.ascontiguousarray(x5.reshape(c1, 16, h, wd).transpose(0, 2, 3, 1))
    wz = np.zeros((cout, c1 * 16, 3, 3), np.float16)
    wz[:, :cin] = w
    wmat = np.ascontiguousarray(wz.reshape(cout, c1, 16, 3, 3).transpose(1, 3, 4, 2, 0).reshape(c1 * 144, cout))
    want = _conv2d(x, w, stride, pad, dil)
    defines = {"CIN": cin, "H": h, "W": wd, "COUT": cout, "STRIDE": stride, "PAD": pad, "DIL": dil}
    result = run(kernel, [x5, wmat], block_dim=1, defines={k: str(v) for k, v in defines.items()},
                 outputs={"y": np.zeros(want.shape, np.float32)})
    assert result.ok, result.findings
    # fp16 products are exact in fp32; only the order of the sums differs
    np.testing.assert_allclose(result.outputs["y"], want, rtol=1e-5, atol=1e-5)


@pytest.mark.skipif(not MMAD_LOAD3DV2.is_file(), reason=f"no asc-devkit checkout at {DEVKIT} (set ASC_DEVKIT)")
@pytest.mark.parametrize("scenario", [1, 2, 3, 4, 5])
def test_vendor_mmad_load3dv2_example_matches_numpy(scenario: int) -> None:
    # the example's main: M 30, N 70, K 40; scenarios 1-2 half, 3-4 float (2 and 4 read A as K x M and load it
    # with enTranspose), 5 int8 (B read as N x K); B goes into L0B with Load3Dv2's enTranspose in 1-4
    m, n, k = 30, 70, 40
    rng = np.random.default_rng(scenario)
    if scenario == 5:
        a = rng.integers(-8, 8, (m, k)).astype(np.int8)
        b = rng.integers(-8, 8, (k, n)).astype(np.int8)
        out = np.int32
    else:
        dt = np.float16 if scenario <= 2 else np.float32
        a = rng.uniform(-1, 1, (m, k)).astype(dt)
        b = rng.uniform(-1, 1, (k, n)).astype(dt)
        out = np.float32
    a_in = np.ascontiguousarray(a.T) if scenario in (2, 4) else a
    b_in = np.ascontiguousarray(b.T) if scenario == 5 else b
    result = run(str(MMAD_LOAD3DV2), [a_in, b_in], block_dim=1, defines={"SCENARIO_NUM": str(scenario)},
                 outputs={"c": np.zeros((m, n), out)})
    assert result.ok, result.findings
    np.testing.assert_allclose(result.outputs["c"], a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5,
                               atol=1e-5)


@pytest.mark.skipif(not MMAD_LOAD3DV2.is_file(), reason=f"no asc-devkit checkout at {DEVKIT} (set ASC_DEVKIT)")
def test_vendor_example_through_ascendir_run_with_its_scenario_macro(tmp_path: Path) -> None:
    # `ascendir run -D SCENARIO_NUM=1`: the macro its build passes (it has no default); scenario 1, half
    from click.testing import CliRunner

    from cli.run import main

    rng = np.random.default_rng(7)
    a = rng.uniform(-1, 1, (30, 40)).astype(np.float16)
    b = rng.uniform(-1, 1, (40, 70)).astype(np.float16)
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    result = CliRunner().invoke(main, [str(MMAD_LOAD3DV2), "-D", "SCENARIO_NUM=1", "--input", str(tmp_path / "a.npy"),
                                       "--input", str(tmp_path / "b.npy"), "--output", "c=30,70:float32",
                                       "--block-dim", "1", "--output-dir", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    got = np.load(tmp_path / "out" / "c.npy")
    np.testing.assert_allclose(got, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5, atol=1e-5)


def test_padlist_set_element_by_element_runs_the_convolution() -> None:
    # `p.padList[0] = PAD;` (asc-devkit's conv code sets it so): the element stores go into the struct's own array,
    # which the load reads. Before, the lowering dropped them (ASC103) and the simulator stopped at the read
    # (ASC958) rather than compute without padding (a wrong convolution)
    kernel = KERNEL.replace("""    uint8_t padList[4] = {PAD, PAD, PAD, PAD};
    // the img2col window: MTILE output positions from mStartPt by the KSTEP columns of one C1 slice
    LoadData3DParamsV2<half> p(padList, H, W, C1 * 16, KSTEP, MTILE, 0, 0, STRIDE, STRIDE, KW, KH, DIL, DIL,
                               false, false, 0);""", """    LoadData3DParamsV2<half> p;
    p.padList[0] = PAD;
    p.padList[1] = PAD;
    p.padList[2] = PAD;
    p.padList[3] = PAD;
    p.l1H = H;
    p.l1W = W;
    p.channelSize = C1 * 16;
    p.kExtension = KSTEP;
    p.mExtension = MTILE;
    p.strideW = STRIDE;
    p.strideH = STRIDE;
    p.filterW = KW;
    p.filterH = KH;
    p.dilationFilterW = DIL;
    p.dilationFilterH = DIL;""")
    assert kernel != KERNEL and "p.padList[3] = PAD;" in kernel
    _conv_case(kernel, 20, 9, 11, 24, 2, 1, 1)
    _conv_case(kernel, 8, 10, 7, 5, 1, 2, 2)


@pytest.mark.parametrize("repeat_time, boundary, runs", [(1, 0, True), (2, 0, False), (1, 4096, True)])
def test_load_data_repeat_and_boundary_settings(repeat_time: int, boundary: int, runs: bool) -> None:
    # SetLoadDataRepeat / SetLoadDataBoundary lower and reach the simulator; their defaults (one load, no boundary)
    # and a boundary past the map (4096 bytes, the map 2240) leave the convolution as it was; a repeat count along
    # the width (repeatMode 1) is reported by name rather than computed as one load (along the height it runs:
    # test_load3d_repeat.py)
    kernel = _with_settings(repeat_time, boundary)
    if runs:
        _conv_case(kernel, 8, 10, 7, 5, 1, 2, 2)
        return
    x5 = np.zeros((1, 5, 5, 16), np.float16)
    wmat = np.zeros((144, 16), np.float16)
    defines = {"CIN": "16", "H": "5", "W": "5", "COUT": "16", "STRIDE": "1", "PAD": "1", "DIL": "1"}
    result = run(kernel, [x5, wmat], block_dim=1, defines=defines, outputs={"y": np.zeros((25, 16), np.float32)})
    assert any(d.code == "ASC958" and "SetLoadDataRepeat" in d.message for d in result.findings), result.findings


def _with_settings(repeat_time: int, boundary: int) -> str:
    return KERNEL.replace("    for (int32_t m0 = 0; m0 < M; m0 += MTILE) {", f"""    LoadDataRepeatParam rp;
    rp.repeatStride = 0;
    rp.repeatTime = {repeat_time};
    rp.repeatMode = {1 if repeat_time > 1 else 0};
    SetLoadDataRepeat(rp);
    SetLoadDataBoundary({boundary});
    for (int32_t m0 = 0; m0 < M; m0 += MTILE) {{""")


def test_a_boundary_inside_the_map_wraps_its_reads_to_l1_byte_0() -> None:
    # SetLoadDataBoundary(1024) with the map's 2240 bytes from L1 byte 0: map position p (16 halves, 32 bytes)
    # reads position p % 32 (the page: a read past the boundary goes on from the start of L1)
    cin, h, wd, cout = 8, 10, 7, 5
    rng = np.random.default_rng(cin)
    x = rng.uniform(-1, 1, (cin, h, wd)).astype(np.float16)
    w = rng.uniform(-1, 1, (cout, cin, 3, 3)).astype(np.float16)
    x5 = np.zeros((1, h, wd, 16), np.float16)
    x5[0, :, :, :cin] = x.transpose(1, 2, 0)
    wz = np.zeros((cout, 16, 3, 3), np.float16)
    wz[:, :cin] = w
    wmat = np.ascontiguousarray(wz.transpose(2, 3, 1, 0).reshape(144, cout))
    seen = (np.arange(h * wd) % 32)
    x_seen = x.reshape(cin, h * wd)[:, seen].reshape(cin, h, wd)
    want = _conv2d(x_seen, w, 1, 2, 2)
    defines = {"CIN": cin, "H": h, "W": wd, "COUT": cout, "STRIDE": 1, "PAD": 2, "DIL": 2}
    result = run(_with_settings(1, 1024), [x5, wmat], block_dim=1, defines={k: str(v) for k, v in defines.items()},
                 outputs={"y": np.zeros(want.shape, np.float32)})
    assert result.ok, result.findings
    np.testing.assert_allclose(result.outputs["y"], want, rtol=1e-5, atol=1e-5)


def test_the_struct_keeps_its_own_copy_of_the_array_it_was_given() -> None:
    # C++ copies padList into the struct at construction: zeroing the caller's array afterwards leaves the padding
    # the load uses as it was (before, the struct named the caller's storage and would have seen the zeros)
    kernel = KERNEL.replace("""                               false, false, 0);
""", """                               false, false, 0);
    for (int32_t i = 0; i < 4; i++) {
        padList[i] = 0;
    }
""")
    assert kernel != KERNEL
    _conv_case(kernel, 20, 9, 11, 24, 2, 1, 1)


def test_braced_params_through_a_pointer_parameter_are_load3dv2s() -> None:
    # catlass's conv CopyL1ToL0A: `LoadData(dst, src, {blockPadList, hi, wi, ...})` in a function taking the pad
    # list as `uint8_t *`. The braced list's 17 items initialise only LoadData3DParamsV2 (its 17-argument
    # constructor, [over.ics.list]); before, the first overload (LoadData2DParams) took it and the load was left
    # out (ASC958 'cannot convert uint8_t[4] to uint16_t', the output unwritten)
    kernel = KERNEL.replace('extern "C"', """__aicore__ inline void Load(LocalTensor<half> dst, LocalTensor<half> src,
                            uint8_t *pads, uint16_t kStart, uint16_t mStart)
{
    LoadData(dst, src, {pads, (uint16_t)H, (uint16_t)W, (uint16_t)(C1 * 16), (uint16_t)KSTEP, (uint16_t)MTILE,
                        kStart, mStart, STRIDE, STRIDE, KW, KH, DIL, DIL, false, false, (half)(0)});
}

extern "C\"""").replace("LoadData(a2, a1, p);", "Load(a2, a1, padList, c * KSTEP, m0);")
    assert kernel.count("Load(a2, a1, padList") == 1
    _conv_case(kernel, 20, 9, 11, 24, 2, 1, 1)
