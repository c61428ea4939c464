"""arch35's register API on the simulator (issue 28): a team-written vector function over RegTensor / MaskReg, launched
with asc_vf_call on --chip 950PR, matches numpy on two lengths whose last register is a tail UpdateMask covers
(100 = 64 + 36 floats, 300 = 4 * 64 + 44); the predicated lanes follow the modes (ZEROING: inactive lanes 0;
MERGING: dst keeps them; StoreAlign writes only active elements). A register call the simulator does not model
is ASC958 naming it, and on a 910B the register API is not there. Before issue 28 every such call stopped the
core (ASC958 'asc_vf_call, which the lowering could not resolve')."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__simd_vf__ inline void AxpyMaxVF(__ubuf__ T* zAddr, __ubuf__ T* xAddr, __ubuf__ T* yAddr, T alpha, uint32_t count,
                                  uint16_t repeats)
{
    Reg::RegTensor<T> xReg;
    Reg::RegTensor<T> yReg;
    Reg::RegTensor<T> zReg;
    Reg::RegTensor<T> floorReg;
    Reg::MaskReg mask;
    Reg::MaskReg all = Reg::CreateMask<T, Reg::MaskPattern::ALL>();
    uint32_t vl = GetVRegSize() / sizeof(T);
    for (uint16_t i = 0; i < repeats; ++i) {
        mask = Reg::UpdateMask<T>(count);
        Reg::LoadAlign(xReg, xAddr + i * vl);
        Reg::LoadAlign(yReg, yAddr + i * vl);
        Reg::Muls(zReg, xReg, alpha, mask);
        Reg::Add(zReg, zReg, yReg, mask);
        Reg::Duplicate(floorReg, (T)-0.5, all);
        Reg::Max(zReg, zReg, floorReg, mask);
        Reg::StoreAlign(zAddr + i * vl, zReg, mask);
        Reg::LocalMemBar<Reg::MemType::VEC_STORE, Reg::MemType::VEC_LOAD>();
    }
}

extern "C" __global__ __aicore__ void reg_axpy(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, td.padded);
    yGm.SetGlobalBuffer((__gm__ float *)y, td.padded);
    zGm.SetGlobalBuffer((__gm__ float *)z, td.padded);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb, zb;
    pipe.InitBuffer(xb, td.padded * sizeof(float));
    pipe.InitBuffer(yb, td.padded * sizeof(float));
    pipe.InitBuffer(zb, td.padded * sizeof(float));
    LocalTensor<float> xl = xb.Get<float>();
    LocalTensor<float> yl = yb.Get<float>();
    LocalTensor<float> zl = zb.Get<float>();
    DataCopy(xl, xGm, td.padded);
    DataCopy(yl, yGm, td.padded);
    Duplicate(zl, 7.0f, td.padded);
    PipeBarrier<PIPE_ALL>();
    uint16_t repeats = (td.n + 63) / 64;
    asc_vf_call<AxpyMaxVF<float>>((__ubuf__ float *)zl.GetPhyAddr(), (__ubuf__ float *)xl.GetPhyAddr(),
                                  (__ubuf__ float *)yl.GetPhyAddr(), 1.5f, td.n, repeats);
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, zl, td.padded);
}
"""


def simulate(tmp_path: Path, n: int, chip: str = "950PR", kernel: str = KERNEL):
    padded = -(-n // 64) * 64
    rng = np.random.default_rng(n)
    x = rng.standard_normal(padded).astype(np.float32)
    y = rng.standard_normal(padded).astype(np.float32)
    src = tmp_path / "reg_axpy.cpp"
    src.write_text(kernel, encoding="utf-8")
    result = run(str(src), {"x": x, "y": y}, chip=chip, block_dim=1, tiling={"n": n, "padded": padded},
                 outputs={"z": ((padded,), "float32")})
    return result, x, y


@pytest.mark.parametrize("n", [100, 300])
def test_vector_function_matches_numpy_with_an_update_mask_tail(tmp_path: Path, n: int) -> None:
    result, x, y = simulate(tmp_path, n)
    assert result.ok, [str(d) for d in result.findings]
    z = result.outputs["z"]
    # f32 throughout, rounded after each instruction as the register unit does
    want = np.maximum((x[:n] * np.float32(1.5)).astype(np.float32) + y[:n], np.float32(-0.5))
    np.testing.assert_array_equal(z[:n], want)
    # the tail's inactive lanes were not stored: the 7.0 the tensor held stays
    np.testing.assert_array_equal(z[n:], np.full(len(z) - n, 7.0, np.float32))


def test_merging_keeps_and_zeroing_clears_inactive_lanes(tmp_path: Path) -> None:
    # Duplicate 2.0 into all lanes, then Muls by 3 on the first n lanes (UpdateMask), stored in full
    body = KERNEL.replace("""        Reg::Muls(zReg, xReg, alpha, mask);
        Reg::Add(zReg, zReg, yReg, mask);
        Reg::Duplicate(floorReg, (T)-0.5, all);
        Reg::Max(zReg, zReg, floorReg, mask);
        Reg::StoreAlign(zAddr + i * vl, zReg, mask);""", """        Reg::Duplicate(zReg, (T)2.0, all);
        Reg::Muls<T, T, MODE>(zReg, zReg, (T)3.0, mask);
        Reg::StoreAlign(zAddr + i * vl, zReg, all);""")
    n = 100
    for mode, inactive in (("Reg::MaskMergeMode::MERGING", 2.0), ("Reg::MaskMergeMode::ZEROING", 0.0)):
        result, _, _ = simulate(tmp_path, n, kernel=body.replace("MODE", mode))
        assert result.ok, [str(d) for d in result.findings]
        z = result.outputs["z"]
        np.testing.assert_array_equal(z[:n], np.full(n, 6.0, np.float32))
        np.testing.assert_array_equal(z[n:], np.full(128 - n, inactive, np.float32))


def test_an_unmodelled_register_call_is_named(tmp_path: Path) -> None:
    # (Relu was this test's example until session 10 modelled it; LeakyRelu is not modelled)
    kernel = KERNEL.replace("Reg::Max(zReg, zReg, floorReg, mask);", "Reg::LeakyRelu(zReg, zReg, (T)0.5, mask);")
    result, _, _ = simulate(tmp_path, 100, kernel=kernel)
    errors = [d for d in result.findings if d.severity.value == "error"]
    assert errors and errors[0].code == "ASC958"
    assert "AscendC::Reg::LeakyRelu" in errors[0].message


def test_the_register_api_is_not_there_on_a_910b(tmp_path: Path) -> None:
    result, _, _ = simulate(tmp_path, 100, chip="910B2")
    assert not result.ok
    assert any(d.code == "ASC958" for d in result.findings), [str(d) for d in result.findings]


def test_bare_names_after_using_namespace(tmp_path: Path) -> None:
    # `using namespace AscendC::Reg;` then RegTensor, UpdateMask, LoadAlign, Add, ... unqualified (the ops-nn norm
    # kernels' style): the same register calls; before, UpdateMask and LoadAlign were unresolved and Add / Muls
    # opaque (ASC958)
    bare = KERNEL.replace("using namespace AscendC;", "using namespace AscendC;\nusing namespace AscendC::Reg;")
    bare = bare.replace("Reg::", "")
    assert "LoadAlign(xReg" in bare and "CreateMask<T, MaskPattern::ALL>()" in bare
    result, x, y = simulate(tmp_path, 100, kernel=bare)
    assert result.ok, [str(d) for d in result.findings]
    want = np.maximum((x[:100] * np.float32(1.5)).astype(np.float32) + y[:100], np.float32(-0.5))
    np.testing.assert_array_equal(result.outputs["z"][:100], want)
