"""A folder whose host registers several ops' tiling functions (ops-nn rms_norm: `IMPL_OP_OPTILING(RmsNorm)
.Tiling(Tiling4RmsNorm)` and `IMPL_OP_OPTILING(GemmaRmsNorm).Tiling(Tiling4GemmaRmsNorm)`, one OpDef,
`OP_ADD(RmsNorm)`): the tiling run is that of the op the folder defines. Before, the first registration the
scan met won, which for rms_norm was GemmaRmsNorm's (is_gemma = 1 in the tiling data)."""

from __future__ import annotations

import pytest

from ascendir.host_eval_types import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text

HOST = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint32_t, which);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
REGISTER_TILING_DATA_CLASS(Q, PTilingData)
static ge::graphStatus Run(gert::TilingContext *context, uint32_t which)
{
    PTilingData td;
    td.set_which(which);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
static ge::graphStatus Tiling4P(gert::TilingContext *context) { return Run(context, 1); }
static ge::graphStatus Tiling4Q(gert::TilingContext *context) { return Run(context, 2); }
struct PCompileInfo {};
static ge::graphStatus Prepare(gert::TilingParseContext *context) { return ge::GRAPH_SUCCESS; }
REGISTRATIONS
}
namespace ops {
class P : public OpDef {
public:
    explicit P(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(P);
}
"""
P_REG = "IMPL_OP_OPTILING(P).Tiling(Tiling4P).TilingParse<PCompileInfo>(Prepare);"
Q_REG = "IMPL_OP_OPTILING(Q).Tiling(Tiling4Q).TilingParse<PCompileInfo>(Prepare);"


@pytest.mark.parametrize("order", ["p_first", "q_first"])
def test_the_registration_of_the_added_op_runs(order: str) -> None:
    regs = f"{P_REG}\n{Q_REG}" if order == "p_first" else f"{Q_REG}\n{P_REG}"
    result = evaluate_program_tiling(load_text(HOST.replace("REGISTRATIONS", regs), "p.cpp"),
                                     TilingInputs([TensorSpec((4, 4), "float32")], chip="910B2"))
    assert result.succeeded, result.diagnostics
    assert result.fields["which"] == 1


TEMPLATE_HOST = """
namespace optiling {
enum FLAG : uint8_t { ONE, TWO };
template <FLAG F>
inline uint32_t Idx() { return F == FLAG::TWO ? 1 : 0; }
template <FLAG F>
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    context->SetBlockDim(1);
    context->SetTilingKey(Idx<F>() + 5);
    return ge::GRAPH_SUCCESS;
}
REGISTRATIONS
}
""" + HOST[HOST.index("namespace ops {"):]


@pytest.mark.parametrize("order", ["p_first", "q_first"])
def test_the_added_op_registration_gives_the_template_arguments(order: str) -> None:
    """One function template registered for two ops with other arguments (ops-nn swi_glu: SwiGlu's
    `Tiling4SwiGlu<SWIGLU_SINGLE>` and SwiGluGrad's `Tiling4SwiGlu<SWIGLU_GRAD_SINGLE>`) runs with the arguments of
    the op the folder adds; swi_glu's tiling ran as SwiGluGrad's and read the gradient's second input."""
    regs = ["IMPL_OP_OPTILING(P).Tiling(TilingP<ONE>);", "IMPL_OP_OPTILING(PGrad)\n    .Tiling(TilingP<TWO>);"]
    text = "\n".join(regs if order == "p_first" else regs[::-1])
    program = load_text(TEMPLATE_HOST.replace("REGISTRATIONS", text), "p/op_host/p_tiling.cpp")
    result = evaluate_program_tiling(program, TilingInputs([TensorSpec((4, 8), "float32")], chip="910B2"))
    assert result.succeeded, result.diagnostics
    assert result.tiling_key == 5  # F = ONE
