"""`tilingData.SetDataPtr(context->GetRawTilingData()->GetData())` in host tiling code: the legacy tiling object's
fields live in the context's buffer from then on, so the sets after it need no SaveToBuffer (NPUKernelBench's
large-head-dim flash attention binds its tiling object so in its tiling class's constructor). It was ASC100 'no
member named SetDataPtr', which failed the host tiling."""

from __future__ import annotations

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text

PROGRAM = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(InnerParams)
TILING_DATA_FIELD_DEF(int64_t, rows);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(InnerParamsOp, InnerParams)
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(int64_t, n);
TILING_DATA_FIELD_DEF_STRUCT(InnerParams, inner);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
class PTiling {
 public:
  explicit PTiling(gert::TilingContext* context) : ctx(context)
  {
    tilingData.SetDataPtr(ctx->GetRawTilingData()->GetData());
  }
  ge::graphStatus DoTiling()
  {
    auto shape = ctx->GetInputShape(0);
    tilingData.set_n(shape->GetStorageShape().GetDim(1));
    tilingData.inner.set_rows(shape->GetStorageShape().GetDim(0));
    ctx->GetRawTilingData()->SetDataSize(tilingData.GetDataSize());
    ctx->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
  }
 private:
  gert::TilingContext* ctx = nullptr;
  PTilingData tilingData;
};
static ge::graphStatus TilingP(gert::TilingContext* context)
{
  PTiling t(context);
  return t.DoTiling();
}
}
namespace ops {
class P : public OpDef {
public:
    explicit P(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingP);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(P);
}
"""


def test_fields_set_after_set_data_ptr_reach_the_buffer() -> None:
    result = evaluate_program_tiling(load_text(PROGRAM, "p.cpp"), TilingInputs([TensorSpec((5, 6), "float32")]))
    assert result.diagnostics == []
    assert result.succeeded and not result.gaps
    assert result.fields == {"n": 6, "inner.rows": 5}
