"""The ge::graphStatus failures of graph/ge_error_codes.h are names the host code returns (the public CANN header's
values): ops-nn rms_norm_quant's tiling returns ge::GRAPH_PARAM_OUT_OF_RANGE for a bad dim, and the undeclared name
(ASC102) stopped the whole tiling (ASC602) though the run never returns it."""

from __future__ import annotations

import pytest

from tests.ascendir.host_op import OP_DEF, run_tiling

HOST = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    uint32_t rows = context->GetInputShape(0)->GetStorageShape().GetDim(0);
    if (rows > 100) {
        return ge::NAME;
    }
    PTilingData td;
    td.set_rows(rows);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + OP_DEF


@pytest.mark.parametrize(("name", "value"), [("GRAPH_PARAM_OUT_OF_RANGE", 50331644), ("GRAPH_NULL_PTR", 50331538),
                                             ("GRAPH_MUL_OVERFLOW", 50331427)])
def test_the_failure_codes_are_known(name: str, value: int) -> None:
    ok = run_tiling(HOST.replace("NAME", name), rows=5)
    assert ok.succeeded and ok.fields == {"rows": 5}, ok.diagnostics
    failed = run_tiling(HOST.replace("NAME", name), rows=200)
    assert not failed.succeeded and failed.status == value, failed.diagnostics
