"""`AscendC::GetCumSumMaxMinTmpSize` in host tiling functions (KernelHive's cumsum_exclusive answers size CumSum's
temporary buffer with it): the tiling library's sizes for [outter, inner], computed here by hand from
asc-devkit's cumsum_tiling.cpp (last axis: two transposes of 16 rows, plus a cast buffer for half; first axis:
outter * inner floats for half, none for float)."""

from __future__ import annotations

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text

SIZES = """
namespace optiling {
struct SizeTilingData { uint32_t lastMin; uint32_t lastMax; uint32_t firstMin; uint32_t firstMax; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    SizeTilingData *t = context->GetTilingData<SizeTilingData>();
    const gert::Shape &in = context->GetInputShape(0)->GetStorageShape();
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2U : 4U;
    ge::Shape s({static_cast<int64_t>(in.GetDim(0)), static_cast<int64_t>(in.GetDim(1))});
    uint32_t mx = 0;
    uint32_t mn = 0;
    if (typeSize == 2U) {
        AscendC::GetCumSumMaxMinTmpSize(s, 2, true, false, mx, mn);
    } else {
        AscendC::GetCumSumMaxMinTmpSize(s, sizeof(float), true, false, mx, mn);
    }
    t->lastMin = mn;
    t->lastMax = mx;
    if (typeSize == 2U) {
        AscendC::GetCumSumMaxMinTmpSize(s, 2, false, false, mx, mn);
    } else {
        AscendC::GetCumSumMaxMinTmpSize(s, sizeof(float), false, false, mx, mn);
    }
    t->firstMin = mn;
    t->firstMax = mx;
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def sizes(shape: tuple[int, ...], dtype: str) -> dict:
    result = evaluate_program_tiling(load_text(SIZES, "sizes.cpp"), TilingInputs([TensorSpec(shape, dtype)]))
    assert result.diagnostics == []
    assert result.succeeded and not result.gaps
    return result.fields


def test_cumsum_temporary_sizes_float() -> None:
    # [1, 4000] float (cumsum_exclusive's rows): 16 rows of 4000 floats, twice; at most align16(1) = 16 rows
    assert sizes((1, 4000), "float32") == {"lastMin": 2 * 16 * 4000 * 4, "lastMax": 2 * 16 * 4000 * 4,
                                           "firstMin": 0, "firstMax": 0}
    # [40, 64]: at most align16(40) = 48 rows
    assert sizes((40, 64), "float32") == {"lastMin": 2 * 16 * 64 * 4, "lastMax": 2 * 48 * 64 * 4,
                                          "firstMin": 0, "firstMax": 0}


def test_cumsum_temporary_sizes_half() -> None:
    # half: the cast buffer (16 or align16(outter) rows of inner halves) on top; the first axis sums in floats
    assert sizes((40, 64), "float16") == {"lastMin": 64 * 16 * 2 + 2 * 16 * 64 * 2,
                                          "lastMax": 64 * 48 * 2 + 2 * 48 * 64 * 2,
                                          "firstMin": 40 * 64 * 4, "firstMax": 40 * 64 * 4}
