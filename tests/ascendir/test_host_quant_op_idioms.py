"""Host idioms of ops-nn's quantisation ops (ascend_quant_v2's 910B tiling, which returned GRAPH_FAILED or stopped
at a gap before each was modelled):

- a tiling class named like the OpDef (`ops::AscendQuantV2` and `optiling::ascendquantv2::AscendQuantV2`): its
  out-of-class method definitions belong to the class of the namespace they are written in (they were attached
  to the OpDef class: "'DoTiling' is declared but never defined");
- `desc->GetFormat().GetStorageFormat()`: the format of a tensor description (was "method 'GetStorageFormat'
  called on a value of type int32_t");
- a helper returning one of two gert::Shapes under an `if` (ops-nn's EnsureNotScalar) (was "assigning
  'EnsureNotScalar_result' (a gert::Shape) under control flow is not modelled");
- `std::string s = attrs->GetAttrPointer<char>(i);` then `s == "round"` compares the text (was "comparing a
  'const char*' attribute with a string literal compares addresses");
- an OpDef attribute default written as a ge enumerator, `.Int(ge::DT_INT8)`, and an attribute declared twice
  (the attribute defaults stopped at the first and the tiling read dst_type as absent);
- `context->GetWorkspaceNum()`, the count the last GetWorkspaceSizes(n) set (ops-nn dynamic_quant checks it is
  positive; it was "no member named 'GetWorkspaceNum' in 'gert::TilingContext'", ASC100)."""

from __future__ import annotations

from ascendir.host_eval_types import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.opdef_attrs import attr_defaults, with_defaults
from frontend.pipeline import load_text

SOURCE = """
#include "register/tilingdata_base.h"
// the OpDef first: its class P is collected before the tiling class pq::P
namespace ops {
class P : public OpDef {
public:
    explicit P(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_INT8}).Format({ge::FORMAT_ND});
        this->Attr("round_mode").AttrType(OPTIONAL).String("round");
        this->Attr("dst_type").AttrType(OPTIONAL).Int(ge::DT_INT8);
        this->AICore().SetTiling(optiling::TilingP);
        this->AICore().AddConfig("ascend910b");
        this->Attr("round_mode").AttrType(OPTIONAL).String("round");
        this->Attr("dst_type").AttrType(OPTIONAL).Int(ge::DT_INT8);
    }
};
OP_ADD(P);
}
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(int64_t, dims);
TILING_DATA_FIELD_DEF(int64_t, format);
TILING_DATA_FIELD_DEF(int64_t, rounding);
TILING_DATA_FIELD_DEF(int64_t, dstType);
TILING_DATA_FIELD_DEF(int64_t, workspaces);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
static const gert::Shape g_vec_1_shape = {1};
namespace pq {
class P {
public:
    explicit P(gert::TilingContext* context) : context_(context) {}
    ge::graphStatus DoTiling();
private:
    const gert::Shape& EnsureNotScalar(const gert::Shape& inShape);
    int64_t Rounding(std::string& mode);
    gert::TilingContext* context_;
};

const gert::Shape& P::EnsureNotScalar(const gert::Shape& inShape)
{
    if (inShape.IsScalar()) {
        return g_vec_1_shape;
    }
    return inShape;
}

int64_t P::Rounding(std::string& mode)
{
    if (mode == "floor") {
        return 2;
    } else if (mode == "round") {
        return 1;
    }
    return 0;
}

ge::graphStatus P::DoTiling()
{
    PTilingData td;
    const gert::Shape& xShape = EnsureNotScalar(context_->GetInputShape(0)->GetStorageShape());
    td.set_dims(xShape.GetDimNum());
    td.set_format(context_->GetInputDesc(0)->GetFormat().GetStorageFormat());
    auto* attrs = context_->GetAttrs();
    const char* roundMode = attrs->GetAttrPointer<char>(0);
    std::string roundModeStr = roundMode;
    td.set_rounding(Rounding(roundModeStr));
    const int32_t* dstType = attrs->GetAttrPointer<int32_t>(1);
    if (dstType == nullptr) {
        return ge::GRAPH_FAILED;
    }
    td.set_dstType(*dstType);
    size_t* ws = context_->GetWorkspaceSizes(1);
    if (ws == nullptr || context_->GetWorkspaceNum() <= 0) {
        return ge::GRAPH_FAILED;
    }
    ws[0] = 1024;
    td.set_workspaces(context_->GetWorkspaceNum());
    td.SaveToBuffer(context_->GetRawTilingData()->GetData(), context_->GetRawTilingData()->GetCapacity());
    context_->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context_->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}  // namespace pq

static ge::graphStatus TilingP(gert::TilingContext* context)
{
    pq::P tiling(context);
    return tiling.DoTiling();
}
}  // namespace optiling

"""


def _fields(shape: tuple[int, ...], attrs: list[object] | None = None) -> dict[str, object]:
    program = load_text(SOURCE, "p/op_host/p_tiling.cpp")
    given = with_defaults(program.bundle, attrs or [])
    result = evaluate_program_tiling(program, TilingInputs([TensorSpec(shape, "float32")], attrs=given))
    assert result.succeeded, result.diagnostics
    assert result.diagnostics == [] and not result.gaps, result.diagnostics
    return result.fields


def test_the_attribute_defaults_read_ge_enumerators_and_a_repeated_declaration_once() -> None:
    program = load_text(SOURCE, "p/op_host/p_tiling.cpp")
    assert attr_defaults(program.bundle) == [("round_mode", "round"), ("dst_type", 2)]


def test_the_tiling_class_named_like_the_opdef_runs_its_own_methods() -> None:
    fields = _fields((4, 8))
    assert fields["dims"] == 2
    assert fields["format"] == 2  # ge::FORMAT_ND
    assert fields["rounding"] == 1  # "round", compared as text
    assert fields["dstType"] == 2  # ge::DT_INT8, the OpDef's default
    assert fields["workspaces"] == 1  # GetWorkspaceNum: the count GetWorkspaceSizes(1) set


def test_a_scalar_input_takes_the_other_returned_shape_and_the_text_is_compared() -> None:
    fields = _fields((), ["floor", 3])
    assert fields["dims"] == 1  # EnsureNotScalar's {1}
    assert fields["rounding"] == 2
    assert fields["dstType"] == 3
