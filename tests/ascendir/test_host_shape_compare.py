"""`gert::Shape == gert::Shape` in host tiling functions (NPUKernelBench's GeGluGradV2 checks
`dyShape != geluShape || tempShape != xShape`, ReverseSequence `yShape != xShape_`): equal when the ranks and
every dim are."""

from __future__ import annotations

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text

COMPARE = """
namespace optiling {
struct CmpTilingData { uint32_t same; uint32_t doubled; uint32_t differ; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    CmpTilingData *t = context->GetTilingData<CmpTilingData>();
    const gert::Shape &a = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape &b = context->GetInputShape(1)->GetStorageShape();
    gert::Shape twice = a;
    twice.SetDim(1, 2 * a.GetDim(1));
    t->same = (a == b) ? 1 : 0;
    t->doubled = twice == b ? 1 : 0;
    t->differ = a != b;
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def fields(a: tuple[int, ...], b: tuple[int, ...]) -> dict:
    inputs = TilingInputs([TensorSpec(a, "float32"), TensorSpec(b, "float32")])
    result = evaluate_program_tiling(load_text(COMPARE, "compare.cpp"), inputs)
    assert result.diagnostics == []
    assert result.succeeded and not result.gaps
    return result.fields


def test_shapes_compare_by_rank_and_dims() -> None:
    assert fields((3, 4), (3, 4)) == {"same": 1, "doubled": 0, "differ": 0}
    assert fields((3, 4), (3, 8)) == {"same": 0, "doubled": 1, "differ": 1}
    assert fields((3, 4), (3, 4, 1)) == {"same": 0, "doubled": 0, "differ": 1}  # same leading dims, rank differs


MEMBER = """
namespace optiling {
struct MemberTilingData { uint32_t rank; uint32_t last; uint32_t same; };
class MemberTiling {
public:
    explicit MemberTiling(gert::TilingContext *context) : context_(context) {}
    ge::graphStatus Run() {
        auto desc = context_->GetOptionalInputDesc(1);  // present or not at run time
        if (desc == nullptr) {
            const char *name = (context_->GetNodeName() == nullptr) ? "nil" : context_->GetNodeName();
            return ge::GRAPH_FAILED;
        }
        auto xPtr = context_->GetInputShape(0);
        if (xPtr->GetStorageShape().GetDimNum() == 0) {
            return ge::GRAPH_FAILED;
        }
        xShape_ = xPtr->GetStorageShape();  // a data member, assigned after an early return
        yShape_ = context_->GetInputShape(1)->GetStorageShape();
        MemberTilingData *t = context_->GetTilingData<MemberTilingData>();
        t->rank = xShape_.GetDimNum();
        t->last = xShape_.GetDim(xShape_.GetDimNum() - 1);
        t->same = xShape_ == yShape_ ? 1 : 0;
        context_->SetBlockDim(1);
        return ge::GRAPH_SUCCESS;
    }
private:
    gert::TilingContext *context_;
    gert::Shape xShape_;
    gert::Shape yShape_;
};
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    MemberTiling tiling(context);
    return tiling.Run();
}
}
"""


def test_a_shape_data_member_assigned_under_control_flow() -> None:
    inputs = TilingInputs([TensorSpec((2, 3, 7), "float32"), TensorSpec((2, 3, 7), "float32")])
    result = evaluate_program_tiling(load_text(MEMBER, "member.cpp"), inputs)
    assert result.diagnostics == []
    assert result.succeeded and not result.gaps
    assert result.fields == {"rank": 3, "last": 7, "same": 1}
