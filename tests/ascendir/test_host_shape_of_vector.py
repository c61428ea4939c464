"""`ge::Shape s(v)` of a std::vector<int64_t> the tiling function assigns again later (`v = {a, b};` then
`s = ge::Shape(v);`), as ops-nn scaled_masked_softmax_grad_v2 sizes its softmax-grad temporary space
(GetSoftMaxGradMaxTmpSize of one row, then of the rows that fit). A vector assigned after its declaration is held at
run time (host_vector.py): a brace list assigned to it now sets its elements and size (host_vector.assign_items),
and a shape made of it has its size and elements as they are when the constructor runs (host_vector.shape_of).
Before: 'a gert::Shape dim of type std::vector<int64_t> is not modelled' and 'constructing std::vector<int64_t>
is not modelled' (gaps), the library size unknown, the tiling failed (ASC602)."""

from __future__ import annotations

from tests.ascendir.host_op import assert_tiled, op_def, run_tiling

SRC = """
namespace optiling {
struct PTiling { uint32_t rank; uint32_t d0; uint32_t d1; uint32_t sameOne; uint32_t sameAll; uint32_t size; };
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTiling *t = context->GetTilingData<PTiling>();
    auto xShape = context->GetInputShape(0)->GetStorageShape();
    int64_t rows = xShape.GetDim(0);
    int64_t cols = xShape.GetDim(1);
    std::vector<int64_t> shapeVec = {1, cols};
    ge::Shape srcShape(shapeVec);
    uint32_t one = AscendC::GetSoftMaxGradMaxTmpSize(srcShape, 4, false, false);
    t->sameOne = one == AscendC::GetSoftMaxGradMaxTmpSize(ge::Shape({1, cols}), 4, false, false) ? 1 : 0;
    shapeVec = {rows, cols, 2};
    srcShape = ge::Shape(shapeVec);
    t->rank = srcShape.GetDimNum();
    t->d0 = srcShape.GetDim(0);
    t->d1 = srcShape.GetDim(2);
    uint32_t all = AscendC::GetSoftMaxGradMaxTmpSize(srcShape, 4, false, false);
    t->sameAll = all == AscendC::GetSoftMaxGradMaxTmpSize(ge::Shape({rows, cols, 2}), 4, false, false) ? 1 : 0;
    t->size = all;
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


def test_a_shape_made_of_a_vector_assigned_again_has_its_current_elements() -> None:
    result = run_tiling(SRC, rows=5, cols=64)
    assert_tiled(result)
    f = result.fields
    assert (f["rank"], f["d0"], f["d1"], f["sameOne"], f["sameAll"]) == (3, 5, 2, 1, 1)
    assert f["size"] > 0
