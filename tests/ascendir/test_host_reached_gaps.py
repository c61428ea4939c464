"""A statement the host lowering left out makes the run's values untrusted (TilingResult.gaps: the launch then
leaves tiling fields the host did not set unknown, ASC958, instead of the zeros the device reads) only when the
run reached it. ops-nn's hosts lower their arch35 tiling beside the 910B one, and its gaps (a std::vector
searched with std::find, a size_t* element read) stopped dynamic_quant's 910B kernel at the fields its 910B
tiling leaves unset (alignGroupNum). The lowering marks each left-out statement (host.left_out) and the
evaluator notes those the run reaches."""

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
TILING_DATA_FIELD_DEF(uint32_t, n);
TILING_DATA_FIELD_DEF(uint32_t, sortSize);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTilingData td;
    td.set_n(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    if (Ops::NN::OpTiling::IsRegbaseSocVersion(context)) {
        std::vector<int64_t> dims = {1, 2};
        if (std::lower_bound(dims.begin(), dims.end(), 2) == dims.end()) {
            return ge::GRAPH_FAILED;
        }
        td.set_sortSize(GetSortTmpSize(context->GetPlatformInfo(), 8, 4));
    }
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


def _run(chip: str):
    program = load_text(SOURCE, "p.cpp")
    return evaluate_program_tiling(program, TilingInputs([TensorSpec((4, 4), "float32")], chip=chip))


def test_gaps_the_run_never_reached_do_not_count() -> None:
    result = _run("910B2")
    assert result.succeeded, result.diagnostics
    assert any("ASC103" in d for d in result.diagnostics)  # the lowering still reports them
    assert result.gaps == [] and result.complete
    assert result.fields == {"n": 16}


def test_gaps_the_run_reached_do() -> None:
    result = _run("950PR")
    # the std::lower_bound condition (std::find compared with end() is modelled since, host_init_list.membership;
    # std::count since host_iterators)
    assert [g.span.line for g in result.gaps] == [16] and not result.complete
    assert result.fields["sortSize"] == 64
