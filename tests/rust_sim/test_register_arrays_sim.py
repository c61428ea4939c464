"""Arrays of registers in a vector function (issue 28, session 11): `Reg::RegTensor<T> parts[4];` is four registers
of the core's file, and `parts[2]` with an index the lowering knows (a literal, a constant expression, a template
argument) names one of them, also when passed by reference to a `__simd_callee__` helper (the pooling kernels'
`RegTensor<U> index[16]` loaded by `LoadIndex<REG_NUM, IDX>(addr, index[IDX])`). Before, the declaration lowered
into 'an array of none' and the core stopped there (ASC958). The accumulator's type is a block-scope alias chosen by
`std::conditional` (their `RegDstT`), which before was no register ("argument 'dst' is no vector register"). An index known only at run time would pick a register
while the kernel runs, which a program naming its registers cannot express: it stays a named ASC958."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t PARTS = 4;

template <typename T, int K>
__simd_callee__ inline void LoadPart(__ubuf__ T* xAddr, Reg::RegTensor<T>& dst)
{
    Reg::LoadAlign(dst, xAddr + K * 64);
}

template <typename T>
__simd_vf__ inline void SumPartsVF(__ubuf__ T* zAddr, __ubuf__ T* xAddr)
{
    Reg::RegTensor<T> parts[PARTS];
    using AccT = typename std::conditional<sizeof(T) == 8, Reg::RegTensor<T, Reg::RegTraitNumTwo>,
                                           Reg::RegTensor<T>>::type;
    AccT acc;
    Reg::MaskReg masks[2][1];
    masks[1][0] = Reg::CreateMask<T, Reg::MaskPattern::ALL>();
    Reg::LoadAlign(parts[0], xAddr);
    LoadPart<T, 1>(xAddr, parts[1]);
    LoadPart<T, 2>(xAddr, parts[2]);
    LOAD_LAST
    Reg::Add(acc, parts[0], parts[1], masks[1][0]);
    Reg::Mul(parts[2], parts[2], parts[3], masks[1][0]);
    Reg::Add(acc, acc, parts[2], masks[1][0]);
    Reg::StoreAlign(zAddr, acc, masks[1][0]);
}

extern "C" __global__ __aicore__ void reg_arr(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 256);
    zGm.SetGlobalBuffer((__gm__ float *)z, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, zb;
    pipe.InitBuffer(xb, 256 * sizeof(float));
    pipe.InitBuffer(zb, 64 * sizeof(float));
    LocalTensor<float> xl = xb.Get<float>();
    LocalTensor<float> zl = zb.Get<float>();
    DataCopy(xl, xGm, 256);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<SumPartsVF<float>>((__ubuf__ float *)zl.GetPhyAddr(), (__ubuf__ float *)xl.GetPhyAddr());
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, zl, 64);
}
"""


def simulate(tmp_path: Path, load_last: str, x: np.ndarray):
    src = tmp_path / "reg_arr.cpp"
    src.write_text(KERNEL.replace("LOAD_LAST", load_last), encoding="utf-8")
    return run(str(src), {"x": x}, chip="950PR", block_dim=1, outputs={"z": ((64,), "float32")})


def test_register_array_elements_are_registers(tmp_path: Path) -> None:
    x = np.random.default_rng(0).standard_normal(256).astype(np.float32)
    result = simulate(tmp_path, "Reg::LoadAlign(parts[PARTS - 1], xAddr + 3 * 64);", x)
    assert result.ok, [str(d) for d in result.findings]
    want = x[:64] + x[64:128] + x[128:192] * x[192:]
    np.testing.assert_array_equal(result.outputs["z"], want.astype(np.float32))


def test_a_register_picked_at_run_time_is_named(tmp_path: Path) -> None:
    x = np.zeros(256, np.float32)
    result = simulate(tmp_path, "for (uint16_t k = 3; k < 4; ++k) { Reg::LoadAlign(parts[k], xAddr + k * 64); }", x)
    errors = [d for d in result.findings if d.code == "ASC958"]
    line = KERNEL.splitlines().index("    LOAD_LAST") + 1  # (the text starts with its first line break)
    assert errors and "Reg::LoadAlign" in errors[0].message and "known only at run time" in errors[0].message \
        and errors[0].span.line == line, [str(d) for d in result.findings]
