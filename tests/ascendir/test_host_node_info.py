"""`context->GetComputeNodeInfo()->GetInputInstanceInfo(i)->GetInstanceNum()`: how many tensors a tensor-list
input is (NPUKernelBench ScatterList counts its `var` list so; the lowering had no GetComputeNodeInfo, ASC103, and
every value after it was unknown). GetInstanceStart is the instances of the inputs before it."""

from __future__ import annotations

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text

SOURCE = """
namespace optiling {
struct ListTilingData { uint32_t count; uint32_t start; uint32_t plain; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    ListTilingData *t = context->GetTilingData<ListTilingData>();
    auto computeNodeInfoPtr = context->GetComputeNodeInfo();
    if (computeNodeInfoPtr == nullptr) {
        return ge::GRAPH_FAILED;
    }
    auto anchor = computeNodeInfoPtr->GetInputInstanceInfo(1);
    if (anchor == nullptr) {
        return ge::GRAPH_FAILED;
    }
    t->count = anchor->GetInstanceNum();
    t->start = anchor->GetInstanceStart();
    t->plain = computeNodeInfoPtr->GetInputInstanceInfo(2)->GetInstanceNum();
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def test_the_instances_of_a_tensor_list_input() -> None:
    x = TensorSpec((4,), "int64")
    item = TensorSpec((8, 16), "float16")
    given = TilingInputs([x, item, item, item, TensorSpec((3,), "float16")], instances=[1, 3, 1], chip="910_93")
    result = evaluate_program_tiling(load_text(SOURCE, "list_tiling.cpp"), given)
    assert result.succeeded and not result.gaps, result.diagnostics
    assert result.fields == {"count": 3, "start": 1, "plain": 1}


OPTIONAL = """
namespace optiling {
struct MaskTilingData { int64_t dims; int64_t first; int64_t present; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    MaskTilingData *t = context->GetTilingData<MaskTilingData>();
    auto mask = context->GetOptionalInputShape(2);
    t->present = mask != nullptr;
    if (mask != nullptr) {
        t->dims = mask->GetStorageShape().GetDimNum();
        t->first = mask->GetStorageShape().GetDim(0);
    }
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def test_an_optional_input_is_found_by_its_ir_index_behind_a_list() -> None:
    # ScatterList's mask (IR index 3) is instance 5 behind a var list of three: read as instance 3 it was the
    # indices, two dimensions, and the tiling failed ("The dimension of mask only support 1")
    item = TensorSpec((8, 16), "float16")
    given = TilingInputs([item, item, item, TensorSpec((3, 2), "int32"), TensorSpec((3,), "bool")],
                         instances=[3, 1, 1], chip="910_93")
    result = evaluate_program_tiling(load_text(OPTIONAL, "mask_tiling.cpp"), given)
    assert result.succeeded and not result.gaps, result.diagnostics
    assert result.fields == {"present": 1, "dims": 1, "first": 3}
    absent = TilingInputs([item, TensorSpec((3, 2), "int32"), None], instances=[1, 1, 0], chip="910_93")
    result = evaluate_program_tiling(load_text(OPTIONAL, "mask_tiling.cpp"), absent)
    assert result.succeeded and result.fields["present"] == 0
