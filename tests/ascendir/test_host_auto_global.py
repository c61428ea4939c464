"""A namespace-scope `auto` variable that the host assigns (NPUKernelBench Lerp: `auto aivNum = 1;`, then
`aivNum = ascendcPlatform.GetCoreNum();` and a min with the work) takes its initialiser's type, as a local `auto`
does; it was left without a cell, every assignment to it was left out (ASC103) and the block dim stayed 1.
"""

from __future__ import annotations

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text

SOURCE = """
namespace optiling {
auto coreCount = 1;
struct CountTilingData { uint32_t cores; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    CountTilingData *t = context->GetTilingData<CountTilingData>();
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    coreCount = ascendcPlatform.GetCoreNum();
    coreCount = coreCount > 5 ? 5 : coreCount;
    t->cores = coreCount;
    context->SetBlockDim(coreCount);
    return ge::GRAPH_SUCCESS;
}
}
"""


def test_an_auto_global_is_assigned() -> None:
    result = evaluate_program_tiling(load_text(SOURCE, "count_tiling.cpp"),
                                     TilingInputs([TensorSpec((8,), "float32")], chip="910_93"))
    assert result.succeeded and not result.gaps, result.diagnostics
    assert result.fields == {"cores": 5} and result.block_dim == 5
