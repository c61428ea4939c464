"""The CTRL special register (issue 28, session 12): `GetCtrlSpr<s, e>()`, `SetCtrlSpr<s, e>(v)` and
`ResetCtrlSpr<s, e>()` read and write bits of one per-core register (asc-devkit docs .../特殊寄存器访问/
SetCtrlSpr(ISASI).md), and the register API's Cast saturates by it: CTRL[60] = 1, which TPipe's InitSocState sets,
makes saturation global (a float -> int32 overflow saturates under CTRL[59] = 0, whatever the CastTrait's SatMode
says), and CTRL[60] = 0, which kernels such as random_uniform_v2 / gelu_quant set around their casts, hands it back
to the trait (NO_SAT: an out-of-range float -> int is not documented, a named ASC958). Before, GetCtrlSpr and
SetCtrlSpr were unresolved calls and the core stopped at the first one."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
constexpr int8_t OVERFLOW_MODE_CTRL = 60;
static constexpr Reg::CastTrait kNoSat = {Reg::RegLayout::UNKNOWN, Reg::SatMode::NO_SAT,
                                          Reg::MaskMergeMode::ZEROING, RoundMode::CAST_RINT};

__simd_vf__ inline void CastVF(__ubuf__ int32_t* yAddr, __ubuf__ float* xAddr)
{
    Reg::RegTensor<float> xReg;
    Reg::RegTensor<int32_t> yReg;
    Reg::MaskReg all = Reg::CreateMask<float>();
    Reg::LoadAlign(xReg, xAddr);
    Reg::Cast<int32_t, float, kNoSat>(yReg, xReg, all);
    Reg::StoreAlign(yAddr, yReg, all);
}

extern "C" __global__ __aicore__ void ctrl_cast(GM_ADDR x, GM_ADDR y, GM_ADDR modes, GM_ADDR workspace,
                                                GM_ADDR tiling)
{
    int64_t oriOverflowMode = AscendC::GetCtrlSpr<OVERFLOW_MODE_CTRL, OVERFLOW_MODE_CTRL>();
    GlobalTensor<float> xGm;
    GlobalTensor<int32_t> yGm, modeGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 64);
    modeGm.SetGlobalBuffer((__gm__ int32_t *)modes, 8);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb, mb;
    pipe.InitBuffer(xb, 64 * sizeof(float));
    pipe.InitBuffer(yb, 64 * sizeof(int32_t));
    pipe.InitBuffer(mb, 8 * sizeof(int32_t));
    LocalTensor<float> xl = xb.Get<float>();
    LocalTensor<int32_t> yl = yb.Get<int32_t>();
    LocalTensor<int32_t> ml = mb.Get<int32_t>();
    DataCopy(xl, xGm, 64);
    PipeBarrier<PIPE_ALL>();
    PREAMBLE
    ml.SetValue(0, (int32_t)oriOverflowMode);
    ml.SetValue(1, (int32_t)AscendC::GetCtrlSpr<OVERFLOW_MODE_CTRL, OVERFLOW_MODE_CTRL>());
    ml.SetValue(2, (int32_t)AscendC::GetCtrlSpr<59, 59>());
    asc_vf_call<CastVF>((__ubuf__ int32_t *)yl.GetPhyAddr(), (__ubuf__ float *)xl.GetPhyAddr());
    AscendC::SetCtrlSpr<OVERFLOW_MODE_CTRL, OVERFLOW_MODE_CTRL>(oriOverflowMode);
    ml.SetValue(3, (int32_t)AscendC::GetCtrlSpr<OVERFLOW_MODE_CTRL, OVERFLOW_MODE_CTRL>());
    for (int32_t i = 4; i < 8; i++) {
        ml.SetValue(i, 0);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, yl, 64);
    DataCopy(modeGm, ml, 8);
}
"""

OUTPUTS = {"y": ((64,), "int32"), "modes": ((8,), "int32")}


def simulate(tmp_path: Path, preamble: str, x: np.ndarray):
    src = tmp_path / "ctrl_cast.cpp"
    src.write_text(KERNEL.replace("PREAMBLE", preamble), encoding="utf-8")
    return run(str(src), {"x": x}, chip="950PR", block_dim=1, outputs=OUTPUTS)


def _x(overflow: bool) -> np.ndarray:
    x = np.linspace(-1000.5, 1000.5, 64).astype(np.float32)
    x[:4] = [1.5, -2.5, 3e9, -3e9] if overflow else [1.5, -2.5, 7.0, -7.0]
    return x


def test_global_saturation_is_the_default_and_overrides_no_sat(tmp_path: Path) -> None:
    x = _x(overflow=True)
    result = simulate(tmp_path, "", x)
    assert result.ok, [str(d) for d in result.findings]
    want = np.rint(x).astype(np.int64).clip(-(1 << 31), (1 << 31) - 1).astype(np.int32)
    np.testing.assert_array_equal(result.outputs["y"], want)
    assert list(result.outputs["y"][:4]) == [2, -2, 2147483647, -2147483648]
    np.testing.assert_array_equal(result.outputs["modes"][:4], [1, 1, 0, 1])


def test_per_instruction_mode_hands_saturation_to_the_trait(tmp_path: Path) -> None:
    preamble = "AscendC::SetCtrlSpr<OVERFLOW_MODE_CTRL, OVERFLOW_MODE_CTRL>(0);"
    x = _x(overflow=False)
    result = simulate(tmp_path, preamble, x)
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], np.rint(x).astype(np.int32))
    # read back: 1 at entry, 0 after the Set, restored to 1 at the end
    np.testing.assert_array_equal(result.outputs["modes"][:4], [1, 0, 0, 1])
    # NO_SAT of an out-of-range float under CTRL[60] = 0: the instruction's result is not documented
    stopped = simulate(tmp_path, preamble, _x(overflow=True))
    assert any(d.code == "ASC958" and "out of range without SatMode::SAT" in d.message for d in stopped.findings), \
        [str(d) for d in stopped.findings]
