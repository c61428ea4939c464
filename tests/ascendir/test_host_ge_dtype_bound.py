"""`ge::DT_MAX` (the bound past every ge::DataType) and the 8- / 4-bit float types are ge enumerators the host
code names: ops-nn mse_loss_v2's tiling keeps its input dtype in a namespace variable that starts as ge::DT_MAX
("not set yet"), and the name was undeclared (ASC102), which stopped the tiling (ASC602). The tiling then sets
that variable by its qualified name (`optiling::dtype = inputDtype;`), which was 'assignment to this kind of
expression' (ASC103) and left the later `optiling::dtype == ge::DT_FLOAT` unknown."""

from __future__ import annotations

from tests.ascendir.host_op import OP_DEF, assert_tiled, run_tiling

HOST = """
#include "register/tilingdata_base.h"
namespace optiling {
ge::DataType dtype = ge::DT_MAX;
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint32_t, before);
TILING_DATA_FIELD_DEF(uint32_t, after);
TILING_DATA_FIELD_DEF(uint32_t, fp8);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTilingData td;
    td.set_before(optiling::dtype == ge::DT_MAX ? 1 : 0);
    optiling::dtype = context->GetInputDesc(0)->GetDataType();
    td.set_after(optiling::dtype == ge::DT_FLOAT ? 1 : 0);
    td.set_fp8(static_cast<uint32_t>(ge::DT_FLOAT8_E4M3FN));
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + OP_DEF


def test_dt_max_is_a_data_type_past_the_others() -> None:
    result = run_tiling(HOST)
    assert_tiled(result)
    assert result.fields == {"before": 1, "after": 1, "fp8": 36}
