"""The high-level API tiling queries of SoftmaxGrad (NPUKernelBench's InplaceFusedMatmulSoftmaxGrad) and RmsNorm
(KernelHive's rms_norm finals) in host tiling functions. Expected sizes are worked out by hand from the tiling
library's formulas for the 220x chips (see ascendir/lower/host_tiling_api.py, RmsNorm's in host_norm_tiling.py)."""

from __future__ import annotations

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text

SOFTMAX_GRAD = """
namespace optiling {
BEGIN_TILING_DATA_DEF(GradTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, mn);
    TILING_DATA_FIELD_DEF(uint32_t, mx);
    TILING_DATA_FIELD_DEF(uint32_t, front);
    TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, gradTiling);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(GradOp, GradTilingData)
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    GradTilingData tiling;
    const gert::Shape &in = context->GetInputShape(0)->GetStorageShape();
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2U : 4U;
    std::vector<int64_t> dims = {in.GetDim(0), in.GetDim(1)};
    ge::Shape shape(dims);
    const uint32_t mn = AscendC::GetSoftMaxGradMinTmpSize(shape, typeSize, false, false);
    tiling.set_mn(mn);
    tiling.set_mx(AscendC::GetSoftMaxGradMaxTmpSize(shape, typeSize, false, false));
    tiling.set_front(AscendC::GetSoftMaxGradMinTmpSize(shape, typeSize, true, false));
    AscendC::SoftMaxGradTilingFunc(shape, typeSize, mn, tiling.gradTiling);
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


def test_softmax_grad_temporary_sizes() -> None:
    # float, K = 64, M = 6: blk 8; full rows 2 * 8 + 64 + 64 = 144 words, the front part 8 + 64 + 64 = 136
    assert fields(SOFTMAX_GRAD, (6, 64), "float32") == {"mn": 144 * 4, "mx": 6 * 144 * 4, "front": 136 * 4}
    # half, K = 32, M = 3: blk 16; 2 * 16 + 3 * 32 + 64 = 192 words whatever isFront
    assert fields(SOFTMAX_GRAD, (3, 32), "float16") == {"mn": 192 * 4, "mx": 3 * 192 * 4, "front": 192 * 4}


RMS_NORM = """
namespace optiling {
BEGIN_TILING_DATA_DEF(RmsTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, mx);
    TILING_DATA_FIELD_DEF(uint32_t, mn);
    TILING_DATA_FIELD_DEF(uint32_t, ok);
    TILING_DATA_FIELD_DEF(uint32_t, basicOk);
    TILING_DATA_FIELD_DEF(uint32_t, tooSmall);
    TILING_DATA_FIELD_DEF_STRUCT(RmsNormTiling, rmsTiling);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(RmsOp, RmsTilingData)
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    RmsTilingData tiling;
    const gert::Shape &in = context->GetInputShape(0)->GetStorageShape();
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2U : 4U;
    std::vector<int64_t> dims = {1, in.GetDim(0), in.GetDim(1)};
    ge::Shape shape(dims);
    uint32_t maxValue = 0;
    uint32_t minValue = 0;
    if (!AscendC::GetRmsNormMaxMinTmpSize(shape, typeSize, maxValue, minValue, false)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t basicMax = 7;
    uint32_t basicMin = 7;
    const bool basic = AscendC::GetRmsNormMaxMinTmpSize(shape, typeSize, basicMax, basicMin, true);
    tiling.set_mx(maxValue);
    tiling.set_mn(minValue);
    tiling.set_ok(AscendC::GetRmsNormTilingInfo(shape, shape, minValue, typeSize, tiling.rmsTiling, false) ? 1 : 0);
    tiling.set_basicOk(basic ? basicMin : 0);
    tiling.set_tooSmall(AscendC::GetRmsNormTilingInfo(shape, shape, minValue - 4, typeSize, tiling.rmsTiling) ? 1 : 0);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def _rms_tiling(b: int, s: int, h: int, bs: int, loops: int, tail_rows: int) -> dict:
    """The RmsNormTiling fields for rows of h, bs rows a pass (hand-computed per case)."""
    x = b * s * h
    values = {"bLength": b, "sLength": s, "hLength": h, "originalHLength": h, "reciprocalOfHLength": 1 / h,
              "mainBshLength": bs * h, "mainBsLength": bs, "mainBsLengthAlign": (bs + 7) // 8 * 8, "loopRound": loops,
              "inputTailPos": x - tail_rows * h, "tailBshLength": tail_rows * h, "tailBsLength": tail_rows}
    return {f"rmsTiling.{k}": v for k, v in values.items()}


def test_rms_norm_temporary_sizes_and_tiling_checks() -> None:
    # float [1, 5, 64]: B * S = 5, aligned to 8 floats -> 8; max (5 * 64 + 8) * 4, min (64 + 8) * 4; 5 rows are no
    # basic block (B * S % 8), so the basic-block query returns false and leaves its outputs. The tiling with the
    # minimum, 72 floats: a second row would need 2 * 64 + 8, so one row a pass, 5 passes. The second
    # GetRmsNormTilingInfo (too small a stack) returns false and leaves the block as the first filled it.
    assert fields(RMS_NORM, (5, 64), "float32") == {
        "mx": (5 * 64 + 8) * 4, "mn": (64 + 8) * 4, "ok": 1, "basicOk": 0, "tooSmall": 0,
        **_rms_tiling(1, 5, 64, bs=1, loops=5, tail_rows=0)}
    # half [1, 16, 128]: aligned B * S 16; max (2 * 16 * 128 + 16) * 4, min (2 * 128 + 8) * 4; a basic block.
    # 264 floats: a second row needs 2 * 2 * 128 + 8
    assert fields(RMS_NORM, (16, 128), "float16") == {
        "mx": (2 * 16 * 128 + 16) * 4, "mn": (2 * 128 + 8) * 4, "ok": 1, "basicOk": (2 * 128 + 8) * 4, "tooSmall": 0,
        **_rms_tiling(1, 16, 128, bs=1, loops=16, tail_rows=0)}


RMS_NORM_STACK = """
namespace optiling {
BEGIN_TILING_DATA_DEF(RmsTilingData)
    TILING_DATA_FIELD_DEF_STRUCT(RmsNormTiling, rmsTiling);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(RmsOp, RmsTilingData)
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    RmsTilingData tiling;
    const gert::Shape &in = context->GetInputShape(0)->GetStorageShape();
    std::vector<int64_t> dims = {1, in.GetDim(0), in.GetDim(1)};
    ge::Shape shape(dims);
    const uint32_t stack = static_cast<uint32_t>(in.GetDim(2));
    if (!AscendC::GetRmsNormTilingInfo(shape, shape, stack, 4, tiling.rmsTiling, false)) {
        return ge::GRAPH_FAILED;
    }
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def test_rms_norm_tiling_rows_per_pass_and_tail() -> None:
    # float [1, 7, 64], 1000 bytes = 250 floats: 3 rows need 3 * 64 + 8 = 200, 4 rows 256 + 8: 3 rows a pass,
    # 2 passes (384 elements), a tail of 1 row at 384
    assert fields(RMS_NORM_STACK, (7, 64, 1000), "float32") == _rms_tiling(1, 7, 64, bs=3, loops=2, tail_rows=1)
    # float [1, 5, 64] with the maximum, (5 * 64 + 8) floats: all 5 rows in one pass, no tail
    assert fields(RMS_NORM_STACK, (5, 64, (5 * 64 + 8) * 4), "float32") == _rms_tiling(1, 5, 64, bs=5, loops=1,
                                                                                         tail_rows=0)
    # 300 rows of 8 floats with room for all: at most 255 rows a pass (one instruction's repeats), a tail of 45
    assert fields(RMS_NORM_STACK, (300, 8, 100000), "float32") == _rms_tiling(1, 300, 8, bs=255, loops=1,
                                                                                tail_rows=45)


def test_rms_norm_tiling_rejects_an_unaligned_row() -> None:
    # H = 10 floats is 40 bytes, not a multiple of 32: GetRmsNormTilingInfo returns false
    assert fields(RMS_NORM, (4, 10), "float32")["ok"] == 0


SORT_TMP = """
namespace optiling {
BEGIN_TILING_DATA_DEF(SortTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, sortTmp);
    TILING_DATA_FIELD_DEF(uint32_t, concatTmp);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(SortOp, SortTilingData)
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    SortTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t n = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2U : 4U;
    tiling.set_sortTmp(AscendC::GetSortTmpSize(ascendcPlatform, n, typeSize));
    tiling.set_concatTmp(AscendC::GetConcatTmpSize(ascendcPlatform, n, typeSize));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def test_sort_temporary_sizes() -> None:
    # 220x: Sort's tmp holds the (score, index) pairs, 8 bytes each for half and float; Concat needs none
    assert fields(SORT_TMP, (96,), "float32") == {"sortTmp": 96 * 8, "concatTmp": 0}
    assert fields(SORT_TMP, (4, 32), "float16") == {"sortTmp": 128 * 8, "concatTmp": 0}
