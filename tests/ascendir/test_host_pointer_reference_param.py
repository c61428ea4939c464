"""A host helper that sets a pointer through a reference to it (ops-nn smooth_l1_loss_v2's
`PrepareTilingInputs(context, tiling, info)`, declared `SmoothL1LossV2TilingData*& tiling`, which sets it to
GetTilingData's struct) sets the caller's variable. A pointer variable of the host lowering is a handle cell whose
reads give what it holds, so the reference was bound to the caller's nullptr and the assignment was a gap ('not a
variable'); every field written through the caller's pointer after it was one too, and the tiling failed."""

from __future__ import annotations

from tests.ascendir.host_op import assert_tiled, op_def, run_tiling

SRC = """
namespace optiling {
struct PTiling { uint32_t n; uint32_t m; };
static ge::graphStatus Prepare(gert::TilingContext* context, PTiling*& tiling, uint32_t& n)
{
    tiling = context->GetTilingData<PTiling>();
    OP_CHECK_NULL_WITH_CONTEXT(context, tiling);
    n = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    return ge::GRAPH_SUCCESS;
}
static void Finish(PTiling* tiling, uint32_t n) { tiling->m = n + 1; }
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTiling* tiling = nullptr;
    uint32_t n = 0;
    ge::graphStatus ret = Prepare(context, tiling, n);
    if (ret != ge::GRAPH_SUCCESS) {
        return ge::GRAPH_FAILED;
    }
    tiling->n = n;
    Finish(tiling, n);
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


def test_a_pointer_set_through_a_reference_parameter_is_the_callers() -> None:
    result = run_tiling(SRC, rows=5, cols=6)
    assert_tiled(result)
    assert (result.fields["n"], result.fields["m"]) == (30, 31)
