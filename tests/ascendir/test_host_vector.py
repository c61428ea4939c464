"""Run-time std::vectors of numbers and `new T[n]` arrays in a host tiling function
(ascendir/lower/host_vector.py).

NPUKernelBench StridedSliceAssignV2 collects its `axes` input's values with emplace_back into a vector passed by
reference to a template helper (overloaded on `int64_t dataList[]` / `std::vector<int64_t> &`), reads them back
by index up to size(), and permutes its tables through `new int64_t[dimNum]` arrays; Lerp fills
`std::vector<uint64_t> v(outDimNum, 1)` and passes it by value. Before, each of these was left out (ASC103).
"""

from __future__ import annotations

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text

SOURCE = """
#include <vector>
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(VTilingData)
TILING_DATA_FIELD_DEF_ARR(int64_t, 4, picked);
TILING_DATA_FIELD_DEF(int64_t, count);
TILING_DATA_FIELD_DEF(int64_t, sum);
TILING_DATA_FIELD_DEF(int64_t, callerFirst);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(V, VTilingData)

static void Collect(int64_t n, int64_t dataList[])
{
    for (int64_t i = 0; i < n; i++) { dataList[i] = -1; }
}
static void Collect(int64_t n, std::vector<int64_t> &dataList)
{
    for (int64_t i = 0; i < n; i++) { dataList.emplace_back(10 * i + 1); }
    dataList.push_back(99);
}
static int64_t SumByValue(std::vector<int64_t> v)
{
    int64_t s = 0;
    for (size_t i = 0; i < v.size(); i++) { s += v[i]; }
    v[0] = 1000;  // the caller's vector keeps its own first element
    return s;
}
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    VTilingData tiling;
    size_t dimNum = context->GetInputShape(0)->GetStorageShape().GetDimNum();
    std::vector<int64_t> values;
    Collect(dimNum, values);
    int64_t *picked = new int64_t[dimNum + 1];
    for (size_t i = 0; i < values.size(); i++) { picked[i] = values[i]; }
    int64_t table[4] = {0};
    for (size_t i = 0; i < dimNum + 1; i++) { table[i] = picked[i]; }
    delete[] picked;
    std::vector<int64_t> ones(dimNum, 7);
    tiling.set_picked(table);
    tiling.set_count(values.size() + (values.empty() ? 100 : 0));
    tiling.set_sum(SumByValue(values) + ones.back());
    tiling.set_callerFirst(values[0]);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def test_runtime_vector_and_new_array() -> None:
    result = evaluate_program_tiling(load_text(SOURCE, "v.cpp"), TilingInputs([TensorSpec((2, 3, 4), "float32")]))
    assert result.diagnostics == []
    assert result.succeeded and not result.gaps
    # the vector overload was taken: 1, 11, 21 then 99; a by-value copy changed only its own first element
    assert result.fields == {"picked": [1, 11, 21, 99], "count": 4, "sum": 1 + 11 + 21 + 99 + 7,
                             "callerFirst": 1}


def test_unmodelled_vector_member_is_reported() -> None:
    source = SOURCE.replace("    tiling.set_count(values.size()",
                            "    values.insert(values.begin(), 5);\n    tiling.set_count(values.size()")
    result = evaluate_program_tiling(load_text(source, "v.cpp"), TilingInputs([TensorSpec((2, 3, 4), "float32")]))
    assert any("std::vector::insert is not modelled" in d for d in result.diagnostics), result.diagnostics
    assert not result.complete
