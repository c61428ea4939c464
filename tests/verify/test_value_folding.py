"""Rules that report constants must read them as the C++ types hold them."""

from __future__ import annotations

from frontend.pipeline import load_text
from passes.verify import check_program

HEADER = '#include "kernel_operator.h"\nusing namespace AscendC;\n'


def codes(text: str) -> list[str]:
    return [d.code for d in check_program(load_text(HEADER + text, "k.cpp"))]


def test_a_uint16_block_length_of_32768_bytes_is_not_negative() -> None:
    # IR integers are signless: blockLen = 32768 in a uint16_t field folded to -32768 (ASC402 "at least 1")
    kernel = """
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32768);
    LocalTensor<float> t = buf.Get<float>();
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 8192);
    DataCopyParams params;
    params.blockCount = 1;
    params.blockLen = 8192 * sizeof(float);
    DataCopyPadParams pad;
    DataCopyPad(t, xGm, params, pad);
}
"""
    assert codes(kernel) == []
    assert codes(kernel.replace("8192 * sizeof(float)", "0")) == ["ASC402"]


def test_one_line_instantiated_twice_is_reported_once() -> None:
    kernel = """
template <typename T>
__aicore__ inline void Load(const LocalTensor<T>& t, const GlobalTensor<T>& g) { DataCopy(t, g, 100); }
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 256);
    LocalTensor<float> t = buf.Get<float>();
    Load(t, xGm);
    Load(t, xGm);
}
"""
    assert codes(kernel) == ["ASC401"]


def test_unsigned_comparisons_fold_on_unsigned_values() -> None:
    # IR integers are signless: an unsigned compare of a folded -1 (0xFFFFFFFF) with 8 is "greater"
    from xdsl.dialects import arith
    from xdsl.dialects.builtin import IntegerAttr, i32

    from passes.verify.value_fold import fold_bool

    big, eight = arith.ConstantOp(IntegerAttr(-1, i32)), arith.ConstantOp(IntegerAttr(8, i32))
    assert fold_bool(arith.CmpiOp(big, eight, "ugt").result) is True
    assert fold_bool(arith.CmpiOp(big, eight, "sgt").result) is False


def test_limits_of_the_fixed_width_types_and_the_no_tiling_marker() -> None:
    # <cstdint>'s limits are constants of their own type; `REGISTER_NONE_TILING;` is a build marker
    kernel = """
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    REGISTER_NONE_TILING;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, UINT16_MAX / 2 + 1 + INT8_MIN + 128);
    LocalTensor<float> t = buf.Get<float>();
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 8192);
    DataCopy(t, xGm, 8192 + INT16_MIN + 32768 + (INT64_MIN < 0 ? 0 : 1) + INT8_MAX - 127);
}
"""
    assert codes(kernel) == []
    assert codes(kernel.replace("+ 32768", "+ 32767")) == ["ASC401"]  # 8191 floats: not 32-byte whole
    assert codes(kernel.replace("UINT16_MAX / 2", "UINT16_MAX * 4")) == ["ASC302"]  # 256 KiB of UB


def test_a_count_that_gather_mask_writes_back_is_not_its_initial_value() -> None:
    # GatherMask stores the number of kept elements into rsvdCnt (a `uint64_t&`): the 0 it started with is
    # gone, so the copy of that many elements is not "blockLen = 0"
    kernel = """
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    LocalTensor<float> src = buf.Get<float>();
    LocalTensor<float> dst = src[512];
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y, 256);
    uint64_t kept = 0;
    GatherMaskParams params;
    GatherMask(dst, src, 1, false, 0, params, kept);
    DataCopyExtParams copy{1, static_cast<uint32_t>(kept * sizeof(float)), 0, 0, 0};
    DataCopyPad(yGm, dst, copy);
}
"""
    assert codes(kernel) == []
    assert codes(kernel.replace("GatherMask(dst, src, 1, false, 0, params, kept);", "")) == ["ASC402"]


def test_a_struct_named_twice_in_two_namespaces_is_no_undeclared_field() -> None:
    # ops-nn pool_3d_common: Pool3D::ShapeInfo and GatherIndexImpl::ShapeInfo; namespaces are not kept apart,
    # so a field of the one was reported as missing from the other (ASC803)
    kernel = """namespace Pool {
struct ShapeInfo {
    uint32_t n = 0;
    uint32_t depth = 0;
};
}
namespace Gather {
struct ShapeInfo {
    uint32_t inStride[5] = {1};
    uint32_t gatherSize[5] = {1};
};
__aicore__ inline uint32_t Elements(const ShapeInfo& info) { return info.gatherSize[0] * info.inStride[1]; }
}
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(Gather::ShapeInfo, info, tiling);
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)x, 16);
    g.SetValue(0, (float)(int32_t)Gather::Elements(info));
}
"""
    assert [c for c in codes(kernel) if c != "ASC103"] == []


def test_a_static_member_read_through_a_struct_variable_is_its_constant() -> None:
    # ops-transformer quant_lightning_indexer: `constInfo.INVALID_IDX` with `static constexpr int INVALID_IDX = -1;`
    # in the plain struct ConstInfo was read as a stored field the struct lacks (ASC803)
    kernel = """
struct ConstInfo {
    static constexpr int32_t INVALID_IDX = -1;
    static constexpr uint32_t LANES = 64;
    uint32_t count;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    ConstInfo info;
    info.count = 64;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<int32_t> t = buf.Get<int32_t>();
    Duplicate(t, info.INVALID_IDX, info.count);
    Duplicate(t, info.INVALID_IDX, info.LANES * 2);
}
"""
    assert codes(kernel) == ["ASC304"]  # 128 int32 = 512 bytes: the constant was read


def test_a_struct_inside_tiling_data_passed_by_reference_reads_its_own_fields() -> None:
    # ops-transformer batch_mat_mul_v3 passes `tilingData.matMulTilingData` to a function that takes its address
    # (`{&tilingData}`): the parameter became a cell of the inner struct holding the outer value, and `td.m`
    # was read as the outer struct's field 'matMulTilingData.m' (ASC803)
    kernel = """
struct Inner { uint32_t m; uint32_t n; };
struct Outer { uint32_t batch; Inner matMulTilingData; };
__aicore__ inline void Run(const Inner& td) {
    const Inner* keep = &td;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, td.m * 4);
}
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(Outer, tilingData, tiling);
    Run(tilingData.matMulTilingData);
}
"""
    assert codes(kernel) == []
