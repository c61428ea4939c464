"""A handle variable rebound after an early return: `auto p = context->GetInputDesc(0); OP_CHECK_IF(
p->GetDataType() ..., return ge::GRAPH_FAILED); p = context->GetInputDesc(1);` (ops-nn apply_adam_w_v2's
CheckInputDtype walks its inputs so). The check's return, on a runtime condition, puts the rest of the function in
a block of its own, and a rebinding there was 'assigning under control flow is not modelled': later reads of the
variable took a value left out and the tiling stopped. Every later statement of the function is in that block, so
the rebinding is the value they read. Under a real `if` the two bindings are merged after it (a path that skips the
`if` reads the old handle: test_host_handle_merge.py)."""

from __future__ import annotations

from ascendir.host_eval_types import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text
from tests.ascendir.host_op import assert_tiled

_SOURCE = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint32_t, first);
TILING_DATA_FIELD_DEF(uint32_t, second);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTilingData td;
    auto desc = context->GetInputDesc(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, desc);
    td.set_first(desc->GetDataType() == ge::DT_FLOAT16 ? 16 : 32);
    OP_CHECK_IF(desc->GetDataType() == ge::DT_INT8, OP_LOGE(context, "int8"), return ge::GRAPH_FAILED);
    %s
    td.set_second(desc->GetDataType() == ge::DT_FLOAT16 ? 16 : 32);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
namespace ops {
class P : public OpDef {
public:
    explicit P(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("h").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingP);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(P);
}
"""

_INPUTS = TilingInputs([TensorSpec((4, 4), "float32"), TensorSpec((4, 4), "float16")])


def test_a_handle_rebound_after_an_early_return() -> None:
    rebind = "desc = context->GetInputDesc(1);\n    OP_CHECK_NULL_WITH_CONTEXT(context, desc);"
    result = evaluate_program_tiling(load_text(_SOURCE % rebind, "p.cpp"), _INPUTS)
    assert_tiled(result)
    assert result.fields == {"first": 32, "second": 16}


def test_a_handle_rebound_under_an_if_is_the_taken_branchs() -> None:
    """Under a real `if` the rebinding is merged after it (host_branch_merge: the desc's tensor index chosen by
    the condition); it was a gap ('under control flow is not modelled') before."""
    rebind = "if (context->GetInputShape(0)->GetStorageShape().GetDim(0) > 2) { desc = context->GetInputDesc(1); }"
    for rows, second in ((4, 16), (2, 32)):
        inputs = TilingInputs([TensorSpec((rows, 4), "float32"), TensorSpec((4, 4), "float16")])
        result = evaluate_program_tiling(load_text(_SOURCE % rebind, "p.cpp"), inputs)
        assert_tiled(result)
        assert result.fields == {"first": 32, "second": second}
