"""ShiftLefts / ShiftRights and the MaskReg forms of UnPack / Pack (issue 28, session 12), by asc-devkit's pages
(docs .../Reg矢量计算/逻辑计算/ShiftLefts.md, ShiftRights.md; MaskReg计算/UnPack.md, Pack.md): a signed left shift is
arithmetic (the sign bit kept, the bits below it shifted: 0x40000001 << 3 is 8), a signed right shift copies the
sign; `MaskUnPack(dst, src)` spreads each bit of src's low half to two (the upper one 0), so a b16 mask of 32
elements selects 32 int32 elements, and `Pack<HighLowPart::HIGHEST>` puts src's even bits in dst's high half.
Before, ShiftLefts was an unresolved call and the MaskReg UnPack / Pack ASC958 ('argument dst is no vector
register'), as in ops-nn's reduce_common_regbase.h (ShiftLefts) and scatter_add (UnPack / Pack of masks)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
using namespace AscendC::MicroAPI;

__simd_vf__ inline void ShiftVF(__ubuf__ int32_t* yAddr, __ubuf__ int32_t* zAddr, __ubuf__ int32_t* wAddr,
                                __ubuf__ int32_t* vAddr, __ubuf__ int32_t* xAddr)
{
    RegTensor<int32_t> xReg;
    RegTensor<int32_t> yReg;
    RegTensor<int32_t> zReg;
    RegTensor<int32_t> zero;
    MaskReg all = CreateMask<int32_t>();
    LoadAlign(xReg, xAddr);
    ShiftLefts(yReg, xReg, static_cast<int16_t>(3), all);
    ShiftRights(zReg, xReg, static_cast<int16_t>(2), all);
    StoreAlign(yAddr, yReg, all);
    StoreAlign(zAddr, zReg, all);
    Duplicate(zero, 0);
    MaskReg m16 = CreateMask<int16_t, MaskPattern::VL32>();
    MaskReg m32;
    MaskUnPack(m32, m16);
    Select(yReg, xReg, zero, m32);
    StoreAlign(wAddr, yReg, all);
    MaskReg high;
    MicroAPI::Pack<HighLowPart::HIGHEST>(high, m32);
    Select(yReg, xReg, zero, high);
    StoreAlign(vAddr, yReg, all);
}

extern "C" __global__ __aicore__ void reg_shift(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR w, GM_ADDR v,
                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<int32_t> xGm, yGm, zGm, wGm, vGm;
    xGm.SetGlobalBuffer((__gm__ int32_t *)x, 64);
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 64);
    zGm.SetGlobalBuffer((__gm__ int32_t *)z, 64);
    wGm.SetGlobalBuffer((__gm__ int32_t *)w, 64);
    vGm.SetGlobalBuffer((__gm__ int32_t *)v, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 5 * 64 * sizeof(int32_t));
    LocalTensor<int32_t> all = buf.Get<int32_t>();
    LocalTensor<int32_t> xl = all[0];
    LocalTensor<int32_t> yl = all[64];
    LocalTensor<int32_t> zl = all[128];
    LocalTensor<int32_t> wl = all[192];
    LocalTensor<int32_t> vl = all[256];
    DataCopy(xl, xGm, 64);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<ShiftVF>((__ubuf__ int32_t *)yl.GetPhyAddr(), (__ubuf__ int32_t *)zl.GetPhyAddr(),
        (__ubuf__ int32_t *)wl.GetPhyAddr(), (__ubuf__ int32_t *)vl.GetPhyAddr(), (__ubuf__ int32_t *)xl.GetPhyAddr());
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, yl, 64);
    DataCopy(zGm, zl, 64);
    DataCopy(wGm, wl, 64);
    DataCopy(vGm, vl, 64);
}
"""


def test_shifts_and_mask_unpack_pack_equal_numpy(tmp_path: Path) -> None:
    x = np.random.default_rng(0).integers(-(1 << 26), 1 << 26, 64).astype(np.int32)
    x[:3] = [0x40000001, -(1 << 30) - 5, -1]
    src = tmp_path / "reg_shift.cpp"
    src.write_text(KERNEL, encoding="utf-8")
    shape = ((64,), "int32")
    result = run(str(src), {"x": x}, chip="950PR", block_dim=1, outputs={k: shape for k in "yzwv"})
    assert result.ok, [str(d) for d in result.findings]
    wide = x.astype(np.int64)
    left = ((wide << 3) & 0x7FFFFFFF) | np.where(x < 0, -(1 << 31), 0)  # the sign bit kept
    np.testing.assert_array_equal(result.outputs["y"], left.astype(np.int32))
    assert result.outputs["y"][0] == 8
    np.testing.assert_array_equal(result.outputs["z"], x >> 2)
    first = np.arange(64) < 32  # the b16 mask's 32 elements, unpacked to int32 elements
    np.testing.assert_array_equal(result.outputs["w"], np.where(first, x, 0))
    upper = (np.arange(64) >= 32) & (np.arange(64) < 48)  # its even bits in the high half: elements 32..47
    np.testing.assert_array_equal(result.outputs["v"], np.where(upper, x, 0))
