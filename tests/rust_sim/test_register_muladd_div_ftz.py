"""MulAddDst and Div with a flush-to-zero DivSpecificMode in register code (issue 28). MulAddDst.md: dst = src0 *
src1 + dst on the mask's lanes, "在硬件层面单条指令完成乘加融合计算" (fused: one rounding), ZEROING only. Div.md:
DivAlgo::PRECISION_0ULP_FTZ_TRUE (ops-nn avg_pool_v2's divHighPrecisionMode) computes the exact quotient and flushes
subnormal results to zero. Before: 'AscendC::Reg::MulAddDst (not modelled)' and 'Div (a SpecificMode template
argument the model does not cover)', ASC958. Div without a SpecificMode is DivAlgo::INTRINSIC, which flushes too
("只有...FTZ_FALSE时...保留...Subnormal结果；其他模式下Subnormal均被FTZ"); PRECISION_1ULP_FTZ_FALSE keeps them (before
session 15 the plain Div kept them)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;

constexpr MicroAPI::DivSpecificMode divFtz = {MicroAPI::MaskMergeMode::ZEROING, true,
                                              DivAlgo::PRECISION_0ULP_FTZ_TRUE};

__simd_vf__ inline void MulAddVF(__ubuf__ float* zAddr, __ubuf__ float* qAddr, __ubuf__ float* aAddr,
                                 __ubuf__ float* bAddr, __ubuf__ float* cAddr, uint32_t n)
{
    MicroAPI::RegTensor<float> a, b, acc, q;
    MicroAPI::MaskReg mask = MicroAPI::UpdateMask<float>(n);
    MicroAPI::LoadAlign(a, aAddr);
    MicroAPI::LoadAlign(b, bAddr);
    MicroAPI::LoadAlign(acc, cAddr);
    MicroAPI::MulAddDst(acc, a, b, mask);
    MicroAPI::StoreAlign(zAddr, acc, mask);
    MicroAPI::Div<float, &divFtz>(q, a, b, mask);
    MicroAPI::StoreAlign(qAddr, q, mask);
}

constexpr MicroAPI::DivSpecificMode divKeep = {MicroAPI::MaskMergeMode::ZEROING, false,
                                               DivAlgo::PRECISION_1ULP_FTZ_FALSE};

// the plain Div (DivAlgo::INTRINSIC) into qAddr, the subnormal-keeping one into kAddr
__simd_vf__ inline void DivVF(__ubuf__ float* qAddr, __ubuf__ float* kAddr, __ubuf__ float* aAddr,
                              __ubuf__ float* bAddr)
{
    MicroAPI::RegTensor<float> a, b, q;
    MicroAPI::MaskReg mask = MicroAPI::CreateMask<float>();
    MicroAPI::LoadAlign(a, aAddr);
    MicroAPI::LoadAlign(b, bAddr);
    MicroAPI::Div(q, a, b, mask);
    MicroAPI::StoreAlign(qAddr, q, mask);
    MicroAPI::Div<float, &divKeep>(q, a, b, mask);
    MicroAPI::StoreAlign(kAddr, q, mask);
}

extern "C" __global__ __aicore__ void ma(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR z, GM_ADDR q, GM_ADDR workspace,
                                         GM_ADDR tiling)
{
    GlobalTensor<float> aGm, bGm, cGm, zGm, qGm;
    aGm.SetGlobalBuffer((__gm__ float *)a, 64);
    bGm.SetGlobalBuffer((__gm__ float *)b, 64);
    cGm.SetGlobalBuffer((__gm__ float *)c, 64);
    zGm.SetGlobalBuffer((__gm__ float *)z, 64);
    qGm.SetGlobalBuffer((__gm__ float *)q, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> ab, bb, cb, zb, qb;
    pipe.InitBuffer(ab, 64 * sizeof(float));
    pipe.InitBuffer(bb, 64 * sizeof(float));
    pipe.InitBuffer(cb, 64 * sizeof(float));
    pipe.InitBuffer(zb, 64 * sizeof(float));
    pipe.InitBuffer(qb, 64 * sizeof(float));
    LocalTensor<float> al = ab.Get<float>(), bl = bb.Get<float>(), cl = cb.Get<float>();
    LocalTensor<float> zl = zb.Get<float>(), ql = qb.Get<float>();
    DataCopy(al, aGm, 64);
    DataCopy(bl, bGm, 64);
    DataCopy(cl, cGm, 64);
    Duplicate(zl, 0.0f, 64);
    Duplicate(ql, 0.0f, 64);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<MulAddVF>((__ubuf__ float *)zl.GetPhyAddr(), (__ubuf__ float *)ql.GetPhyAddr(),
                          (__ubuf__ float *)al.GetPhyAddr(), (__ubuf__ float *)bl.GetPhyAddr(),
                          (__ubuf__ float *)cl.GetPhyAddr(), 40u);
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, zl, 64);
    DataCopy(qGm, ql, 64);
}
"""


def test_fused_multiply_add_and_flushed_division(tmp_path: Path) -> None:
    path = tmp_path / "ma.cpp"
    path.write_text(KERNEL, encoding="utf-8")
    rng = np.random.default_rng(0)
    a = rng.uniform(-4, 4, 64).astype(np.float32)
    b = rng.uniform(0.5, 4, 64).astype(np.float32)
    c = rng.uniform(-4, 4, 64).astype(np.float32)
    eps = np.float32(np.finfo(np.float32).eps)
    a[0], b[0], c[0] = 1 + eps, 1 - eps, -1.0  # fused: -eps^2 survives; a rounded product would give 0
    a[1], b[1] = np.float32(1e-30), np.float32(1e9)  # a subnormal quotient (1e-39): flushed
    outputs = {"z": ((64,), "float32"), "q": ((64,), "float32")}
    result = run(str(path), {"a": a, "b": b, "c": c}, chip="950PR", block_dim=1, outputs=outputs)
    assert result.ok, [str(d) for d in result.findings]
    n = 40
    fused = (a[:n].astype(np.float64) * b[:n] + c[:n]).astype(np.float32)
    np.testing.assert_array_equal(result.outputs["z"][:n], fused)
    assert result.outputs["z"][0] == -eps * eps
    np.testing.assert_array_equal(result.outputs["z"][n:], 0)  # lanes outside the mask are not stored
    want_q = (a[:n] / b[:n]).astype(np.float32)
    want_q[np.abs(want_q) < np.finfo(np.float32).tiny] = 0
    np.testing.assert_array_equal(result.outputs["q"][:n], want_q)
    assert result.outputs["q"][1] == 0


def test_plain_division_flushes_and_ftz_false_keeps_subnormals(tmp_path: Path) -> None:
    source = KERNEL.replace("asc_vf_call<MulAddVF>((__ubuf__ float *)zl.GetPhyAddr(), (__ubuf__ float *)ql.GetPhyAddr(),",
                            "asc_vf_call<DivVF>((__ubuf__ float *)zl.GetPhyAddr(), (__ubuf__ float *)ql.GetPhyAddr(),")
    source = source.replace("""                          (__ubuf__ float *)cl.GetPhyAddr(), 40u);""", "")
    source = source.replace("(__ubuf__ float *)al.GetPhyAddr(), (__ubuf__ float *)bl.GetPhyAddr(),",
                            "(__ubuf__ float *)al.GetPhyAddr(), (__ubuf__ float *)bl.GetPhyAddr());")
    path = tmp_path / "div.cpp"
    path.write_text(source, encoding="utf-8")
    a = np.full(64, 3.0, np.float32)
    b = np.full(64, 2.0, np.float32)
    a[1], b[1] = np.float32(1e-30), np.float32(1e9)  # 1e-39: subnormal
    a[2], b[2] = np.float32(-1e-30), np.float32(1e9)
    outputs = {"z": ((64,), "float32"), "q": ((64,), "float32")}
    result = run(str(path), {"a": a, "b": b, "c": a}, chip="950PR", block_dim=1, outputs=outputs)
    assert result.ok, [str(d) for d in result.findings]
    plain, kept = result.outputs["z"], result.outputs["q"]
    exact = (a / b).astype(np.float32)
    assert plain[1] == 0 and np.signbit(plain[2]) and plain[2] == 0  # flushed to zeros of their sign
    assert kept[1] == exact[1] != 0 and kept[2] == exact[2]
    np.testing.assert_array_equal(plain[3:], exact[3:])
