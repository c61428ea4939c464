"""Values a statement the host lowering left out may have written (ascendir/host_eval_left_out.py). The lowering
makes them unknown (`ascendc.undef`); the evaluator stopped at the first such op, even where nothing used the value
('Could not find interpretation function for op ascendc.undef': NPUKernelBench's large-head-dim flash attention
stopped so). Now it holds the value and stops only where the value is used, saying where it was left out."""

from __future__ import annotations

import pytest

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text

PROGRAM = """
namespace optiling {
BEGIN_TILING_DATA_DEF(LTilingData)
    TILING_DATA_FIELD_DEF(int64_t, n);
    TILING_DATA_FIELD_DEF(int64_t, m);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(LOp, LTilingData)
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    LTilingData tiling;
    int64_t fmt = 0;
    fmt = context->GetInputFormat(0)->GetStorageFormat();
    tiling.set_n(context->GetInputShape(0)->GetStorageShape().GetDim(0));
    USE
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""
X = TilingInputs([TensorSpec((4, 8), "float32")])


def test_a_left_out_value_never_used_does_not_stop_the_run() -> None:
    result = evaluate_program_tiling(load_text(PROGRAM.replace("USE", "int64_t copy = fmt;"), "l.cpp"), X)
    assert [g.code for g in result.gaps] == ["ASC103"]  # the statement left out is still reported
    assert result.succeeded and result.fields == {"n": 4}


@pytest.mark.parametrize("use", ["tiling.set_m(fmt);", "if (fmt == 2) { tiling.set_m(1); }", "tiling.set_m(fmt + 1);"])
def test_a_left_out_value_used_stops_the_run_saying_where(use: str) -> None:
    result = evaluate_program_tiling(load_text(PROGRAM.replace("USE", use), "l.cpp"), X)
    assert not result.succeeded
    [message] = [d for d in result.diagnostics if "left out" in d]
    assert "l.cpp:12:" in message and "is used" in message
