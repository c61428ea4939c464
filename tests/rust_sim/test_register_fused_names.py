"""The register API's fused multiply-adds by their other names (issue 28, the sim_gaps sweep): `Mula(dst, a, b, mask)`
is MulAddDst (dst = a * b + dst; kernel_reg_compute_vec_binary_intf_impl.h calls MulAddDstImpl), and MulDstAdd /
`FusedMulDstAdd(dst, a, b, mask)` is dst = dst * a + b (MulDstAdd.md; kernel_reg_compute_vec_fused_intf_impl.h:
both call FusedMulDstAddImpl), fused, ZEROING. ops-nn's norm_common reduce_common_regbase.h calls Mula bare (found
through its RegTensor arguments: only using-declarations of RegTensor / MaskReg are in scope), ada_layer_norm
FusedMulDstAdd after `using namespace AscendC::MicroAPI`. Before: 'the call of Mula, which the lowering could not
resolve' and the same for FusedMulDstAdd (ASC958 where reached)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

KERNEL = """#include "kernel_operator.h"

namespace Norm {
using namespace AscendC;
using AscendC::MicroAPI::MaskReg;
using AscendC::MicroAPI::RegTensor;

// dst = a * b + dst, the name found through the register arguments
__simd_vf__ inline void MulaVF(__ubuf__ float* zAddr, __ubuf__ float* aAddr, __ubuf__ float* bAddr,
                               __ubuf__ float* cAddr, uint32_t n)
{
    RegTensor<float> a, b, acc;
    MaskReg mask = AscendC::MicroAPI::UpdateMask<float>(n);
    AscendC::MicroAPI::LoadAlign(a, aAddr);
    AscendC::MicroAPI::LoadAlign(b, bAddr);
    AscendC::MicroAPI::LoadAlign(acc, cAddr);
    Mula(acc, a, b, mask);
    AscendC::MicroAPI::StoreAlign(zAddr, acc, mask);
}
}  // namespace Norm

namespace Ada {
using namespace AscendC;
using namespace AscendC::MicroAPI;

// x = x * scale + shift, twice: FusedMulDstAdd, then MulDstAdd by its qualified name
__simd_vf__ inline void ScaleShiftVF(__ubuf__ float* yAddr, __ubuf__ float* wAddr, __ubuf__ float* aAddr,
                                     __ubuf__ float* bAddr, __ubuf__ float* cAddr, uint32_t n)
{
    RegTensor<float> x, scale, shift;
    MaskReg mask = UpdateMask<float>(n);
    LoadAlign(x, cAddr);
    LoadAlign(scale, aAddr);
    LoadAlign(shift, bAddr);
    FusedMulDstAdd(x, scale, shift, mask);
    StoreAlign(yAddr, x, mask);
    LoadAlign(x, cAddr);
    AscendC::MicroAPI::MulDstAdd<float, MaskMergeMode::ZEROING>(x, scale, shift, mask);
    StoreAlign(wAddr, x, mask);
}
}  // namespace Ada

using namespace AscendC;

extern "C" __global__ __aicore__ void fm(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR z, GM_ADDR y, GM_ADDR w,
                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<float> aGm, bGm, cGm, zGm, yGm, wGm;
    aGm.SetGlobalBuffer((__gm__ float *)a, 64);
    bGm.SetGlobalBuffer((__gm__ float *)b, 64);
    cGm.SetGlobalBuffer((__gm__ float *)c, 64);
    zGm.SetGlobalBuffer((__gm__ float *)z, 64);
    yGm.SetGlobalBuffer((__gm__ float *)y, 64);
    wGm.SetGlobalBuffer((__gm__ float *)w, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> ab, bb, cb, zb, yb, wb;
    pipe.InitBuffer(ab, 64 * sizeof(float));
    pipe.InitBuffer(bb, 64 * sizeof(float));
    pipe.InitBuffer(cb, 64 * sizeof(float));
    pipe.InitBuffer(zb, 64 * sizeof(float));
    pipe.InitBuffer(yb, 64 * sizeof(float));
    pipe.InitBuffer(wb, 64 * sizeof(float));
    LocalTensor<float> al = ab.Get<float>(), bl = bb.Get<float>(), cl = cb.Get<float>();
    LocalTensor<float> zl = zb.Get<float>(), yl = yb.Get<float>(), wl = wb.Get<float>();
    DataCopy(al, aGm, 64);
    DataCopy(bl, bGm, 64);
    DataCopy(cl, cGm, 64);
    Duplicate(zl, 0.0f, 64);
    Duplicate(yl, 0.0f, 64);
    Duplicate(wl, 0.0f, 64);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<Norm::MulaVF>((__ubuf__ float *)zl.GetPhyAddr(), (__ubuf__ float *)al.GetPhyAddr(),
                              (__ubuf__ float *)bl.GetPhyAddr(), (__ubuf__ float *)cl.GetPhyAddr(), 40u);
    asc_vf_call<Ada::ScaleShiftVF>((__ubuf__ float *)yl.GetPhyAddr(), (__ubuf__ float *)wl.GetPhyAddr(),
                                   (__ubuf__ float *)al.GetPhyAddr(), (__ubuf__ float *)bl.GetPhyAddr(),
                                   (__ubuf__ float *)cl.GetPhyAddr(), 40u);
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, zl, 64);
    DataCopy(yGm, yl, 64);
    DataCopy(wGm, wl, 64);
}
"""


def test_mula_and_fused_mul_dst_add_are_the_fused_multiply_adds(tmp_path: Path) -> None:
    path = tmp_path / "fm.cpp"
    path.write_text(KERNEL, encoding="utf-8")
    rng = np.random.default_rng(0)
    a = rng.uniform(-4, 4, 64).astype(np.float32)
    b = rng.uniform(-4, 4, 64).astype(np.float32)
    c = rng.uniform(-4, 4, 64).astype(np.float32)
    eps = np.float32(np.finfo(np.float32).eps)
    a[0], b[0], c[0] = 1 + eps, 1 - eps, -1.0  # Mula fused: -eps^2 survives; a rounded product would give 0
    c[1], a[1], b[1] = 1 + eps, 1 - eps, -1.0  # MulDstAdd fused: dst * a + b = -eps^2 as well
    outputs = {name: ((64,), "float32") for name in ("z", "y", "w")}
    result = run(str(path), {"a": a, "b": b, "c": c}, chip="950PR", block_dim=1, outputs=outputs)
    assert result.ok, [str(d) for d in result.findings]
    n = 40
    wide = [v[:n].astype(np.float64) for v in (a, b, c)]
    np.testing.assert_array_equal(result.outputs["z"][:n], (wide[0] * wide[1] + wide[2]).astype(np.float32))
    assert result.outputs["z"][0] == -eps * eps
    dst_factor = (wide[2] * wide[0] + wide[1]).astype(np.float32)
    np.testing.assert_array_equal(result.outputs["y"][:n], dst_factor)
    np.testing.assert_array_equal(result.outputs["w"][:n], dst_factor)
    assert result.outputs["y"][1] == -eps * eps
    for name in ("z", "y", "w"):
        np.testing.assert_array_equal(result.outputs[name][n:], 0)  # lanes outside the mask are not stored
