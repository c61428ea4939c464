"""An optional input the caller leaves out, tested through the plain getter: `context->GetInputShape(2) !=
nullptr` where the OpDef declares input 2 `ParamType(OPTIONAL)`.

NPUKernelBench CrossEntropyLoss's host checks its optional weight this way; before, the plain getters were
never null, so with the weight left out its tiling read the absent weight's shape and stopped.
"""

from __future__ import annotations

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.opdef_inputs import optional_inputs
from frontend.pipeline import load_text

SOURCE = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(WTilingData)
TILING_DATA_FIELD_DEF(int64_t, weightLen);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(W, WTilingData)
static ge::graphStatus TilingW(gert::TilingContext* context)
{
    WTilingData tiling;
    int64_t weightLen = -1;
    auto weight = context->GetInputShape(2);
    if (weight != nullptr) {
        weightLen = weight->GetStorageShape().GetDim(0);
    }
    tiling.set_weightLen(weightLen);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
namespace ops {
class W : public OpDef {
public:
    explicit W(const char* name) : OpDef(name)
    {
        this->Input("input").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("target").ParamType(REQUIRED).DataType({ge::DT_INT64}).Format({ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND});
        this->Output("loss").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingW);
    }
};
OP_ADD(W);
}
"""

X, T = TensorSpec((4, 10), "float32"), TensorSpec((4,), "int64")


def test_plain_getter_of_an_absent_optional_input_is_null() -> None:
    result = evaluate_program_tiling(load_text(SOURCE, "w.cpp"), TilingInputs([X, T, None]))
    assert result.succeeded and not result.gaps, result.diagnostics
    assert result.fields == {"weightLen": -1}


def test_plain_getter_of_a_given_optional_input_reads_it() -> None:
    result = evaluate_program_tiling(load_text(SOURCE, "w.cpp"), TilingInputs([X, T, TensorSpec((10,), "float32")]))
    assert result.succeeded and not result.gaps, result.diagnostics
    assert result.fields == {"weightLen": 10}


def test_optional_inputs_are_counted_among_inputs_only() -> None:
    assert optional_inputs([SOURCE]) == frozenset({2})
    # outputs and attributes between the inputs do not shift the count; a second OpDef makes it unknown
    text = SOURCE.replace('this->Input("weight")', 'this->Attr("a").AttrType(OPTIONAL).Int(1);\n'
                          '        this->Output("o").ParamType(OPTIONAL);\n        this->Input("weight")')
    assert optional_inputs([text]) == frozenset({2})
    assert optional_inputs([SOURCE, SOURCE.replace("OP_ADD(W)", "OP_ADD(V)")]) == frozenset()
