"""`std::accumulate` over a run-time std::vector with `v.begin() + k` / `v.end()` iterators, and std::vector data
members of a tiling class filled with push_back (NPUKernelBench ScatterList's ReShape: both were left out,
ASC103, and every count it computes from them unknown)."""

from __future__ import annotations

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text

SOURCE = """
#include <numeric>
#include <vector>
namespace optiling {
struct DimTilingData { int64_t before; int64_t after; int64_t sum; int64_t empty; };
constexpr int64_t NUM_ONE = 1;
class DimTiling {
public:
    explicit DimTiling(gert::TilingContext *context) : context(context) {}
    ge::graphStatus Run(DimTilingData *t) {
        const gert::Shape &shape = context->GetInputShape(0)->GetStorageShape();
        for (size_t i = 0; i < shape.GetDimNum(); ++i) {
            dims.push_back(shape.GetDim(i));
        }
        int64_t axis = 2;
        t->before = std::accumulate(dims.begin() + 1, dims.begin() + axis, NUM_ONE, std::multiplies<int64_t>());
        t->after = std::accumulate(dims.begin() + axis + 1, dims.end(), NUM_ONE, std::multiplies<int64_t>());
        t->sum = std::accumulate(dims.begin(), dims.end() - 1, 0);
        t->empty = std::accumulate(dims.begin() + 3, dims.begin() + 3, NUM_ONE, std::multiplies<int64_t>());
        return ge::GRAPH_SUCCESS;
    }
private:
    gert::TilingContext *context;
    std::vector<int64_t> dims;
};
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    DimTilingData *t = context->GetTilingData<DimTilingData>();
    DimTiling tiling(context);
    context->SetBlockDim(1);
    return tiling.Run(t);
}
}
"""


def test_accumulate_over_a_vector_member() -> None:
    result = evaluate_program_tiling(load_text(SOURCE, "dim_tiling.cpp"),
                                     TilingInputs([TensorSpec((2, 3, 5, 7, 11), "float16")], chip="910_93"))
    assert result.succeeded and not result.gaps, result.diagnostics
    assert result.fields == {"before": 3, "after": 7 * 11, "sum": 2 + 3 + 5 + 7, "empty": 1}
