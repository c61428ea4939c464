"""Bare register calls whose names the vendor declares but the tensor catalog does not model (issue 28, session 13):
after `using namespace AscendC::MicroAPI`, ops-nn's log_softmax_grad, layer_norm_grad_v3, batch_norm_grad_v3 and
add_rms_norm call `Reduce<AscendC::Reg::ReduceType::SUM>(reg2, reg0, pMask)` and `Move(dst, src, mask)` on registers.
A catalogued name (Duplicate) reaches the register API through api_call when an argument is a register; these two
fell to the vendor-declared opaque call first ('the call of Reduce, which the lowering could not resolve', ASC958;
sim_gaps.py: Reduce 5 files / 114 instructions, Move 3 / 54). They are the register API's own calls now."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
using namespace AscendC::MicroAPI;

__simd_vf__ inline void SumVF(__ubuf__ float* zAddr, __ubuf__ float* xAddr, uint32_t n)
{
    RegTensor<float> x;
    RegTensor<float> sum;
    RegTensor<float> out;
    MaskReg mask = UpdateMask<float>(n);
    MaskReg one = CreateMask<float, MaskPattern::VL1>();
    LoadAlign(x, xAddr);
    Reduce<AscendC::Reg::ReduceType::SUM>(sum, x, mask);
    Move(out, sum, one);
    StoreAlign(zAddr, out, one);
}

extern "C" __global__ __aicore__ void red(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    zGm.SetGlobalBuffer((__gm__ float *)z, 8);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, zb;
    pipe.InitBuffer(xb, 64 * sizeof(float));
    pipe.InitBuffer(zb, 64 * sizeof(float));
    LocalTensor<float> xl = xb.Get<float>();
    LocalTensor<float> zl = zb.Get<float>();
    DataCopy(xl, xGm, 64);
    Duplicate(zl, 0.0f, 64);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<SumVF>((__ubuf__ float *)zl.GetPhyAddr(), (__ubuf__ float *)xl.GetPhyAddr(), 10u);
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, zl, 8);
}
"""


def test_bare_reduce_and_move_on_registers_are_the_register_calls(tmp_path: Path) -> None:
    src = tmp_path / "red.cpp"
    src.write_text(KERNEL, encoding="utf-8")
    x = np.arange(64, dtype=np.float32)
    result = run(str(src), {"x": x}, chip="950PR", block_dim=1, outputs={"z": ((8,), "float32")})
    assert result.ok, [str(d) for d in result.findings]
    # the first 10 elements summed into lane 0 (0 + 1 + ... + 9), moved and stored under a one-lane mask
    np.testing.assert_array_equal(result.outputs["z"], [45, 0, 0, 0, 0, 0, 0, 0])
