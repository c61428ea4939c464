"""An error in a header that a statement's lowering meets (a struct member of a library type the op folder does not
declare, in the header declaring the struct) is marked where the statement is: a run that never reaches the
statement runs. ops-nn repeat_interleave_grad declares `struct repeatInterleaveGradTilingKey { Ops::Base::
ReduceTilingKey ReduceTiling; ... }` in a header and instantiates it on its arch35 path only; the unknown type
(ASC105) lay outside every marked statement, so the 910B tiling, which never takes that path, stopped too."""

from __future__ import annotations

from pathlib import Path

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load
from tests.ascendir.host_op import op_def

HEADER = """
#ifndef P_KEY_H
#define P_KEY_H
namespace optiling {
struct PKey {
    Ops::Base::ReduceTilingKey reduce;
    uint32_t templateNum;
};
}  // namespace optiling
#endif
"""

SOURCE = """
#include "register/tilingdata_base.h"
#include "op_host/tiling_util.h"
#include "p_key.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
static ge::graphStatus RegbaseTiling(gert::TilingContext *context)
{
    PKey key;
    key.templateNum = 1;
    context->SetTilingKey(key.templateNum);
    return ge::GRAPH_SUCCESS;
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


def _run(tmp_path: Path, chip: str):
    host = tmp_path / "p" / "op_host"
    host.mkdir(parents=True, exist_ok=True)
    (host / "p_key.h").write_text(HEADER)
    (host / "p.cpp").write_text(SOURCE)
    return evaluate_program_tiling(load(str(tmp_path / "p")), TilingInputs([TensorSpec((6, 4), "float32")], chip=chip))


def test_a_header_error_on_a_path_not_taken_does_not_stop_the_run(tmp_path: Path) -> None:
    result = _run(tmp_path, "910B2")
    assert result.succeeded, result.diagnostics
    assert result.fields == {"rows": 6}


def test_a_run_that_takes_the_path_fails_with_it(tmp_path: Path) -> None:
    result = _run(tmp_path, "950PR")
    assert not result.succeeded
    assert any("unknown type name 'Ops::Base::ReduceTilingKey'" in d or "unknown type name 'ReduceTilingKey'" in d
               for d in result.diagnostics), result.diagnostics
