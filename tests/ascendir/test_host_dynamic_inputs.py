"""Host tiling over a tensor-list (DYNAMIC) input: `GetDynamicInputTensor(irIndex, i)` until it returns nullptr.

NPUKernelBench's foreach answers count and size the tensors of their list this way; an input declared after the
list (the scalar of ForeachAddScalar) is not one of its tensors. `TilingInputs.instances` says how many of the
given tensors each op input has.
"""

from __future__ import annotations

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text

LIST_TILING = """
namespace optiling {
struct ListTilingData { uint32_t count; uint32_t total; uint32_t last; uint32_t scalarSize; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    ListTilingData *t = context->GetTilingData<ListTilingData>();
    int listIndex = context->GetAttrs() != nullptr ? LIST_INDEX : 0;   // a run-time input index, as answers have
    uint32_t count = 0;
    uint32_t total = 0;
    for (uint32_t i = 0; i < 50; i++) {
        auto tensor = context->GetDynamicInputTensor(listIndex, i);
        if (tensor == nullptr) {
            break;
        }
        total += tensor->GetStorageShape().GetShapeSize();
        t->last = context->GetDynamicInputShape(listIndex, i)->GetStorageShape().GetDim(0);
        count++;
    }
    t->count = count;
    t->total = total;
    t->scalarSize = context->GetInputShape(OTHER_INDEX)->GetStorageShape().GetShapeSize();
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def tiling(list_index: int, other_index: int, inputs: list[TensorSpec], instances: list[int] | None) -> dict:
    source = LIST_TILING.replace("LIST_INDEX", str(list_index)).replace("OTHER_INDEX", str(other_index))
    result = evaluate_program_tiling(load_text(source, "list_tiling.cpp"), TilingInputs(inputs, instances=instances))
    assert result.succeeded and not result.gaps, result.diagnostics
    return dict(result.fields)


def test_the_loop_stops_at_the_end_of_the_list() -> None:
    tensors = [TensorSpec((4, 8), "float16"), TensorSpec((3,), "float16"), TensorSpec((5, 2), "float16")]
    scalar = TensorSpec((1,), "float16")
    # inputs (x: 3 tensors, scalar): the scalar after the list is not its fourth tensor
    assert tiling(0, 3, [*tensors, scalar], [3, 1]) == {"count": 3, "total": 45, "last": 5, "scalarSize": 1}


def test_a_list_after_another_input() -> None:
    # inputs (scalar, x: 2 tensors), as ForeachPowScalarAndTensor has them: the list is op input 1
    scalar = TensorSpec((1,), "float32")
    tensors = [TensorSpec((6,), "float32"), TensorSpec((2, 2), "float32")]
    assert tiling(1, 0, [scalar, *tensors], [1, 2]) == {"count": 2, "total": 10, "last": 2, "scalarSize": 1}


def test_without_instances_each_input_is_one_tensor() -> None:
    assert tiling(0, 1, [TensorSpec((7,), "float16"), TensorSpec((1,), "float16")], None) == {
        "count": 1, "total": 7, "last": 7, "scalarSize": 1}


COUNTED = """
namespace optiling {
struct CountTilingData { uint32_t tensors; uint64_t ub; uint32_t cores; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    CountTilingData *t = context->GetTilingData<CountTilingData>();
    t->tensors = context->GetComputeNodeInputNum() - 2;   // the list's tensors, less the two other inputs
    auto platformInfo = context->GetPlatformInfo();
    uint64_t ub = 0;
    platformInfo->GetLocalMemSize(fe::LocalMemType::UB, ub);   // the fe::PlatFormInfos getters
    t->ub = ub;
    t->cores = platformInfo->GetCoreNum();
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def test_the_compute_node_counts_each_tensor_of_a_list() -> None:
    tensors = [TensorSpec((4,), "float32")] * 3
    others = [TensorSpec((1,), "float32"), TensorSpec((1,), "float32")]
    result = evaluate_program_tiling(load_text(COUNTED, "count_tiling.cpp"),
                                     TilingInputs([*tensors, *others], instances=[3, 1, 1], chip="910B2"))
    assert result.succeeded and not result.gaps, result.diagnostics
    assert result.fields["tensors"] == 3
    assert result.fields["ub"] == 196608 and result.fields["cores"] == 48  # 910B2: 192 KiB of UB, 48 AIVs
