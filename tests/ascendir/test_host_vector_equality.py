"""`std::vector<T>{...}` temporaries and `==` / `!=` of two std::vectors in host tiling code, as ops-math
transpose_v2 picks its kernel (`if (perm == std::vector<int64_t>{0, 2, 1}) ... else if (perm ==
std::vector<int64_t>{1, 0, 2} || perm == std::vector<int64_t>{0, 2, 1, 3})`). Before, the temporary was
'constructing vector is not modelled' (ASC103), every condition was left out and the function returned
GRAPH_FAILED. Equal means equal sizes and equal elements in order.
"""

from __future__ import annotations

import pytest

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text

SOURCE = """
namespace optiling {
struct PermTilingData { uint32_t kind; uint32_t differs; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    PermTilingData *t = context->GetTilingData<PermTilingData>();
    const int32_t *values = context->GetInputTensor(1)->GetData<int32_t>();
    int32_t count = context->GetInputShape(1)->GetStorageShape().GetDim(0);
    std::vector<int64_t> perm;
    for (int32_t i = 0; i < count; i++) {
        perm.push_back(static_cast<int64_t>(values[i]));
    }
    if (perm == std::vector<int64_t>{0, 2, 1}) {
        t->kind = 21;
    } else if (perm == std::vector<int64_t>{1, 0, 2} || perm == std::vector<int64_t>({0, 2, 1, 3})) {
        t->kind = 102;
    } else {
        return ge::GRAPH_FAILED;
    }
    t->differs = perm != std::vector<int64_t>{0, 2, 1} ? 1 : 0;
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def _run(perm: tuple[int, ...]):
    return evaluate_program_tiling(load_text(SOURCE, "perm_tiling.cpp"), TilingInputs(
        [TensorSpec((2, 3, 4), "float32"), TensorSpec((len(perm),), "int32", values=perm)], chip="910B2"))


@pytest.mark.parametrize(("perm", "kind", "differs"), [((0, 2, 1), 21, 0), ((1, 0, 2), 102, 1),
                                                       ((0, 2, 1, 3), 102, 1)])
def test_a_vector_equals_a_temporary_of_the_same_items(perm: tuple[int, ...], kind: int, differs: int) -> None:
    result = _run(perm)
    assert result.succeeded and not result.gaps, result.diagnostics
    assert result.fields == {"kind": kind, "differs": differs}


@pytest.mark.parametrize("perm", [(0, 2), (0, 2, 1, 4), (2, 1, 0)])
def test_other_sizes_or_elements_are_not_equal(perm: tuple[int, ...]) -> None:
    result = _run(perm)
    assert not result.succeeded and not result.gaps, result.diagnostics
    assert any("returned ge::GRAPH_FAILED" in d for d in result.diagnostics), result.diagnostics
