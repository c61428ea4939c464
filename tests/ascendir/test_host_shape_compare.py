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
