"""Attribute indexes known only when the tiling runs: `attrs->GetAttrPointer<float>(idx++)` with a counter in a
local (NPUKernelBench's large-head-dim flash attention reads its two attributes so), and `GetInt(i)` in a loop.
They were ASC103 'the attribute index must be a non-negative constant': the statement was left out, the member
it set was forgotten (`ascendc.undef`), and the host evaluator stopped at that op."""

from __future__ import annotations

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text

HEAD = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(ATilingData)
TILING_DATA_FIELD_DEF(float, scale);
TILING_DATA_FIELD_DEF(int64_t, heads);
TILING_DATA_FIELD_DEF(int64_t, total);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(A, ATilingData)
"""
TAIL = """
}
namespace ops {
class A : public OpDef {
public:
    explicit A(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0);
        this->Attr("heads").Int();
        this->AICore().SetTiling(optiling::TilingA);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(A);
}
"""

COUNTER = HEAD + """
class ATiling {
 public:
  explicit ATiling(gert::TilingContext* context) : ctx(context) {}
  ge::graphStatus DoTiling()
  {
    auto attrs = ctx->GetAttrs();
    size_t idx = 0;
    auto scalePtr = attrs->GetAttrPointer<float>(idx++);
    auto headsPtr = attrs->GetAttrPointer<uint32_t>(idx++);
    scale = *scalePtr;
    heads = *headsPtr;
    tiling.set_scale(scale);
    tiling.set_heads(heads);
    tiling.set_total(static_cast<int64_t>(idx));
    tiling.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
  }
 private:
  gert::TilingContext* ctx = nullptr;
  float scale = 1.0f;
  int64_t heads = 0;
  ATilingData tiling;
};
static ge::graphStatus TilingA(gert::TilingContext* context)
{
  ATiling t(context);
  return t.DoTiling();
}
""" + TAIL

LOOP = HEAD + """
static ge::graphStatus TilingA(gert::TilingContext* context)
{
  ATilingData tiling;
  int64_t total = 0;
  for (int i = 1; i < 3; ++i) {
    if (context->GetAttrs()->GetAttrPointer<int64_t>(i) != nullptr) {
      total += *context->GetAttrs()->GetInt(i);
    }
  }
  tiling.set_total(total);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->SetBlockDim(1);
  return ge::GRAPH_SUCCESS;
}
""" + TAIL

X = TensorSpec((4, 8), "float32")


def test_attribute_counter_in_a_local() -> None:
    result = evaluate_program_tiling(load_text(COUNTER, "a.cpp"), TilingInputs([X], attrs=[0.0625, 8]))
    assert result.diagnostics == [] and not result.gaps
    assert result.succeeded
    assert result.fields == {"scale": 0.0625, "heads": 8, "total": 2}


def test_attribute_index_from_a_loop_variable() -> None:
    # attribute 2 is absent: GetAttrPointer gives null for it and the loop skips it
    result = evaluate_program_tiling(load_text(LOOP, "a.cpp"), TilingInputs([X], attrs=[0.5, 3, None]))
    assert result.diagnostics == [] and not result.gaps
    assert result.fields == {"total": 3}
    result = evaluate_program_tiling(load_text(LOOP, "a.cpp"), TilingInputs([X], attrs=[0.5, 3, 4]))
    assert result.fields == {"total": 7}
