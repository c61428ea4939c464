"""The register API's Gather from UB (issue 28, session 11): `Reg::Gather(dst, baseAddr, index, mask)` puts element
`index[i]` of baseAddr (counted in elements of the source type) in lane i; lanes the mask leaves out are 0; an int8
source into an int16 register keeps its 8 bits and zeros the upper 8 (asc-devkit docs: Reg数据搬入/离散搬入（Gather）.md
and the C API's asc_gather.md). Also the older names MaskAnd / MaskOr / MaskNot (the Impl And / Or / Not of MaskRegs
call), Copy (Move's CopyImpl, MERGING under a mask) and Duplicate's Tensor mode (srcReg's lowest element into the
lanes the mask selects, Duplicate.md). Before, the four-argument Gather was ASC958 'the form with 4
arguments', the older names 'not modelled' and Duplicate(dst, srcReg, mask) 'argument scalar is no scalar'."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

__simd_vf__ inline void GatherVF(__ubuf__ float* zAddr, __ubuf__ float* xAddr, __ubuf__ uint32_t* iAddr,
                                 __ubuf__ int16_t* bAddr, __ubuf__ int8_t* cAddr, __ubuf__ uint16_t* jAddr,
                                 uint32_t count)
{
    Reg::RegTensor<uint32_t> idx;
    Reg::RegTensor<float> g;
    Reg::RegTensor<float> keep;
    Reg::RegTensor<uint16_t> jdx;
    Reg::RegTensor<int16_t> b;
    Reg::MaskReg mask = Reg::UpdateMask<float>(count);
    Reg::MaskReg all = Reg::CreateMask<float, Reg::MaskPattern::ALL>();
    Reg::MaskReg low = Reg::CreateMask<float, Reg::MaskPattern::VL8>();
    Reg::MaskReg both;
    Reg::MaskReg either;
    Reg::MaskReg neither;
    Reg::LoadAlign(idx, iAddr);
    Reg::Gather(g, xAddr, idx, mask);
    Reg::StoreAlign(zAddr, g, all);
    Reg::MaskAnd(both, mask, low, all);
    Reg::MaskOr(either, mask, low, all);
    Reg::MaskNot(neither, either, all);
    Reg::Duplicate(keep, 7.0f, all);
    Reg::Copy(keep, g, both);
    Reg::StoreAlign(zAddr + 64, keep, all);
    Reg::Duplicate(keep, 1.0f, neither);
    Reg::StoreAlign(zAddr + 128, keep, all);
    Reg::Duplicate<float, Reg::HighLowPart::LOWEST, Reg::MaskMergeMode::ZEROING>(keep, g, low);
    Reg::StoreAlign(zAddr + 192, keep, all);
    Reg::MaskReg all16 = Reg::CreateMask<int16_t, Reg::MaskPattern::ALL>();
    Reg::LoadAlign(jdx, jAddr);
    Reg::Gather(b, cAddr, jdx, all16);
    Reg::StoreAlign(bAddr, b, all16);
}

extern "C" __global__ __aicore__ void reg_gather(GM_ADDR x, GM_ADDR i, GM_ADDR c, GM_ADDR j, GM_ADDR z, GM_ADDR b,
                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, zGm;
    GlobalTensor<uint32_t> iGm;
    GlobalTensor<int8_t> cGm;
    GlobalTensor<uint16_t> jGm;
    GlobalTensor<int16_t> bGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 256);
    iGm.SetGlobalBuffer((__gm__ uint32_t *)i, 64);
    cGm.SetGlobalBuffer((__gm__ int8_t *)c, 256);
    jGm.SetGlobalBuffer((__gm__ uint16_t *)j, 128);
    zGm.SetGlobalBuffer((__gm__ float *)z, 256);
    bGm.SetGlobalBuffer((__gm__ int16_t *)b, 128);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, ib, cb, jb, zb, bb;
    pipe.InitBuffer(xb, 256 * sizeof(float));
    pipe.InitBuffer(ib, 64 * sizeof(uint32_t));
    pipe.InitBuffer(cb, 256);
    pipe.InitBuffer(jb, 128 * sizeof(uint16_t));
    pipe.InitBuffer(zb, 256 * sizeof(float));
    pipe.InitBuffer(bb, 128 * sizeof(int16_t));
    LocalTensor<float> xl = xb.Get<float>();
    LocalTensor<uint32_t> il = ib.Get<uint32_t>();
    LocalTensor<int8_t> cl = cb.Get<int8_t>();
    LocalTensor<uint16_t> jl = jb.Get<uint16_t>();
    LocalTensor<float> zl = zb.Get<float>();
    LocalTensor<int16_t> bl = bb.Get<int16_t>();
    DataCopy(xl, xGm, 256);
    DataCopy(il, iGm, 64);
    DataCopy(cl, cGm, 256);
    DataCopy(jl, jGm, 128);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<GatherVF>((__ubuf__ float *)zl.GetPhyAddr(), (__ubuf__ float *)xl.GetPhyAddr(),
                          (__ubuf__ uint32_t *)il.GetPhyAddr(), (__ubuf__ int16_t *)bl.GetPhyAddr(),
                          (__ubuf__ int8_t *)cl.GetPhyAddr(), (__ubuf__ uint16_t *)jl.GetPhyAddr(), td.n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, zl, 256);
    DataCopy(bGm, bl, 128);
}
"""


def simulate(tmp_path: Path, n: int, x, i, c, j):
    src = tmp_path / "reg_gather.cpp"
    src.write_text(KERNEL, encoding="utf-8")
    return run(str(src), {"x": x, "i": i, "c": c, "j": j}, chip="950PR", block_dim=1, tiling={"n": n},
               outputs={"z": ((256,), "float32"), "b": ((128,), "int16")})


def test_gather_from_ub_and_the_older_mask_names_match_numpy(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal(256).astype(np.float32)
    i = rng.integers(0, 256, 64).astype(np.uint32)
    i[:4] = [255, 0, 0, 17]  # the last element, a repeated index
    c = rng.integers(-128, 128, 256).astype(np.int8)
    c[[5, 6]] = [40, -40]
    j = rng.integers(0, 256, 128).astype(np.uint16)
    j[:2] = [5, 6]
    n = 37
    result = simulate(tmp_path, n, x, i, c, j)
    assert result.ok, [str(d) for d in result.findings]
    z = result.outputs["z"]
    lanes = np.arange(64)
    gathered = np.where(lanes < n, x[i], 0).astype(np.float32)
    np.testing.assert_array_equal(z[:64], gathered)
    both, either = (lanes < n) & (lanes < 8), (lanes < n) | (lanes < 8)
    np.testing.assert_array_equal(z[64:128], np.where(both, gathered, 7).astype(np.float32))
    np.testing.assert_array_equal(z[128:192], np.where(~either, 1, 0).astype(np.float32))
    np.testing.assert_array_equal(z[192:], np.where(lanes < 8, gathered[0], 0).astype(np.float32))
    b = result.outputs["b"]
    np.testing.assert_array_equal(b, c[j].view(np.uint8).astype(np.int16))
    assert list(b[:2]) == [40, 216]


def test_a_gathered_element_outside_ub_is_out_of_bounds(tmp_path: Path) -> None:
    x = np.zeros(256, np.float32)
    i = np.zeros(64, np.uint32)
    i[2] = 1 << 30
    result = simulate(tmp_path, 64, x, i, np.zeros(256, np.int8), np.zeros(128, np.uint16))
    assert not result.ok
    assert any("Reg::Gather" in d.message for d in result.findings), [str(d) for d in result.findings]


def test_data_copy_gather_is_gather(tmp_path: Path) -> None:
    # MicroAPI::DataCopyGather(dst, ubAddr, index, mask), and bare after `using ...::DataCopyGather;` (ops-math
    # roll_gather_simd.h, transpose_with_gather.h), is Gather of the same four: one DataCopyGatherImpl
    # (kernel_reg_compute_datacopy_intf_impl.h). Before: ASC958 'DataCopyGather (not modelled)' / unresolved.
    kernel = KERNEL.replace("Reg::Gather(g, xAddr, idx, mask);", "MicroAPI::DataCopyGather(g, xAddr, idx, mask);")
    kernel = kernel.replace("Reg::Gather(b, cAddr, jdx, all16);", "DataCopyGather(b, cAddr, jdx, all16);")
    kernel = kernel.replace("using namespace AscendC;", "using namespace AscendC;\nusing AscendC::MicroAPI::DataCopyGather;")
    assert kernel.count("DataCopyGather(") == 2
    src = tmp_path / "reg_gather.cpp"
    src.write_text(kernel, encoding="utf-8")
    rng = np.random.default_rng(4)
    x = rng.standard_normal(256).astype(np.float32)
    i = rng.integers(0, 256, 64).astype(np.uint32)
    c = rng.integers(-128, 128, 256).astype(np.int8)
    j = rng.integers(0, 256, 128).astype(np.uint16)
    result = run(str(src), {"x": x, "i": i, "c": c, "j": j}, chip="950PR", block_dim=1, tiling={"n": 64},
                 outputs={"z": ((256,), "float32"), "b": ((128,), "int16")})
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["z"][:64], x[i])
    np.testing.assert_array_equal(result.outputs["b"], c[j].view(np.uint8).astype(np.int16))
