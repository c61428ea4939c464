"""`Ops::NN::OpTiling::IsRegbaseSocVersion(context)` (ops-nn op_host/tiling_util.h, out of reach of an op folder
read alone): true on the register-based (arch35) chips, DAV_3510 / DAV_5102. ops-nn rms_norm and add_rms_norm pick
their arch35 tiling with it; before, it was an undeclared identifier (ASC102) and the tiling stopped. Likewise
ops-nn's `ToString(shape)` (text for a log message): now a statement left out with a warning, not an error."""

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
TILING_DATA_FIELD_DEF(uint32_t, path);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTilingData td;
    std::string shapeText = ToString(context->GetInputShape(0)->GetStorageShape());
    td.set_path(Ops::NN::OpTiling::IsRegbaseSocVersion(context) ? 35 : 22);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


def _path(chip: str) -> object:
    result = evaluate_program_tiling(load_text(SOURCE, "p.cpp"),
                                     TilingInputs([TensorSpec((4, 4), "float32")], chip=chip))
    assert result.succeeded, result.diagnostics
    # ops-nn's ToString(shape), for a log message, is a gap of the lowering (a warning), not an undeclared name
    assert [d for d in result.diagnostics if "error" in d] == [], result.diagnostics
    assert any("'ToString' is not modelled" in d for d in result.diagnostics), result.diagnostics
    return result.fields["path"]


def test_the_910b_is_not_a_regbase_chip() -> None:
    assert _path("910B2") == 22


def test_the_950_is_one() -> None:
    assert _path("950PR") == 35
