"""`TilingContext::InputIsView(i)` in host code: false, as a launch gives each input as a contiguous tensor of its
own; the GetInputStride the other branch reads is a known, unmodelled call (a warning where it is), not an
unknown member. ops-nn scatter_nd_update's arch22 tiling asks both (HandleViewStride); before, each was 'no member
named ... in gert::TilingContext' (ASC100) and the tiling stopped (ASC602)."""

from __future__ import annotations

from tests.ascendir.host_op import op_def, run_tiling

SOURCE = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint32_t, viewed);
TILING_DATA_FIELD_DEF(uint32_t, stride0);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    uint32_t cols = context->GetInputShape(0)->GetStorageShape().GetDim(1);
    PTilingData td;
    td.set_viewed(2);
    td.set_stride0(cols);
    if (context->InputIsView(0)) {
        auto stride = context->GetInputStride(0);
        if (stride != nullptr) {
            td.set_viewed(1);
        }
    } else {
        td.set_viewed(0);
    }
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


def test_an_input_is_no_view() -> None:
    result = run_tiling(SOURCE, 5, 6)
    assert result.succeeded, result.diagnostics
    assert result.fields == {"viewed": 0, "stride0": 6}
    assert not any("no member named" in d for d in result.diagnostics), result.diagnostics
