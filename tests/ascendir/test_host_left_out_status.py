"""A tiling function that returns a status a left-out statement set (ops-nn ascend_quant_v2 before its tiling
class's methods were found: `status = tiling.DoAscendQuantV2Tiling();` in an `else`, then `return status;`) is a
failed run with that reason. Before, the evaluator returned the left-out value and reading it as the status raised
HostEvalError at the caller: `ascendir run` printed "internal error: HostEvalError" instead of a diagnostic."""

from __future__ import annotations

from tests.ascendir.host_op import OP_DEF, run_tiling

SOURCE = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint32_t, n);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
class Helper {
public:
    ge::graphStatus Run();
};
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    context->SetBlockDim(1);
    Helper h;
    ge::graphStatus status;
    if (context->GetInputShape(0)->GetStorageShape().GetDim(0) == 99) {
        status = ge::GRAPH_FAILED;
    } else {
        status = h.Run();
    }
    return status;
}
}
""" + OP_DEF


def test_a_status_a_left_out_statement_set_fails_the_run_with_its_reason() -> None:
    result = run_tiling(SOURCE)  # no exception
    assert not result.succeeded and result.status is None
    assert any("TilingP returns a value the host lowering left out" in d and "p.cpp:20:9" in d
               for d in result.diagnostics), result.diagnostics
