"""A host class that keeps the node name in a std::string member for its log messages (ops-nn swi_glu's
GluSingleTilingCalculator: `explicit GluSingleTilingCalculator(SwiGluTilingData *t, const std::string &opName) :
tilingData(t), opName_(opName) {}`, built with context->GetNodeName()). Since a string member became a memory cell
(0d50fd3, session 13) its initialiser had to be a string the lowering knows, and the node name is not one: the
constructor was a gap ('a string made from the node name is not modelled'), every call of the object's methods
after it too, the tiling fields they set were never set, and swi_glu, glu and swi_glu_grad stopped (ASC958, a tiling
field not set). The node name is now a string of unknown text: holding it costs nothing, and only a use of its
text stops the run, saying where it was left out."""

from __future__ import annotations

from tests.ascendir.host_op import assert_tiled, op_def, run_tiling

SRC = """
namespace optiling {
struct NTiling { uint32_t rows; uint32_t same; };
class Calculator {
public:
    explicit Calculator(NTiling *t, const std::string &opName) : tiling_(t), opName_(opName) {}
    bool Calc(int64_t rows)
    {
        if (rows <= 0) {
            OP_LOGE(opName_, "no rows");
            return false;
        }
        tiling_->rows = static_cast<uint32_t>(rows);
        USE
        return true;
    }
    NTiling *tiling_;
    std::string opName_;
};
static ge::graphStatus TilingN(gert::TilingContext *context)
{
    NTiling *t = context->GetTilingData<NTiling>();
    Calculator calc(t, context->GetNodeName());
    if (!calc.Calc(context->GetInputShape(0)->GetStorageShape().GetDim(0))) {
        return ge::GRAPH_FAILED;
    }
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_OPTILING(N).Tiling(TilingN);
}
""" + op_def()


def test_an_object_holding_the_node_name_runs_its_methods() -> None:
    result = run_tiling(SRC.replace("USE", ""))
    assert_tiled(result)
    assert result.fields["rows"] == 5  # run_tiling: a 5 x 6 input


def test_reading_the_node_name_s_text_stops_the_run_saying_where() -> None:
    result = run_tiling(SRC.replace("USE", 'tiling_->same = opName_ == "N" ? 1 : 0;'))
    assert not result.succeeded
    assert any("left out" in d for d in result.diagnostics), result.diagnostics
