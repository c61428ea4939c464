"""`Ops::NN::OpTiling::EnsureNotScalar(shape)` (ops-nn op_host/tiling_util.h; ops-math tiling_base/tiling_util.h):
the shape, or {1} where it is a scalar's (rank 0). ops-nn apply_adam_w_v2 reads its step input's dims through it;
before, it was an undeclared identifier (ASC102) and the tiling stopped. A program's own function of that name
(ops-nn apply_adagrad defines one) is the one called."""

from __future__ import annotations

import pytest

from ascendir.host_eval_types import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text
from tests.ascendir.host_op import assert_tiled, op_def

_BODY = """
#include "register/tilingdata_base.h"
#include "op_host/tiling_util.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rank);
TILING_DATA_FIELD_DEF(int64_t, first);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
%s
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTilingData td;
    auto shape = %sEnsureNotScalar(context->GetInputShape(0)->GetStorageShape());
    td.set_rank(shape.GetDimNum());
    td.set_first(shape.GetDim(0));
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""

# a team's own helper of the same name: the shape {7} for a scalar
_OWN = """
static const gert::Shape g_seven = {7};
static const gert::Shape& EnsureNotScalar(const gert::Shape& s) { return s.GetDimNum() == 0 ? g_seven : s; }
"""


def _fields(source: str, shape: tuple[int, ...]) -> dict[str, object]:
    result = evaluate_program_tiling(load_text(source + op_def(), "p.cpp"),
                                     TilingInputs([TensorSpec(shape, "float32")]))
    assert_tiled(result)
    return dict(result.fields)


@pytest.mark.parametrize(("shape", "rank", "first"), [((), 1, 1), ((5, 6), 2, 5), ((3,), 1, 3)])
def test_a_scalar_shape_becomes_one_dim_of_one(shape: tuple[int, ...], rank: int, first: int) -> None:
    assert _fields(_BODY % ("", "Ops::NN::OpTiling::"), shape) == {"rank": rank, "first": first}


def test_the_programs_own_function_is_called() -> None:
    assert _fields(_BODY % (_OWN, ""), ()) == {"rank": 1, "first": 7}
