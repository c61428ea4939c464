"""LayerNorm's host tiling queries (GetLayerNormMaxMinTmpSize, GetLayerNormNDTilingInfo: the LayerNormTiling of the
output + mean + variance form and the LayerNormSeparateTiling of the rstd form) in a host tiling function, against
values worked out by hand from the tiling library's formulas for the 220x chips (layernorm_tiling_impl.cpp,
normalize_tiling_impl.cpp; ascendir/lower/host_norm_tiling.py). rust_sim's LayerNorm reads these fields."""

from __future__ import annotations

import numpy as np

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text

PLAIN = """
namespace optiling {
BEGIN_TILING_DATA_DEF(LnTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, mx);
    TILING_DATA_FIELD_DEF(uint32_t, mn);
    TILING_DATA_FIELD_DEF_STRUCT(LayerNormTiling, ln);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(LnOp, LnTilingData)
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    LnTilingData tiling;
    const gert::Shape &in = context->GetInputShape(0)->GetStorageShape();
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2U : 4U;
    std::vector<int64_t> dims = {1, in.GetDim(0), in.GetDim(1), in.GetDim(2)};
    ge::Shape shape(dims);
    const uint32_t stack = static_cast<uint32_t>(in.GetDim(3));
    uint32_t maxValue = 0;
    uint32_t minValue = 0;
    AscendC::GetLayerNormMaxMinTmpSize(shape, typeSize, false, maxValue, minValue);
    tiling.set_mx(maxValue);
    tiling.set_mn(minValue);
    AscendC::GetLayerNormNDTilingInfo(shape, stack, typeSize, false, tiling.ln);
    // a stack that holds no row: the library returns before writing, the block keeps the first call's values
    AscendC::GetLayerNormNDTilingInfo(shape, 64, typeSize, false, tiling.ln);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""

RSTD = """
namespace optiling {
BEGIN_TILING_DATA_DEF(LnTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, mx);
    TILING_DATA_FIELD_DEF(uint32_t, mn);
    TILING_DATA_FIELD_DEF_STRUCT(LayerNormSeparateTiling, ln);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(LnOp, LnTilingData)
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    LnTilingData tiling;
    const gert::Shape &in = context->GetInputShape(0)->GetStorageShape();
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2U : 4U;
    std::vector<int64_t> dims = {in.GetDim(0), in.GetDim(1)};
    ge::Shape shape(dims);
    const uint32_t stack = static_cast<uint32_t>(in.GetDim(2));
    uint32_t maxValue = 0;
    uint32_t minValue = 0;
    AscendC::GetLayerNormMaxMinTmpSize(shape, typeSize, false, true, false, maxValue, minValue);
    tiling.set_mx(maxValue);
    tiling.set_mn(minValue);
    AscendC::GetLayerNormNDTilingInfo(shape, stack, typeSize, false, true, tiling.ln);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def fields(source: str, shape: tuple[int, ...], dtype: str) -> dict:
    result = evaluate_program_tiling(load_text(source, "api.cpp"), TilingInputs([TensorSpec(shape, dtype)]))
    assert result.diagnostics == []
    assert result.succeeded and not result.gaps
    return result.fields


def _recip(n: int) -> float:
    return float(np.float32(1) / np.float32(n))


def test_plain_form_sizes_and_tiling() -> None:
    # float [1, 7, 64, 64], a 3000-byte stack: max 3 * align32(7 * 64 * 4) + 2 * align32(7 * 4) = 5376 + 64, min
    # 3 * 256 + 64. 750 floats in three buffers: 250 each, 192 (3 rows of 64) a pass; 448 elements: 2 passes, a
    # tail of 64 (1 row) at 384, row 6; float keeps no mean/variance in the stack (first buffer at 0)
    got = fields(PLAIN, (7, 64, 64, 3000), "float32")
    assert got == {"mx": 5440, "mn": 832, **{f"ln.{k}": v for k, v in {
        "bLength": 1, "sLength": 7, "hLength": 64, "originalHLength": 64, "inputXSize": 448, "meanVarSize": 7,
        "numberOfTmpBuf": 3, "meanTmpTensorPos": 0, "meanTmpTensorSize": 8, "varianceTmpTensorPos": 8,
        "varianceTmpTensorSize": 8, "tmpBufSize": 750, "oneTmpSize": 192, "firstTmpStartPos": 0,
        "secondTmpStartPos": 192, "thirdTmpStartPos": 384, "loopRound": 2, "inputRoundSize": 192,
        "inputTailSize": 64, "inputTailPos": 384, "meanVarRoundSize": 3, "meanVarTailSize": 1, "meanVarTailPos": 6,
        "bshCurLength": 192, "bsCurLength": 3, "lastDimValueBack": 1 / 64}.items()}}


def test_plain_form_half_keeps_mean_and_variance_in_the_stack() -> None:
    # half [1, 5, 32, 30] (30 of 32 columns real), 2000 bytes: 500 floats, mean and variance 8 each first (16),
    # (500 - 16) / 3 = 161 -> 160, all 5 rows in one pass; 1 / originalHLength = 1 / 30
    got = fields(PLAIN, (5, 32, 30, 2000), "float16")
    assert got["mx"] == 3 * 640 + 2 * 32 and got["mn"] == 3 * 128 + 2 * 32
    want = {"hLength": 32, "originalHLength": 30, "tmpBufSize": 500, "oneTmpSize": 160, "firstTmpStartPos": 16,
            "secondTmpStartPos": 176, "thirdTmpStartPos": 336, "loopRound": 1, "inputTailSize": 0,
            "inputTailPos": 160, "meanVarRoundSize": 5, "meanVarTailSize": 0, "meanVarTailPos": 5,
            "bsCurLength": 5, "lastDimValueBack": _recip(30)}
    assert {k: got[f"ln.{k}"] for k in want} == want


def test_rstd_form_sizes_and_tiling() -> None:
    # float [6, 40]: R padded to 40; LayerNorm's own max 2 * 960 + 32 and min 2 * 160 + 32; Normalize's (U = T)
    # max 2 * 160 + 2 * align32(8 * 40 * 4) = 2880 and min max(32, 2 * 160) = 320: the max becomes 2880 + 32.
    # 1000 bytes: 250 floats, the variance 8 first, (250 - 8) / 2 = 121 -> 120 (3 rows) a pass, 2 passes
    got = fields(RSTD, (6, 40, 1000), "float32")
    assert got["mx"] == 2912 and got["mn"] == 352
    want = {"aLength": 6, "rLength": 40, "inputXSize": 240, "meanVarSize": 6, "numberOfTmpBuf": 2,
            "varianceTmpTensorPos": 0, "varianceTmpTensorSize": 8, "tmpBufSize": 250, "oneTmpSize": 120,
            "firstTmpStartPos": 8, "secondTmpStartPos": 128, "loopRound": 2, "inputRoundSize": 120,
            "inputTailSize": 0, "inputTailPos": 240, "meanVarRoundSize": 3, "meanVarTailSize": 0,
            "meanVarTailPos": 6, "arCurLength": 120, "aCurLength": 3, "rValueBack": _recip(40)}
    assert {k: got[f"ln.{k}"] for k in want} == want


def test_rstd_form_half_sizes_take_normalizes_minimum() -> None:
    # half [5, 30]: R padded to 32 (16 halves a block); own min 2 * 128 + 32, Normalize's 4 * 128 (half U):
    # min 512 + 32; max: own 2 * 640 + 32, Normalize's 2 * 128 + 2 * align32(8 * 32 * 4) = 2304: 2304 + 32.
    # 700 bytes: 175 floats, (175 - 8) / 2 = 83 -> 64 (2 rows of 32), 160 elements: 2 passes and a tail row
    got = fields(RSTD, (5, 30, 700), "float16")
    assert got["mx"] == 2336 and got["mn"] == 544
    want = {"rLength": 30, "inputXSize": 160, "oneTmpSize": 64, "loopRound": 2, "inputTailSize": 32,
            "inputTailPos": 128, "meanVarRoundSize": 2, "meanVarTailSize": 1, "meanVarTailPos": 4,
            "rValueBack": _recip(30)}
    assert {k: got[f"ln.{k}"] for k in want} == want


SIZES = """
namespace optiling {
BEGIN_TILING_DATA_DEF(NormSizesData)
    TILING_DATA_FIELD_DEF(uint32_t, normMx);
    TILING_DATA_FIELD_DEF(uint32_t, normMn);
    TILING_DATA_FIELD_DEF(uint32_t, normHalfMn);
    TILING_DATA_FIELD_DEF(uint32_t, normKept);
    TILING_DATA_FIELD_DEF(uint32_t, updMx);
    TILING_DATA_FIELD_DEF(uint32_t, updMn);
    TILING_DATA_FIELD_DEF(uint32_t, updHalfMn);
    TILING_DATA_FIELD_DEF(uint32_t, finMx);
    TILING_DATA_FIELD_DEF(uint32_t, finMn);
    TILING_DATA_FIELD_DEF(uint32_t, finKept);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(NormSizesOp, NormSizesData)
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    NormSizesData tiling;
    const gert::Shape &in = context->GetInputShape(0)->GetStorageShape();
    std::vector<int64_t> ar = {in.GetDim(0), in.GetDim(1)};
    ge::Shape arShape(ar);
    uint32_t mx = 0, mn = 0, halfMx = 0, halfMn = 0, keptMx = 7, keptMn = 7;
    AscendC::GetNormalizeMaxMinTmpSize(arShape, 4, 4, false, true, false, mx, mn);
    AscendC::GetNormalizeMaxMinTmpSize(arShape, 2, 2, false, true, false, halfMx, halfMn);
    AscendC::GetNormalizeMaxMinTmpSize(arShape, 4, 4, false, false, false, keptMx, keptMn);
    tiling.set_normMx(mx);
    tiling.set_normMn(mn);
    tiling.set_normHalfMn(halfMn);
    tiling.set_normKept(keptMn);
    AscendC::GetWelfordUpdateMaxMinTmpSize(arShape, 4, 4, false, false, mx, mn);
    AscendC::GetWelfordUpdateMaxMinTmpSize(arShape, 2, 4, false, false, halfMx, halfMn);
    tiling.set_updMx(mx);
    tiling.set_updMn(mn);
    tiling.set_updHalfMn(halfMn);
    std::vector<int64_t> ab = {in.GetDim(1)};
    ge::Shape abShape(ab);
    AscendC::GetWelfordFinalizeMaxMinTmpSize(abShape, 4, false, mx, mn);
    tiling.set_finMx(mx);
    tiling.set_finMn(mn);
    std::vector<int64_t> odd = {in.GetDim(1) + 1};
    ge::Shape oddShape(odd);
    AscendC::GetWelfordFinalizeMaxMinTmpSize(oddShape, 4, false, keptMx, keptMn);
    tiling.set_finKept(keptMn);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def test_normalize_and_welford_sizes() -> None:
    # [A 3, R 72]: Normalize, float: Rp 72; max 2 * 288 + 2 * align32(8 * 72 * 4) = 576 + 4608, min max(32, 2 * 288);
    # half: Rp 80 (16 halves a block), min 4 * 320; isComputeRstd false leaves min at 7.
    # WelfordUpdate [rn 3, ab 72], float x: min 512, max ceil(216 / 64) = 4 * 512; half x: min 768.
    # WelfordFinalize [ab 72]: min 1,024, max (128 + 144) * 4; 73 columns (not a multiple of 8) leave min at 7
    assert fields(SIZES, (3, 72), "float32") == {
        "normMx": 5184, "normMn": 576, "normHalfMn": 1280, "normKept": 7, "updMx": 2048, "updMn": 512,
        "updHalfMn": 768, "finMx": 1088, "finMn": 1024, "finKept": 7}
