"""Pointers into a local array in a host tiling function: `uint32_t *len = allMem + N;`, written through in a
helper (`len[i] = ...`, `*(len + i) = ...`), read back (`end[i - 1]`, `*(len + i)`), and handed to a TILING_DATA_FIELD_DEF_ARR setter, which
copies the field's length from where the pointer points.

NPUKernelBench's Isamax / Isamin / Icamax / Icamin hosts carve their per-core tables out of one
`uint32_t allMem[12 * MAX_VECCORE_NUM]` this way; before, `allMem + k` was left out (ASC103) and every table
reached the kernel as zeros. ComplexMatDot's writes `*(calNum + i) = n`.
"""

from __future__ import annotations

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text

SOURCE = """
#include "register/tilingdata_base.h"
namespace optiling {
constexpr static int N = 4;
BEGIN_TILING_DATA_DEF(SplitTilingData)
TILING_DATA_FIELD_DEF(uint32_t, used);
TILING_DATA_FIELD_DEF_ARR(uint32_t, N, start);
TILING_DATA_FIELD_DEF_ARR(uint32_t, N, len);
TILING_DATA_FIELD_DEF_ARR(uint32_t, N, last);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Split, SplitTilingData)
static void Fill(uint32_t cores, uint32_t total, uint32_t *allMem)
{
    uint32_t *start = allMem;
    uint32_t *len = allMem + N;
    uint32_t *end = allMem + 2 * N;
    for (uint32_t i = 0; i < cores; i++) {
        start[i] = (i == 0) ? 0 : end[i - 1];
        *(len + i) = total / cores + (i < total % cores ? 1 : 0);
        end[i] = start[i] + *(len + i);
    }
}
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    uint32_t total = context->GetInputShape(0)->GetStorageShape().GetDim(0);
    uint32_t allMem[3 * N] = {0};
    Fill(3, total, allMem);
    uint32_t *len = allMem + N;
    uint32_t *tail = len + N - 1;
    SplitTilingData tiling;
    tiling.set_used(3);
    tiling.set_start(allMem);
    tiling.set_len(len);
    tiling.set_last(tail - (N - 1) + N);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(3);
    return ge::GRAPH_SUCCESS;
}
}
"""


def test_tables_carved_out_of_one_array() -> None:
    result = evaluate_program_tiling(load_text(SOURCE, "split.cpp"), TilingInputs([TensorSpec((10,), "float32")]))
    assert result.diagnostics == []
    assert result.succeeded and not result.gaps
    # 10 elements over 3 cores: 4, 3, 3; each core's end is the next one's start
    assert result.fields == {"used": 3, "start": [0, 4, 7, 0], "len": [4, 3, 3, 0], "last": [4, 7, 10, 0]}


ELEMENT_ADDRESS = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(ShapesTilingData)
TILING_DATA_FIELD_DEF_ARR(int64_t, 8, shape);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Shapes, ShapesTilingData)
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    ShapesTilingData tiling;
    int64_t shape[8] = {0};
    for (int k = 0; k < 2; ++k) {
        int64_t *ss = &shape[k * 4];
        const gert::StorageShape *shape = context->GetInputShape(k);
        for (int i = 0; i < shape->GetStorageShape().GetDimNum(); i++) {
            ss[i] = shape->GetStorageShape().GetDim(i);
        }
    }
    tiling.set_shape(shape);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def test_address_of_an_element_points_into_the_array() -> None:
    # NPUKernelBench Cross: `int64_t *ss = &shape[k * 64];` then `ss[i] = ...` fills each input's row of the
    # table; before, `&shape[...]` was the element's value and every write through `ss` was left out (ASC103)
    inputs = TilingInputs([TensorSpec((2, 3), "float32"), TensorSpec((5, 6, 7), "float32")])
    result = evaluate_program_tiling(load_text(ELEMENT_ADDRESS, "shapes.cpp"), inputs)
    assert result.diagnostics == []
    assert result.succeeded and not result.gaps
    assert result.fields == {"shape": [2, 3, 0, 0, 5, 6, 7, 0]}
