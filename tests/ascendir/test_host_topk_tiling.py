"""GetTopKMaxMinTmpSize and TopKTilingFunc in host code (ascendir/lower/host_topk_tiling.py), by the 220x formulas of
asc-devkit's topk_tiling_impl.cpp; every value below is computed by hand from them. Before, both calls were
unmodelled by the host lowering (ASC103), in 26 places in the ops-transformer / ops-nn hosts."""

from __future__ import annotations

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text

TOPK_HOST = """
namespace optiling {
BEGIN_TILING_DATA_DEF(TopkOpTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, mx);
    TILING_DATA_FIELD_DEF(uint32_t, mn);
    TILING_DATA_FIELD_DEF(uint32_t, ok);
    TILING_DATA_FIELD_DEF_STRUCT(TopkTiling, topk);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TopkOp, TopkOpTilingData)
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    TopkOpTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape &in = context->GetInputShape(0)->GetStorageShape();
    const int32_t outter = in.GetDim(0);
    const int32_t inner = in.GetDim(1);
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2U : 4U;
    uint32_t maxValue = 0;
    uint32_t minValue = 0;
    AscendC::GetTopKMaxMinTmpSize(ascendcPlatform, inner, outter, false, INIT, AscendC::TopKMode::MODE, LARGEST,
                                  typeSize, maxValue, minValue);
    tiling.set_mx(maxValue);
    tiling.set_mn(minValue);
    const bool ok = AscendC::TopKTilingFunc(ascendcPlatform, inner, outter, KK, typeSize, INIT,
                                            AscendC::TopKMode::MODE, LARGEST, tiling.topk);
    tiling.set_ok(ok ? 1 : 0);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""

FIELDS = ("tmpLocalSize", "allDataSize", "innerDataSize", "sortRepeat", "mrgSortRepeat", "kAlignFourBytes",
          "kAlignTwoBytes", "maskOffset", "maskVreducev2FourBytes", "maskVreducev2TwoBytes", "mrgSortSrc1offset",
          "mrgSortSrc2offset", "mrgSortSrc3offset", "mrgSortTwoQueueSrc1Offset", "mrgFourQueueTailPara1",
          "mrgFourQueueTailPara2", "srcIndexOffset", "copyUbToUbBlockCount", "topkMrgSrc1MaskSizeOffset",
          "topkNSmallSrcIndexOffset", "vreduceValMask0", "vreduceValMask1", "vreduceIdxMask0", "vreduceIdxMask1",
          *(f"vreducehalfValMask{i}" for i in range(8)))


def run(shape: tuple[int, int], dtype: str, k: int, init: bool, small: bool, largest: bool) -> dict:
    source = (TOPK_HOST.replace("INIT", "true" if init else "false").replace("LARGEST", "true" if largest else "false")
              .replace("MODE", "TOPK_NSMALL" if small else "TOPK_NORMAL").replace("KK", str(k)))
    result = evaluate_program_tiling(load_text(source, "topk_host.cpp"), TilingInputs([TensorSpec(shape, dtype)]))
    assert result.diagnostics == []
    assert result.succeeded and not result.gaps
    return result.fields


def expect(mx: int, **topk: int) -> dict:
    """The outputs: both sizes mx, TopKTilingFunc true, and the TopkTiling fields named, the ones it sets (the
    others are never written, so the tiling holds none)."""
    assert set(topk) <= set(FIELDS)
    return {"mx": mx, "mn": mx, "ok": 1, **{f"topk.{name}": value for name, value in topk.items()}}


def test_normal_mode_float_with_given_indices() -> None:
    # 8 rows of 64 floats, k 4: 16 bytes an element of tmp; k aligned to 8 (4-byte) and 16 (2-byte) elements;
    # 64 / 32 Sort32 repeats, 64 / 4 merge repeats and 64 * 2 * 4 / 32 block copies; the mask offset 8 rows * 8
    assert run((8, 64), "float32", 4, init=True, small=False, largest=True) == expect(
        16 * 64, tmpLocalSize=4 * 64, allDataSize=512, innerDataSize=128, sortRepeat=2, mrgSortRepeat=16,
        kAlignFourBytes=8, kAlignTwoBytes=16, maskOffset=64, maskVreducev2FourBytes=8, maskVreducev2TwoBytes=16,
        mrgSortSrc1offset=2, mrgSortSrc2offset=4, mrgSortSrc3offset=6, mrgSortTwoQueueSrc1Offset=2,
        mrgFourQueueTailPara1=128, mrgFourQueueTailPara2=1, copyUbToUbBlockCount=16)


def test_normal_mode_half_generating_indices() -> None:
    # 2 rows of 96 halves, k 20: + 4 bytes an element for the generated index row; tmp in halves 8 * 96 + 2 * 96,
    # the index row at 8 * 96; k aligned to 24 and 32; the merge offsets in halves (4, 8, 12; 4)
    assert run((2, 96), "float16", 20, init=False, small=False, largest=False) == expect(
        20 * 96, tmpLocalSize=10 * 96, srcIndexOffset=8 * 96, allDataSize=192, innerDataSize=4 * 96, sortRepeat=3,
        mrgSortRepeat=24, kAlignFourBytes=24, kAlignTwoBytes=32, maskOffset=2 * 32, maskVreducev2FourBytes=40,
        maskVreducev2TwoBytes=80, mrgSortSrc1offset=4, mrgSortSrc2offset=8, mrgSortSrc3offset=12,
        mrgSortTwoQueueSrc1Offset=4, mrgFourQueueTailPara1=192, mrgFourQueueTailPara2=2, copyUbToUbBlockCount=24)


def test_small_mode_half_smallest_generating_indices() -> None:
    # 4 rows of 32 halves (128 elements), k 5: tmp 8 * 128 (pairs) + 4 * 128 (negated copy) + 4 * 128 (indices)
    # + 64 bytes. In halves: pairs 128 * 8 / 2 = 512, + 128 negated = 640 (the mask block), + 64 / 2 = 672 (the
    # index row), + 128 * 4 / 2 = 928. GatherMask patterns: indices '10' x 5 = 0b1010101010 = 682; half values
    # 0x1111 in mask 0 (k >= 5) and '0001' x (5 - 4) = 1 in mask 1
    assert run((4, 32), "float16", 5, init=False, small=True, largest=False) == expect(
        128 * 16 + 64, allDataSize=128, kAlignFourBytes=8, innerDataSize=512, maskOffset=20,
        topkMrgSrc1MaskSizeOffset=640, tmpLocalSize=928, topkNSmallSrcIndexOffset=672, vreduceIdxMask0=682,
        vreducehalfValMask0=0x1111, vreducehalfValMask1=1, **{f"vreducehalfValMask{j}": 0 for j in range(2, 8)})


def test_small_mode_float_largest_with_indices_and_k_past_16() -> None:
    # 2 rows of 32 floats, k 20: tmp 8 * 64 + 64 bytes; in floats pairs 64 * 8 / 4 = 128, + 16 = 144. Indices
    # 0xAAAAAAAA then '10' x 4 = 0b10101010 = 170; values 0x55555555 then '01' x 4 = 0b01010101 = 85
    assert run((2, 32), "float32", 20, init=True, small=True, largest=True) == expect(
        64 * 8 + 64, allDataSize=64, kAlignFourBytes=24, innerDataSize=128, maskOffset=40,
        topkMrgSrc1MaskSizeOffset=128, tmpLocalSize=144, vreduceIdxMask0=0xAAAAAAAA, vreduceIdxMask1=170,
        vreduceValMask0=0x55555555, vreduceValMask1=85)
