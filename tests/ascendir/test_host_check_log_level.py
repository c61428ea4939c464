"""`CheckLogLevel(static_cast<int32_t>(OP), DLOG_DEBUG)`, the CANN log's level query that the ops repositories'
tiling_base.h calls before dumping tiling data at DEBUG (ops-math circular_pad's DumpTilingInfo), answers 0: the
benchmarks launch an op at the default log level. It was an undeclared identifier (ASC102) with its slog
arguments, so circular_pad's tiling did not run."""

from __future__ import annotations

from tests.ascendir.host_op import OP_DEF, assert_tiled, run_tiling

SOURCE = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint32_t, a);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)

static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTilingData td;
    int32_t enable = CheckLogLevel(static_cast<int32_t>(OP), DLOG_DEBUG);
    td.set_a(enable == 1 ? 2 : 3);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def test_the_debug_log_level_is_off() -> None:
    result = run_tiling(SOURCE + OP_DEF)
    assert_tiled(result)
    assert result.fields == {"a": 3}
