"""`tilingData.SetDataPtr(context->GetRawTilingData()->GetData())` in host tiling code: the legacy tiling object's
fields live in the context's buffer from then on, so the sets after it need no SaveToBuffer (NPUKernelBench's
large-head-dim flash attention binds its tiling object so in its tiling class's constructor). It was ASC100 'no
member named SetDataPtr', which failed the host tiling."""

from __future__ import annotations

from tests.ascendir.host_op import assert_tiled, op_def, run_tiling

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
""" + op_def()


def test_fields_set_after_set_data_ptr_reach_the_buffer() -> None:
    result = run_tiling(PROGRAM)
    assert_tiled(result)
    assert result.fields == {"n": 6, "inner.rows": 5}
