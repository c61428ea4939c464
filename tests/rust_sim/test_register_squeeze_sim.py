"""Squeeze and the AR special register (issue 28, session 11): a vector function clears AR (`ClearSpr<AR>`), and
per register keeps the elements a compare selects (`Squeeze<T, GatherMaskMode::STORE_REG>`: packed into the low
lanes, their bytes added to AR) and stores them with the count-less `StoreUnAlign(dst, reg, ureg)`, which takes the
count from AR; `StoreUnAlignPost(dst, ureg)` ends it, and `GetSpr<AR>()` after the launch is the bytes kept
(asc-devkit docs: Squeeze.md, StoreUnAlign.md scenario 3, ClearSpr.md, GetSpr.md; ops-nn scatter_add reads the count
so). The output is numpy's `x[x > 0]`, packed, on 100 and 300 floats. Before, Squeeze, the count-less StoreUnAlign,
ClearSpr and GetSpr were each ASC958. Two Squeezes with STORE_REG before their store break the pages' rule that
the two alternate: a named ASC958, never a guess."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

__simd_vf__ inline void KeepPositiveVF(__ubuf__ float* yAddr, __ubuf__ float* xAddr, uint32_t count, uint16_t repeats)
{
    MicroAPI::RegTensor<float> xReg;
    MicroAPI::RegTensor<float> kept;
    MicroAPI::MaskReg mask;
    MicroAPI::MaskReg positive;
    MicroAPI::UnalignRegForStore ureg;
    MicroAPI::ClearSpr<SpecialPurposeReg::AR>();
    for (uint16_t i = 0; i < repeats; ++i) {
        mask = MicroAPI::UpdateMask<float>(count);
        MicroAPI::LoadAlign(xReg, xAddr + i * 64);
        MicroAPI::CompareScalar<float, CMPMODE::GT>(positive, xReg, 0.0f, mask);
        MicroAPI::Squeeze<float, MicroAPI::GatherMaskMode::STORE_REG>(kept, xReg, positive);
        SECOND_SQUEEZE
        MicroAPI::StoreUnAlign<float, MicroAPI::PostLiteral::POST_MODE_UPDATE>(yAddr, kept, ureg);
    }
    MicroAPI::StoreUnAlignPost(yAddr, ureg);
}

extern "C" __global__ __aicore__ void keep_positive(GM_ADDR x, GM_ADDR y, GM_ADDR n, GM_ADDR workspace,
                                                    GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, yGm;
    GlobalTensor<int32_t> nGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, td.padded);
    yGm.SetGlobalBuffer((__gm__ float *)y, td.padded);
    nGm.SetGlobalBuffer((__gm__ int32_t *)n, 1);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb;
    pipe.InitBuffer(xb, td.padded * sizeof(float));
    pipe.InitBuffer(yb, td.padded * sizeof(float));
    LocalTensor<float> xl = xb.Get<float>();
    LocalTensor<float> yl = yb.Get<float>();
    DataCopy(xl, xGm, td.padded);
    Duplicate(yl, -7.0f, td.padded);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<KeepPositiveVF>((__ubuf__ float *)yl.GetPhyAddr(), (__ubuf__ float *)xl.GetPhyAddr(), td.n,
                                (uint16_t)((td.n + 63) / 64));
    int64_t bytes = MicroAPI::GetSpr<SpecialPurposeReg::AR>();
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, yl, td.padded);
    nGm.SetValue(0, (int32_t)(bytes / sizeof(float)));
}
"""


def simulate(tmp_path: Path, n: int, x: np.ndarray, second: str = ""):
    src = tmp_path / "keep_positive.cpp"
    src.write_text(KERNEL.replace("SECOND_SQUEEZE", second), encoding="utf-8")
    return run(str(src), {"x": x}, chip="950PR", block_dim=1, tiling={"n": n, "padded": x.size},
               outputs={"y": ((x.size,), "float32"), "n": ((1,), "int32")})


@pytest.mark.parametrize("n", [100, 300])
def test_squeeze_and_the_count_less_store_pack_what_a_compare_keeps(tmp_path: Path, n: int) -> None:
    padded = -(-n // 64) * 64
    x = np.random.default_rng(n).standard_normal(padded).astype(np.float32)
    x[n:] = 5.0  # past n: masked off by UpdateMask, never kept
    result = simulate(tmp_path, n, x)
    assert result.ok, [str(d) for d in result.findings]
    want = x[:n][x[:n] > 0]
    y = result.outputs["y"]
    np.testing.assert_array_equal(y[:want.size], want)
    assert (y[want.size:] == -7).all()
    assert result.outputs["n"][0] == want.size


def test_two_squeezes_before_their_store_are_named(tmp_path: Path) -> None:
    second = "MicroAPI::Squeeze<float, MicroAPI::GatherMaskMode::STORE_REG>(kept, xReg, positive);"
    result = simulate(tmp_path, 64, np.ones(64, np.float32), second)
    errors = [d for d in result.findings if d.code == "ASC958"]
    assert errors and "Reg::Squeeze" in errors[0].message and "alternate" in errors[0].message, \
        [str(d) for d in result.findings]
