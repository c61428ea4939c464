"""A lowering error in a host statement the run never reaches does not stop the tiling: ops-math is_inf's
TilingIsInfTiling calls its arch35 tiling only when IsRegbaseSocVersion(context) (the 950 family), and that code
names ops-math's common elementwise tiling (ElewiseBaseTiling, out of reach of the op folder): an unknown type
(ASC105). (EnsureNotScalar, an undeclared name here before, is modelled now: test_host_ensure_not_scalar.py.) Before, any lowering error stopped the whole evaluation,
so the 910B tiling never ran. A statement with an error is now marked where it is (host.left_out, widened over its
errors), and a run that reaches one still fails with the lowering's diagnostics.
"""

from __future__ import annotations

from ascendir.host_eval_types import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text
from tests.ascendir.host_op import op_def

SOURCE = """
#include "register/tilingdata_base.h"
#include "op_host/tiling_util.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
static ge::graphStatus RegbaseTiling(gert::TilingContext *context)
{
    const gert::Shape &xShape = EnsureNotScalar(context->GetInputShape(0)->GetStorageShape());
    ElewiseBaseTiling elewise(context);
    return elewise.DoTiling(xShape);
}
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    if (Ops::NN::OpTiling::IsRegbaseSocVersion(context)) {
        return RegbaseTiling(context);
    }
    PTilingData td;
    td.set_rows(context->GetInputShape(0)->GetStorageShape().GetDim(0));
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


def _run(chip: str):
    return evaluate_program_tiling(load_text(SOURCE, "p.cpp"), TilingInputs([TensorSpec((6, 4), "float32")], chip=chip))


def test_errors_in_a_branch_the_run_does_not_take_do_not_stop_it() -> None:
    result = _run("910B2")
    assert result.succeeded, result.diagnostics
    assert result.fields == {"rows": 6}
    assert result.block_dim == 1


def test_a_run_that_reaches_an_error_fails_with_it() -> None:
    result = _run("950PR")
    assert not result.succeeded
    assert any("unknown type name 'ElewiseBaseTiling'" in d for d in result.diagnostics), result.diagnostics
