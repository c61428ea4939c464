"""The register API's compute calls on the simulator (issue 28, session 10): a team-written vector function on
--chip 950PR compares two registers (`Compare<T, CMPMODE::GT>`, a MaskReg result), selects by that mask
(`Select`), negates it under the loop's tail mask (`Not` on MaskRegs), counts lanes (`Arange`), casts floats to
int32 with a `constexpr CastTrait` (RoundMode::CAST_ROUND: ties away from zero; a NaN becomes 0) and folds each
register into element 0 (`Reduce<ReduceType::SUM>`), on 100 floats (a 36-lane tail) and 300 (a 44-lane tail);
everything equals numpy bit for bit. Before this work each of these calls stopped the core at an ASC958 naming it.
A `Compares` with a CMPMODE the headers do not have stays a named ASC958, never a guess."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;

static constexpr Reg::CastTrait kRound = {Reg::RegLayout::UNKNOWN, Reg::SatMode::NO_SAT,
                                          Reg::MaskMergeMode::ZEROING, RoundMode::CAST_ROUND};

template <typename T>
__simd_vf__ inline void CmpSelVF(__ubuf__ T* zAddr, __ubuf__ T* xAddr, __ubuf__ T* yAddr, __ubuf__ int32_t* rAddr,
                                 __ubuf__ T* sAddr, __ubuf__ T* wAddr, uint32_t count, uint16_t repeats)
{
    Reg::RegTensor<T> xReg;
    Reg::RegTensor<T> yReg;
    Reg::RegTensor<T> zReg;
    Reg::RegTensor<int32_t> rReg;
    Reg::RegTensor<T> sumReg;
    Reg::RegTensor<T> accReg;
    Reg::RegTensor<T> idxReg;
    Reg::MaskReg mask;
    Reg::MaskReg gt;
    Reg::MaskReg le;
    Reg::MaskReg all = Reg::CreateMask<T, Reg::MaskPattern::ALL>();
    Reg::Duplicate(accReg, (T)0, all);
    uint32_t vl = GetVRegSize() / sizeof(T);
    for (uint16_t i = 0; i < repeats; ++i) {
        mask = Reg::UpdateMask<T>(count);
        Reg::LoadAlign(xReg, xAddr + i * vl);
        Reg::LoadAlign(yReg, yAddr + i * vl);
        Reg::Compare<T, CMPMODE::GT>(gt, xReg, yReg, mask);
        Reg::Select(zReg, xReg, yReg, gt);
        Reg::StoreAlign(zAddr + i * vl, zReg, mask);
        Reg::Not(le, gt, mask);
        Reg::Arange(idxReg, (T)(i * vl));
        Reg::Select(zReg, idxReg, yReg, le);
        Reg::StoreAlign(wAddr + i * vl, zReg, mask);
        Reg::Cast<int32_t, T, kRound>(rReg, xReg, mask);
        Reg::StoreAlign(rAddr + i * vl, rReg, mask);
        Reg::Reduce<Reg::ReduceType::SUM>(sumReg, xReg, mask);
        Reg::Add(accReg, accReg, sumReg, all);
    }
    Reg::StoreAlign(sAddr, accReg, all);
}

extern "C" __global__ __aicore__ void reg_cmpsel(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR r, GM_ADDR s, GM_ADDR w,
                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, yGm, zGm, sGm, wGm;
    GlobalTensor<int32_t> rGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, td.padded);
    yGm.SetGlobalBuffer((__gm__ float *)y, td.padded);
    zGm.SetGlobalBuffer((__gm__ float *)z, td.padded);
    rGm.SetGlobalBuffer((__gm__ int32_t *)r, td.padded);
    sGm.SetGlobalBuffer((__gm__ float *)s, 64);
    wGm.SetGlobalBuffer((__gm__ float *)w, td.padded);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb, zb, rb, sb, wb;
    pipe.InitBuffer(xb, td.padded * sizeof(float));
    pipe.InitBuffer(yb, td.padded * sizeof(float));
    pipe.InitBuffer(zb, td.padded * sizeof(float));
    pipe.InitBuffer(rb, td.padded * sizeof(int32_t));
    pipe.InitBuffer(sb, 64 * sizeof(float));
    pipe.InitBuffer(wb, td.padded * sizeof(float));
    LocalTensor<float> xl = xb.Get<float>();
    LocalTensor<float> yl = yb.Get<float>();
    LocalTensor<float> zl = zb.Get<float>();
    LocalTensor<int32_t> rl = rb.Get<int32_t>();
    LocalTensor<float> sl = sb.Get<float>();
    LocalTensor<float> wl = wb.Get<float>();
    DataCopy(xl, xGm, td.padded);
    DataCopy(yl, yGm, td.padded);
    Duplicate(zl, 7.0f, td.padded);
    Duplicate(rl, (int32_t)7, td.padded);
    Duplicate(wl, 7.0f, td.padded);
    PipeBarrier<PIPE_ALL>();
    uint16_t repeats = (td.n + 63) / 64;
    asc_vf_call<CmpSelVF<float>>((__ubuf__ float *)zl.GetPhyAddr(), (__ubuf__ float *)xl.GetPhyAddr(),
                                 (__ubuf__ float *)yl.GetPhyAddr(), (__ubuf__ int32_t *)rl.GetPhyAddr(),
                                 (__ubuf__ float *)sl.GetPhyAddr(), (__ubuf__ float *)wl.GetPhyAddr(), td.n,
                                 repeats);
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, zl, td.padded);
    DataCopy(rGm, rl, td.padded);
    DataCopy(sGm, sl, 64);
    DataCopy(wGm, wl, td.padded);
}
"""


def adjacent_pair_sum(lanes: np.ndarray) -> np.float32:
    """The register fold the model documents (vector/reg/reduce.rs): adjacent pairs, rounded to float each step."""
    acc = lanes.astype(np.float32)
    while acc.size > 1:
        acc = (acc[0::2] + acc[1::2]).astype(np.float32)
    return acc[0]


def simulate(tmp_path: Path, n: int, x: np.ndarray, y: np.ndarray, kernel: str = KERNEL):
    padded = x.size
    src = tmp_path / "reg_cmpsel.cpp"
    src.write_text(kernel, encoding="utf-8")
    return run(str(src), {"x": x, "y": y}, chip="950PR", block_dim=1, tiling={"n": n, "padded": padded},
               outputs={"z": ((padded,), "float32"), "r": ((padded,), "int32"), "s": ((64,), "float32"),
                        "w": ((padded,), "float32")})


@pytest.mark.parametrize("n", [100, 300])
def test_compare_select_not_arange_cast_reduce_match_numpy(tmp_path: Path, n: int) -> None:
    padded = -(-n // 64) * 64
    rng = np.random.default_rng(n)
    x = (rng.standard_normal(padded) * 4).astype(np.float32)
    y = rng.standard_normal(padded).astype(np.float32)
    x[[5, 6, 7]] = [2.5, -2.5, 0.5]  # CAST_ROUND ties: 3, -3, 1
    y[7] = 0.5  # equal: not GT
    result = simulate(tmp_path, n, x, y)
    assert result.ok, [str(d) for d in result.findings]
    out = result.outputs
    gt = x > y
    np.testing.assert_array_equal(out["z"][:n], np.where(gt, x, y)[:n])
    np.testing.assert_array_equal(out["w"][:n], np.where(~gt, np.arange(padded, dtype=np.float32), y)[:n])
    assert (out["z"][n:] == 7).all() and (out["w"][n:] == 7).all()  # the tail mask stores nothing past n
    np.testing.assert_array_equal(out["r"][:n], (np.sign(x) * np.floor(np.abs(x) + 0.5)).astype(np.int32)[:n])
    assert list(out["r"][5:8]) == [3, -3, 1]
    regs = [np.where(np.arange(64) < n - i, x[i:i + 64], 0) for i in range(0, padded, 64)]
    want = np.float32(0)
    for lanes in regs:
        want = np.float32(want + adjacent_pair_sum(lanes))
    assert out["s"][0] == want and (out["s"][1:] == 0).all()


def test_a_nan_compares_unequal_and_casts_to_zero(tmp_path: Path) -> None:
    x = np.full(64, np.nan, np.float32)
    y = np.zeros(64, np.float32)
    result = simulate(tmp_path, 64, x, y)
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["z"], y)  # NaN > 0 is false: y selected
    np.testing.assert_array_equal(result.outputs["w"], np.arange(64, dtype=np.float32))  # Not of false
    np.testing.assert_array_equal(result.outputs["r"], np.zeros(64, np.int32))
    assert np.isnan(result.outputs["s"][0])


def test_an_unknown_compare_mode_is_named(tmp_path: Path) -> None:
    kernel = KERNEL.replace("Reg::Compare<T, CMPMODE::GT>", "Reg::Compare<T, CMPMODE::XX>")
    x = np.ones(64, np.float32)
    result = simulate(tmp_path, 64, x, x, kernel)
    errors = [d for d in result.findings if d.code == "ASC958"]
    assert errors and "Reg::Compare" in errors[0].message and "XX" in errors[0].message, \
        [str(d) for d in result.findings]


INT_KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

__simd_vf__ inline void IntVF(__ubuf__ float* yAddr, __ubuf__ int32_t* sAddr, __ubuf__ int32_t* xAddr,
                              __ubuf__ int16_t* hAddr)
{
    static constexpr Reg::CastTrait kRint = {Reg::RegLayout::UNKNOWN, Reg::SatMode::UNKNOWN,
                                             Reg::MaskMergeMode::ZEROING, RoundMode::CAST_RINT};
    Reg::RegTensor<int32_t> xReg;
    Reg::RegTensor<float> yReg;
    Reg::RegTensor<int16_t> hReg;
    Reg::RegTensor<int32_t> sReg;
    Reg::MaskReg all = Reg::CreateMask<int32_t, Reg::MaskPattern::ALL>();
    Reg::MaskReg all16 = Reg::CreateMask<int16_t, Reg::MaskPattern::ALL>();
    Reg::LoadAlign(xReg, xAddr);
    Reg::Cast<float, int32_t, kRint>(yReg, xReg, all);
    Reg::StoreAlign(yAddr, yReg, all);
    Reg::LoadAlign(hReg, hAddr);
    Reg::Reduce<Reg::ReduceType::SUM>(sReg, hReg, all16);
    Reg::StoreAlign(sAddr, sReg, all);
}

extern "C" __global__ __aicore__ void reg_int(GM_ADDR x, GM_ADDR h, GM_ADDR y, GM_ADDR s, GM_ADDR workspace,
                                              GM_ADDR tiling)
{
    GlobalTensor<int32_t> xGm, sGm;
    GlobalTensor<int16_t> hGm;
    GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ int32_t *)x, 64);
    hGm.SetGlobalBuffer((__gm__ int16_t *)h, 128);
    yGm.SetGlobalBuffer((__gm__ float *)y, 64);
    sGm.SetGlobalBuffer((__gm__ int32_t *)s, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, hb, yb, sb;
    pipe.InitBuffer(xb, 256);
    pipe.InitBuffer(hb, 256);
    pipe.InitBuffer(yb, 256);
    pipe.InitBuffer(sb, 256);
    LocalTensor<int32_t> xl = xb.Get<int32_t>();
    LocalTensor<int16_t> hl = hb.Get<int16_t>();
    LocalTensor<float> yl = yb.Get<float>();
    LocalTensor<int32_t> sl = sb.Get<int32_t>();
    DataCopy(xl, xGm, 64);
    DataCopy(hl, hGm, 128);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<IntVF>((__ubuf__ float *)yl.GetPhyAddr(), (__ubuf__ int32_t *)sl.GetPhyAddr(),
                       (__ubuf__ int32_t *)xl.GetPhyAddr(), (__ubuf__ int16_t *)hl.GetPhyAddr());
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, yl, 64);
    DataCopy(sGm, sl, 64);
}
"""


def test_int32_to_float_cast_and_an_int16_sum_into_int32(tmp_path: Path) -> None:
    # the source type travels as U: int32 (Cast) and int16 (Reduce); both were 'unknown element type si32' once
    x = np.arange(64, dtype=np.int32) * 1000 - 7
    x[0] = 16_777_217  # no float: CAST_RINT gives 16777216 (ties to even)
    h = np.full(128, 30000, np.int16)  # sums to 3,840,000: past int16, exact in int32
    src = tmp_path / "reg_int.cpp"
    src.write_text(INT_KERNEL, encoding="utf-8")
    result = run(str(src), {"x": x, "h": h}, chip="950PR", block_dim=1,
                 outputs={"y": ((64,), "float32"), "s": ((64,), "int32")})
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], x.astype(np.float32))
    assert result.outputs["y"][0] == 16_777_216
    assert result.outputs["s"][0] == 3_840_000 and (result.outputs["s"][1:] == 0).all()


@pytest.mark.parametrize(("call", "expect"), [
    ("Reg::Relu(zReg, xReg, mask);", lambda x: np.maximum(x, 0)),
    ("Reg::Neg(zReg, xReg, mask);", lambda x: -x),
    ("Reg::Ln(zReg, xReg, mask);", lambda x: np.log(np.abs(x))),
])
def test_relu_neg_ln(tmp_path: Path, call: str, expect) -> None:  # type: ignore[no-untyped-def]
    kernel = KERNEL.replace("Reg::Select(zReg, xReg, yReg, gt);", call)
    if "Ln" in call:
        kernel = kernel.replace(call, "Reg::Abs(zReg, xReg, mask);\n        " + call.replace("xReg", "zReg"))
    rng = np.random.default_rng(1)
    x = (rng.standard_normal(128) * 3).astype(np.float32)
    result = simulate(tmp_path, 100, x, x, kernel)
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_allclose(result.outputs["z"][:100], expect(x)[:100], rtol=1e-6)
    assert (result.outputs["z"][100:] == 7).all()


def test_integer_div_of_non_negative_operands(tmp_path: Path) -> None:
    kernel = INT_KERNEL.replace("Reg::Cast<float, int32_t, kRint>(yReg, xReg, all);",
                                "Reg::Div(sReg, xReg, xReg, all);\n    Reg::Muls(sReg, sReg, 5, all);\n"
                                "    Reg::Div(sReg, xReg, sReg, all);\n"
                                "    Reg::Cast<float, int32_t, kRint>(yReg, sReg, all);")
    x = np.arange(64, dtype=np.int32) * 7 + 3  # x / (x / x * 5) = x / 5, rounded down
    src = tmp_path / "reg_div.cpp"
    src.write_text(kernel, encoding="utf-8")
    result = run(str(src), {"x": x, "h": np.zeros(128, np.int16)}, chip="950PR", block_dim=1,
                 outputs={"y": ((64,), "float32"), "s": ((64,), "int32")})
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], (x // 5).astype(np.float32))
    # a zero divisor is named, not guessed
    src.write_text(kernel.replace("Reg::Muls(sReg, sReg, 5, all);", "Reg::Muls(sReg, sReg, 0, all);"), encoding="utf-8")
    result = run(str(src), {"x": x, "h": np.zeros(128, np.int16)}, chip="950PR", block_dim=1,
                 outputs={"y": ((64,), "float32"), "s": ((64,), "int32")})
    errors = [d for d in result.findings if d.code == "ASC958"]
    assert errors and "Div by zero" in errors[0].message, [str(d) for d in result.findings]


@pytest.mark.parametrize(("move", "other"), [("Reg::Move(zReg, xReg, gt);", 5.0),
                                             ("Reg::Move<T, Reg::MaskMergeMode::ZEROING>(zReg, xReg, gt);", 0.0)])
def test_a_masked_move_merges_by_default(tmp_path: Path, move: str, other: float) -> None:
    # Move(dst, src, mask): MERGING unless told (copy_intf.h:33), so dst keeps the 5s outside `x > y`
    kernel = KERNEL.replace("Reg::Select(zReg, xReg, yReg, gt);", "Reg::Duplicate(zReg, (T)5, all);\n        " + move)
    rng = np.random.default_rng(2)
    x, y = rng.standard_normal(128).astype(np.float32), rng.standard_normal(128).astype(np.float32)
    result = simulate(tmp_path, 100, x, y, kernel)
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["z"][:100], np.where(x > y, x, np.float32(other))[:100])


RELAYOUT_KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

__simd_vf__ inline void RelayoutVF(__ubuf__ int32_t* sAddr, __ubuf__ int16_t* pAddr, __ubuf__ int32_t* zAddr,
                                   __ubuf__ int32_t* xAddr, __ubuf__ int16_t* hAddr)
{
    Reg::RegTensor<int32_t> xReg;
    Reg::RegTensor<int16_t> hReg;
    Reg::RegTensor<int32_t> sReg;
    Reg::RegTensor<int16_t> pReg;
    Reg::RegTensor<int32_t> aReg;
    Reg::RegTensor<int32_t> bReg;
    Reg::MaskReg all = Reg::CreateMask<int32_t, Reg::MaskPattern::ALL>();
    Reg::MaskReg all16 = Reg::CreateMask<int16_t, Reg::MaskPattern::ALL>();
    Reg::LoadAlign(xReg, xAddr);
    Reg::LoadAlign(hReg, hAddr);
    Reg::UnPack<int32_t, int16_t, Reg::HighLowPart::HIGHEST>(sReg, hReg);
    Reg::StoreAlign(sAddr, sReg, all);
    Reg::Pack<int16_t, int32_t, Reg::HighLowPart::LOWEST>(pReg, xReg);
    Reg::StoreAlign(pAddr, pReg, all16);
    Reg::Interleave(aReg, bReg, xReg, sReg);
    Reg::StoreAlign(zAddr, aReg, all);
    Reg::StoreAlign(zAddr + 64, bReg, all);
    Reg::DeInterleave(xReg, sReg, aReg, bReg);
    Reg::StoreAlign(zAddr + 128, xReg, all);
    Reg::StoreAlign(zAddr + 192, sReg, all);
}

extern "C" __global__ __aicore__ void reg_relayout(GM_ADDR x, GM_ADDR h, GM_ADDR s, GM_ADDR p, GM_ADDR z,
                                                   GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<int32_t> xGm, sGm, zGm;
    GlobalTensor<int16_t> hGm, pGm;
    xGm.SetGlobalBuffer((__gm__ int32_t *)x, 64);
    hGm.SetGlobalBuffer((__gm__ int16_t *)h, 128);
    sGm.SetGlobalBuffer((__gm__ int32_t *)s, 64);
    pGm.SetGlobalBuffer((__gm__ int16_t *)p, 128);
    zGm.SetGlobalBuffer((__gm__ int32_t *)z, 256);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, hb, sb, pb, zb;
    pipe.InitBuffer(xb, 256);
    pipe.InitBuffer(hb, 256);
    pipe.InitBuffer(sb, 256);
    pipe.InitBuffer(pb, 256);
    pipe.InitBuffer(zb, 1024);
    LocalTensor<int32_t> xl = xb.Get<int32_t>();
    LocalTensor<int16_t> hl = hb.Get<int16_t>();
    LocalTensor<int32_t> sl = sb.Get<int32_t>();
    LocalTensor<int16_t> pl = pb.Get<int16_t>();
    LocalTensor<int32_t> zl = zb.Get<int32_t>();
    DataCopy(xl, xGm, 64);
    DataCopy(hl, hGm, 128);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<RelayoutVF>((__ubuf__ int32_t *)sl.GetPhyAddr(), (__ubuf__ int16_t *)pl.GetPhyAddr(),
                            (__ubuf__ int32_t *)zl.GetPhyAddr(), (__ubuf__ int32_t *)xl.GetPhyAddr(),
                            (__ubuf__ int16_t *)hl.GetPhyAddr());
    PipeBarrier<PIPE_ALL>();
    DataCopy(sGm, sl, 64);
    DataCopy(pGm, pl, 128);
    DataCopy(zGm, zl, 256);
}
"""


def test_pack_unpack_interleave_deinterleave(tmp_path: Path) -> None:
    x = (np.arange(64, dtype=np.int64) * 70001 - 2_000_000).astype(np.int32)  # low 16 bits differ from the value
    h = (np.arange(128) * 300 - 20000).astype(np.int16)  # negatives in the upper half
    src = tmp_path / "reg_relayout.cpp"
    src.write_text(RELAYOUT_KERNEL, encoding="utf-8")
    result = run(str(src), {"x": x, "h": h}, chip="950PR", block_dim=1,
                 outputs={"s": ((64,), "int32"), "p": ((128,), "int16"), "z": ((256,), "int32")})
    assert result.ok, [str(d) for d in result.findings]
    s = h[64:].astype(np.int32)  # UnPack HIGHEST: the upper half, sign-extended
    np.testing.assert_array_equal(result.outputs["s"], s)
    np.testing.assert_array_equal(result.outputs["p"], np.concatenate([x.astype(np.int16), np.zeros(64, np.int16)]))
    zipped = np.stack([x, s], axis=1).ravel()  # x0, s0, x1, s1, ...: the first half in a, the rest in b
    np.testing.assert_array_equal(result.outputs["z"][:128], zipped)
    np.testing.assert_array_equal(result.outputs["z"][128:], np.concatenate([x, s]))  # DeInterleave undoes it


@pytest.mark.parametrize(("mode", "expect"), [("RoundMode::CAST_FLOOR", np.floor), ("RoundMode::CAST_RINT", np.rint),
                                              ("RoundMode::CAST_CEIL", np.ceil)])
def test_truncate_through_a_template_parameter(  # type: ignore[no-untyped-def]
        tmp_path: Path, mode: str, expect) -> None:
    # the vendor kernels pass the mode through `template <RoundMode roundMode>`: resolved to its enumerator
    kernel = KERNEL.replace("template <typename T>\n__simd_vf__", "template <typename T, RoundMode rm>\n__simd_vf__")
    kernel = kernel.replace("Reg::Select(zReg, xReg, yReg, gt);", "Reg::Truncate<T, rm>(zReg, xReg, mask);")
    kernel = kernel.replace("asc_vf_call<CmpSelVF<float>>", f"asc_vf_call<CmpSelVF<float, {mode}>>")
    rng = np.random.default_rng(3)
    x = (rng.standard_normal(128) * 4).astype(np.float32)
    x[:3] = [2.5, -2.5, 0.5]
    result = simulate(tmp_path, 100, x, x, kernel)
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["z"][:100], expect(x)[:100])


def test_compare_scalar_and_reduce_sum_are_compares_and_reduce(tmp_path: Path) -> None:
    # the older names (cmpsel_intf_impl.h:44-53, vec_reduce_intf_impl.h:38-66), with the register type spelled out
    kernel = KERNEL.replace("Reg::Compare<T, CMPMODE::GT>(gt, xReg, yReg, mask);",
                            "Reg::CompareScalar<T, CMPMODE::GT, Reg::RegTensor<T>, T>(gt, xReg, (T)0, mask);")
    kernel = kernel.replace("Reg::Reduce<Reg::ReduceType::SUM>(sumReg, xReg, mask);",
                            "Reg::ReduceMax(sumReg, xReg, mask);\n        Reg::ReduceSum(sumReg, xReg, mask);")
    rng = np.random.default_rng(4)
    x, y = rng.standard_normal(128).astype(np.float32), rng.standard_normal(128).astype(np.float32)
    result = simulate(tmp_path, 100, x, y, kernel)
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["z"][:100], np.where(x > 0, x, y)[:100])
    tail = np.where(np.arange(64) < 36, x[64:], 0)
    want = np.float32(adjacent_pair_sum(x[:64])) + np.float32(adjacent_pair_sum(tail))
    assert result.outputs["s"][0] == np.float32(want)


@pytest.mark.parametrize("spec", ["{Reg::MaskMergeMode::ZEROING, true}", "{Reg::MaskMergeMode::ZEROING}",
                                  "{Reg::MaskMergeMode::ZEROING, true, Reg::DivAlgo::PRECISION_0ULP_FTZ_TRUE}"])
def test_div_with_a_specific_mode(tmp_path: Path, spec: str) -> None:
    # Div<T, &mode> with a constexpr DivSpecificMode (ops-math pow, ops-nn avg_pool_v2): its merge mode; the
    # correctly rounded quotient either way (a flush-to-zero algorithm also flushes subnormal quotients: none here;
    # test_register_muladd_div_ftz.py has one)
    kernel = KERNEL.replace("    Reg::MaskReg mask;\n",
                            "    Reg::MaskReg mask;\n"
                            "    static constexpr Reg::DivSpecificMode kDiv = " + spec + ";\n", 1)
    kernel = kernel.replace("Reg::Select(zReg, xReg, yReg, gt);", "Reg::Div<T, &kDiv>(zReg, xReg, yReg, mask);")
    rng = np.random.default_rng(6)
    x, y = rng.standard_normal(128).astype(np.float32), rng.standard_normal(128).astype(np.float32)
    result = simulate(tmp_path, 100, x, y, kernel)
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["z"][:100], (x / y)[:100])


GATHER_KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

__simd_vf__ inline void GatherVF(__ubuf__ float* yAddr, __ubuf__ float* xAddr, __ubuf__ uint32_t* iAddr)
{
    Reg::RegTensor<float> xReg;
    Reg::RegTensor<uint32_t> iReg;
    Reg::RegTensor<float> yReg;
    Reg::MaskReg all = Reg::CreateMask<float, Reg::MaskPattern::ALL>();
    Reg::LoadAlign(xReg, xAddr);
    Reg::LoadAlign(iReg, iAddr);
    Reg::Gather(yReg, xReg, iReg);
    Reg::StoreAlign(yAddr, yReg, all);
}

extern "C" __global__ __aicore__ void reg_gather(GM_ADDR x, GM_ADDR idx, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<float> xGm, yGm;
    GlobalTensor<uint32_t> iGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    iGm.SetGlobalBuffer((__gm__ uint32_t *)idx, 64);
    yGm.SetGlobalBuffer((__gm__ float *)y, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, ib, yb;
    pipe.InitBuffer(xb, 256);
    pipe.InitBuffer(ib, 256);
    pipe.InitBuffer(yb, 256);
    LocalTensor<float> xl = xb.Get<float>();
    LocalTensor<uint32_t> il = ib.Get<uint32_t>();
    LocalTensor<float> yl = yb.Get<float>();
    DataCopy(xl, xGm, 64);
    DataCopy(il, iGm, 64);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<GatherVF>((__ubuf__ float *)yl.GetPhyAddr(), (__ubuf__ float *)xl.GetPhyAddr(),
                          (__ubuf__ uint32_t *)il.GetPhyAddr());
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, yl, 64);
}
"""


def test_register_gather_by_an_index_register(tmp_path: Path) -> None:
    rng = np.random.default_rng(8)
    x = rng.standard_normal(64).astype(np.float32)
    idx = rng.integers(0, 64, 64).astype(np.uint32)
    src = tmp_path / "reg_gather.cpp"
    src.write_text(GATHER_KERNEL, encoding="utf-8")
    result = run(str(src), {"x": x, "idx": idx}, chip="950PR", block_dim=1, outputs={"y": ((64,), "float32")})
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], x[idx])
    idx[3] = 64  # past the register: named, not guessed
    result = run(str(src), {"x": x, "idx": idx}, chip="950PR", block_dim=1, outputs={"y": ((64,), "float32")})
    errors = [d for d in result.findings if d.code == "ASC958"]
    assert errors and "index 64 at element 3" in errors[0].message, [str(d) for d in result.findings]


METHOD_KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

class DivKernel {
public:
    __aicore__ inline void Run(__ubuf__ float* zAddr, __ubuf__ float* xAddr, __ubuf__ float* yAddr)
    {
        __VEC_SCOPE__
        {
            static constexpr MicroAPI::DivSpecificMode divMode = {MicroAPI::MaskMergeMode::ZEROING, true};
            MicroAPI::RegTensor<float> xReg;
            MicroAPI::RegTensor<float> yReg;
            MicroAPI::RegTensor<float> zReg;
            MicroAPI::MaskReg all = MicroAPI::CreateMask<float, MicroAPI::MaskPattern::ALL>();
            MicroAPI::LoadAlign(xReg, xAddr);
            MicroAPI::LoadAlign(yReg, yAddr);
            MicroAPI::Div<float, &divMode>(zReg, xReg, yReg, all);
            MicroAPI::StoreAlign(zAddr, zReg, all);
        }
    }
};

extern "C" __global__ __aicore__ void reg_div(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    yGm.SetGlobalBuffer((__gm__ float *)y, 64);
    zGm.SetGlobalBuffer((__gm__ float *)z, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb, zb;
    pipe.InitBuffer(xb, 256);
    pipe.InitBuffer(yb, 256);
    pipe.InitBuffer(zb, 256);
    LocalTensor<float> xl = xb.Get<float>();
    LocalTensor<float> yl = yb.Get<float>();
    LocalTensor<float> zl = zb.Get<float>();
    DataCopy(xl, xGm, 64);
    DataCopy(yl, yGm, 64);
    PipeBarrier<PIPE_ALL>();
    DivKernel k;
    k.Run((__ubuf__ float *)zl.GetPhyAddr(), (__ubuf__ float *)xl.GetPhyAddr(), (__ubuf__ float *)yl.GetPhyAddr());
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, zl, 64);
}
"""


def test_a_specific_mode_declared_in_a_method_vec_scope(tmp_path: Path) -> None:
    # ops-math pow's shape: the DivSpecificMode is a local of a __VEC_SCOPE__ block inside a class method
    rng = np.random.default_rng(9)
    x, y = rng.standard_normal(64).astype(np.float32), rng.standard_normal(64).astype(np.float32)
    src = tmp_path / "reg_div.cpp"
    src.write_text(METHOD_KERNEL, encoding="utf-8")
    result = run(str(src), {"x": x, "y": y}, chip="950PR", block_dim=1, outputs={"z": ((64,), "float32")})
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["z"], x / y)
