"""arch35's register loads and stores beyond the plain ones (issue 28), on the simulator (--chip 950PR): the load /
store distributions (DIST_UNPACK_B16 + DIST_PACK_B32, DIST_BRC_B32, DIST_FIRST_ELEMENT_B32, the two-register
DIST_DINTLV_B16), the post-update address forms, AddrReg offsets, the unaligned LoadUnAlign / StoreUnAlign pair and
MaskPattern::H, each in a team-written vector function compared with numpy byte for byte; the forms the headers
leave open are ASC958 naming them. Before, each of these calls stopped the core with ASC958 (the template argument
or the form)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

HOST = """
extern "C" __global__ __aicore__ void reg_moves(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T *)x, td.padded);
    yGm.SetGlobalBuffer((__gm__ T *)y, td.padded);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb;
    pipe.InitBuffer(xb, td.padded * sizeof(T));
    pipe.InitBuffer(yb, td.padded * sizeof(T));
    LocalTensor<T> xl = xb.Get<T>();
    LocalTensor<T> yl = yb.Get<T>();
    DataCopy(xl, xGm, td.padded);
    Duplicate(yl, (T)7, td.padded);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<MovesVF>((__ubuf__ T *)yl.GetPhyAddr(), (__ubuf__ T *)xl.GetPhyAddr(), td.n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, yl, td.padded);
}
"""


def kernel(elem: str, body: str, prelude: str = "") -> str:
    return f"""
#include "kernel_operator.h"
using namespace AscendC;
using T = {elem};
{prelude}

__simd_vf__ inline void MovesVF(__ubuf__ T* yAddr, __ubuf__ T* xAddr, uint32_t n)
{{
{body}
}}
""" + HOST


def simulate(tmp_path: Path, source: str, x: np.ndarray, n: int):
    src = tmp_path / "reg_moves.cpp"
    src.write_text(source, encoding="utf-8")
    return run(str(src), {"x": x}, chip="950PR", block_dim=1, tiling={"n": n, "padded": len(x)},
               outputs={"y": (x.shape, x.dtype.name)})


def test_unpack_b16_then_pack_b32_copies_halves_under_a_float_mask(tmp_path: Path) -> None:
    # UNPACK_B16 puts half j in the low half of 32-bit lane j, PACK_B32 writes those low halves back contiguously:
    # together a copy of 64 halves per register; the b32 mask of UpdateMask<float>(n) ends the copy at n
    body = """
    Reg::RegTensor<T> reg;
    Reg::MaskReg mask;
    uint32_t count = n;
    for (uint16_t i = 0; i < 3; ++i) {
        mask = Reg::UpdateMask<float>(count);
        Reg::LoadAlign<T, Reg::LoadDist::DIST_UNPACK_B16>(reg, xAddr + i * 64);
        Reg::StoreAlign<T, Reg::StoreDist::DIST_PACK_B32>(yAddr + i * 64, reg, mask);
    }"""
    x = np.random.default_rng(0).standard_normal(192).astype(np.float16)
    result = simulate(tmp_path, kernel("half", body), x, 150)
    assert result.ok, [str(d) for d in result.findings]
    y = result.outputs["y"]
    np.testing.assert_array_equal(y[:150].view(np.uint16), x[:150].view(np.uint16))
    np.testing.assert_array_equal(y[150:], np.full(42, 7, np.float16))


def test_brc_b32_broadcasts_and_first_element_stores_lane_0(tmp_path: Path) -> None:
    # y[i] = x[i] + x[0] for the first register (BRC_B32 of x[0]), then y[64 + j] = x[64 + j] * 2 stored as the
    # first element only: y[64] changes, y[65..] keep 7
    body = """
    Reg::RegTensor<T> a;
    Reg::RegTensor<T> b;
    Reg::MaskReg all = Reg::CreateMask<T, Reg::MaskPattern::ALL>();
    Reg::LoadAlign<T, Reg::LoadDist::DIST_BRC_B32>(b, xAddr);
    Reg::LoadAlign(a, xAddr);
    Reg::Add(a, a, b, all);
    Reg::StoreAlign(yAddr, a, all);
    Reg::LoadAlign(a, xAddr + 64);
    Reg::Muls(a, a, (T)2, all);
    Reg::StoreAlign<T, Reg::StoreDist::DIST_FIRST_ELEMENT_B32>(yAddr + 64, a, all);"""
    x = np.random.default_rng(1).standard_normal(128).astype(np.float32)
    result = simulate(tmp_path, kernel("float", body), x, 128)
    assert result.ok, [str(d) for d in result.findings]
    y = result.outputs["y"]
    np.testing.assert_array_equal(y[:64], x[:64] + x[0])
    assert y[64] == x[64] * np.float32(2)
    np.testing.assert_array_equal(y[65:], np.full(63, 7, np.float32))


def test_post_update_and_addr_reg_forms_walk_the_buffer(tmp_path: Path) -> None:
    # the first loop steps both pointers by post-update (64 floats a call), the second addresses through AddrReg
    # offsets CreateAddrReg<T>(i, 64); y = 3 * x over 2 + 2 registers, the tail of 20 left to the mask
    body = """
    Reg::RegTensor<T> a;
    Reg::MaskReg mask;
    uint32_t count = n;
    __ubuf__ T* src = xAddr;
    __ubuf__ T* dst = yAddr;
    for (uint16_t i = 0; i < 2; ++i) {
        mask = Reg::UpdateMask<T>(count);
        Reg::LoadAlign<T, Reg::PostLiteral::POST_MODE_UPDATE>(a, src, 64);
        Reg::Muls(a, a, (T)3, mask);
        Reg::StoreAlign<T, Reg::PostLiteral::POST_MODE_UPDATE>(dst, a, 64, mask);
    }
    Reg::AddrReg offset;
    for (uint16_t i = 2; i < 4; ++i) {
        offset = Reg::CreateAddrReg<T>(i, 64);
        mask = Reg::UpdateMask<T>(count);
        Reg::LoadAlign(a, xAddr, offset);
        Reg::Muls(a, a, (T)3, mask);
        Reg::StoreAlign(yAddr, a, offset, mask);
    }"""
    x = np.random.default_rng(2).standard_normal(256).astype(np.float32)
    result = simulate(tmp_path, kernel("float", body), x, 212)
    assert result.ok, [str(d) for d in result.findings]
    y = result.outputs["y"]
    np.testing.assert_array_equal(y[:212], x[:212] * np.float32(3))
    np.testing.assert_array_equal(y[212:], np.full(44, 7, np.float32))


def test_unaligned_load_and_store_copy_from_an_odd_offset(tmp_path: Path) -> None:
    # the asc-devkit example's pattern (ld_st_reg_unalign.asc): from x + 1 to y + 3, two registers of 128 halves
    # stepped by post-update, then StoreUnAlign of 5 more and the Post; MicroAPI's spelling for the second half,
    # the pointers passed through reference casts `(__local_mem__ T *&)src` as ops-math's ArgMaxWithValue does
    body = """
    Reg::RegTensor<T> r;
    Reg::UnalignRegForLoad ul;
    Reg::UnalignRegForStore us;
    __ubuf__ T* src = xAddr + 1;
    __ubuf__ T* dst = yAddr + 3;
    Reg::LoadUnAlignPre(ul, src);
    for (uint16_t i = 0; i < 2; ++i) {
        Reg::LoadUnAlign(r, ul, src, 128);
        Reg::StoreUnAlign(dst, r, us, 128);
    }
    MicroAPI::DataCopyUnAlign<T, MicroAPI::PostLiteral::POST_MODE_UPDATE>(r, ul, (__local_mem__ T *&)src, 128);
    MicroAPI::DataCopyUnAlign<T, MicroAPI::PostLiteral::POST_MODE_UPDATE>((__local_mem__ T *&)dst, r, us, n);
    MicroAPI::DataCopyUnAlignPost((__local_mem__ T *&)dst, us, 0);"""
    x = np.arange(512, dtype=np.int16)
    result = simulate(tmp_path, kernel("int16_t", body), x, 5)
    assert result.ok, [str(d) for d in result.findings]
    y = result.outputs["y"]
    np.testing.assert_array_equal(y[:3], [7, 7, 7])
    np.testing.assert_array_equal(y[3:3 + 261], x[1:1 + 261])
    np.testing.assert_array_equal(y[264:], np.full(512 - 264, 7, np.int16))


def test_distributions_held_by_template_parameters(tmp_path: Path) -> None:
    # ops-nn's reduce_common_regbase.h style: a helper whose LoadDist / StoreDist are template parameters with
    # defaults (UNPACK_B16 / PACK_B32; the second unqualified after `using namespace`), called without them; the
    # first test's copy through it
    prelude = """
using namespace AscendC::Reg;
template <typename U, Reg::LoadDist LD = Reg::LoadDist::DIST_UNPACK_B16, StoreDist SD = StoreDist::DIST_PACK_B32>
__simd_callee__ inline void CopyThroughFloatLanes(__ubuf__ U* dst, __ubuf__ U* src, uint32_t& count)
{
    Reg::RegTensor<U> reg;
    Reg::MaskReg mask = Reg::UpdateMask<float>(count);
    Reg::LoadAlign<U, LD>(reg, src);
    Reg::StoreAlign<U, SD>(dst, reg, mask);
}
"""
    body = """
    uint32_t count = n;
    for (uint16_t i = 0; i < 3; ++i) {
        CopyThroughFloatLanes<T>(yAddr + i * 64, xAddr + i * 64, count);
    }"""
    x = np.random.default_rng(5).standard_normal(192).astype(np.float16)
    result = simulate(tmp_path, kernel("half", body, prelude), x, 150)
    assert result.ok, [str(d) for d in result.findings]
    y = result.outputs["y"]
    np.testing.assert_array_equal(y[:150].view(np.uint16), x[:150].view(np.uint16))
    np.testing.assert_array_equal(y[150:], np.full(42, 7, np.float16))


def test_dintlv_b16_splits_even_and_odd_elements(tmp_path: Path) -> None:
    # LoadAlign<T, DIST_DINTLV_B16>(even, odd, addr): 256 halves into two registers of 128 (stepped by
    # post-update once); even - odd stored: y[j] = x[2j] - x[2j + 1] for j < 128, then the same for x[256..]
    body = """
    Reg::RegTensor<T> even;
    Reg::RegTensor<T> odd;
    Reg::MaskReg all = Reg::CreateMask<T, Reg::MaskPattern::ALL>();
    __ubuf__ T* src = xAddr;
    for (uint16_t i = 0; i < 2; ++i) {
        Reg::LoadAlign<T, Reg::PostLiteral::POST_MODE_UPDATE, Reg::LoadDist::DIST_DINTLV_B16>(even, odd, src, 256);
        Reg::Sub(even, even, odd, all);
        Reg::StoreAlign(yAddr + i * 128, even, all);
    }"""
    x = np.random.default_rng(4).integers(-100, 100, 512).astype(np.int16)
    result = simulate(tmp_path, kernel("int16_t", body), x, 512)
    assert result.ok, [str(d) for d in result.findings]
    y = result.outputs["y"]
    np.testing.assert_array_equal(y[:256], x[0::2] - x[1::2])
    np.testing.assert_array_equal(y[256:], np.full(256, 7, np.int16))


def test_mask_pattern_h_selects_the_lower_half(tmp_path: Path) -> None:
    body = """
    Reg::RegTensor<T> a;
    Reg::MaskReg lower = Reg::CreateMask<T, Reg::MaskPattern::H>();
    Reg::LoadAlign(a, xAddr);
    Reg::StoreAlign(yAddr, a, lower);"""
    x = np.arange(64, dtype=np.float32)
    result = simulate(tmp_path, kernel("float", body), x, 64)
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], np.concatenate([x[:32], np.full(32, 7, np.float32)]))


@pytest.mark.parametrize("call, named", [
    ("Reg::LoadAlign<T, Reg::LoadDist::DIST_SPLT2CHN_B16>(a, xAddr);", "LoadDist::DIST_SPLT2CHN_B16 is not modelled"),
    ("Reg::MaskReg m3 = Reg::CreateMask<T, Reg::MaskPattern::M3>();", "MaskPattern::M3 is not modelled"),
    # the count-less form takes its count from AR, which only a Squeeze with STORE_REG sets (spr.rs)
    ("Reg::StoreUnAlign(yAddr, a, us);", "no Squeeze with STORE_REG precedes"),
    # a source that is no register the lowering models (ops-nn avg_pool_common.h stores `res.reg[0]`, a part of a
    # two-register RegTensor): named as such, not as a form of another arity
    ("Reg::StoreUnAlign(yAddr, (Reg::RegTensor<T>&)n, us, 4);",
     "StoreUnAlign (the source is no vector register the lowering models)"),
])
def test_the_forms_the_headers_leave_open_are_named(tmp_path: Path, call: str, named: str) -> None:
    body = f"""
    Reg::RegTensor<T> a;
    Reg::UnalignRegForStore us;
    {call}"""
    x = np.zeros(128, np.int16)
    result = simulate(tmp_path, kernel("int16_t", body), x, 128)
    errors = [d for d in result.findings if d.code == "ASC958"]
    assert errors and named in errors[0].message, [str(d) for d in result.findings]


def test_intlv_store_interleaves_two_registers_ignoring_its_mask(tmp_path: Path) -> None:
    # DINTLV_B32 splits 128 floats into evens / odds; the INTLV_B32 store (MicroAPI's DataCopy spelling, as ops-math
    # stateless_random_normal_v2 writes it) puts them back swapped: y[2j] = x[2j+1], y[2j+1] = x[2j], all 2 * VL
    # bytes though the mask selects 3 lanes (the StoreAlign page: "忽略mask"). Before: ASC958 'the two-register
    # (interleaving) form'.
    body = """
    Reg::RegTensor<T> even, odd;
    Reg::MaskReg three = Reg::UpdateMask<T>(n);
    Reg::LoadAlign<T, Reg::LoadDist::DIST_DINTLV_B32>(even, odd, xAddr);
    MicroAPI::DataCopy<T, MicroAPI::StoreDist::DIST_INTLV_B32>(yAddr, odd, even, three);"""
    x = np.arange(160, dtype=np.float32)
    result = simulate(tmp_path, kernel("float", body), x, 3)
    assert result.ok, [str(d) for d in result.findings]
    y = result.outputs["y"]
    want = x[:128].reshape(64, 2)[:, ::-1].reshape(128)
    np.testing.assert_array_equal(y[:128], want)
    np.testing.assert_array_equal(y[128:], np.full(32, 7, np.float32))
