"""Overloads that differ in a pointer parameter and a tensor / TBuf one (issue 28, session 13). ops-nn's
reduce_common_regbase.h declares CalculateReduceSum three times with five parameters: on `__local_mem__ float *`
addresses (its `__VEC_SCOPE__` register code), on three LocalTensors (taking their GetPhyAddr()), and on two
LocalTensors and a TBuf; deep_norm_grad calls the TBuf one. The lowering took the first plain overload of the right
arity, the pointer one, so the LocalTensors reached Reg::LoadAlign as addresses (ASC958 'an address argument of
type LocalTensor<float>', 32 instructions of deep_norm_grad in sim_gaps.py). A LocalTensor has no conversion to a
pointer, nor a TBuf to a LocalTensor, so C++ takes the overload the argument types name; so does the lowering now.
The kernel below is the team's, the same shape: the TBuf overload, then the LocalTensor one, then the register code."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Scale(__local_mem__ float* xPtr, __local_mem__ float* dstPtr, __local_mem__ float* tmpPtr,
                             uint32_t n)
{
    __VEC_SCOPE__
    {
        Reg::RegTensor<float> xReg;
        Reg::MaskReg mask = Reg::UpdateMask<float>(n);
        Reg::LoadAlign(xReg, xPtr);
        Reg::Muls(xReg, xReg, 2.0f, mask);
        Reg::StoreAlign(dstPtr, xReg, mask);
    }
}

__aicore__ inline void Scale(LocalTensor<float>& xLocal, LocalTensor<float>& dstLocal, LocalTensor<float>& tmpLocal,
                             uint32_t n)
{
    Scale((__local_mem__ float*)xLocal.GetPhyAddr(), (__local_mem__ float*)dstLocal.GetPhyAddr(),
          (__local_mem__ float*)tmpLocal.GetPhyAddr(), n);
}

__aicore__ inline void Scale(LocalTensor<float>& xLocal, LocalTensor<float>& dstLocal, TBuf<TPosition::VECCALC>& tmpBuf,
                             uint32_t n)
{
    LocalTensor<float> tmpLocal = tmpBuf.Get<float>();
    Scale(xLocal, dstLocal, tmpLocal, n);
}

extern "C" __global__ __aicore__ void ov(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    zGm.SetGlobalBuffer((__gm__ float *)z, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, zb, tb;
    pipe.InitBuffer(xb, 64 * sizeof(float));
    pipe.InitBuffer(zb, 64 * sizeof(float));
    pipe.InitBuffer(tb, 64 * sizeof(float));
    LocalTensor<float> xl = xb.Get<float>();
    LocalTensor<float> zl = zb.Get<float>();
    DataCopy(xl, xGm, 64);
    PipeBarrier<PIPE_ALL>();
    Scale(xl, zl, tb, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, zl, 64);
}
"""


def test_a_tensor_argument_picks_the_tensor_overload_not_the_pointer_one(tmp_path: Path) -> None:
    src = tmp_path / "ov.cpp"
    src.write_text(KERNEL, encoding="utf-8")
    x = np.random.default_rng(0).standard_normal(64).astype(np.float32)
    result = run(str(src), {"x": x}, chip="950PR", block_dim=1, outputs={"z": ((64,), "float32")})
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["z"], x * np.float32(2))
