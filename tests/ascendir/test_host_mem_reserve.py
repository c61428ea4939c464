"""PlatformAscendC::GetCoreMemSize reports UB and L1 less the 256 bytes the library keeps back for its matmul
server on the 910B family (the 910_93 included; asc-devkit platform_ascendc.cpp, LOCAL_RESERV_SIZE), while the
fe::PlatFormInfos getter reports the whole memory. NPUKernelBench's Arange sizes ten units of UB/10 from the first:
with the whole 196608 bytes its buffers overran UB by 288 bytes (ASC951).
"""

from __future__ import annotations

import pytest

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text

SOURCE = """
namespace optiling {
struct MemTilingData { uint64_t ub; uint64_t l1; uint64_t l0c; uint64_t whole; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    MemTilingData *t = context->GetTilingData<MemTilingData>();
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0, l1 = 0, l0c = 0, whole = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::L1, l1);
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, l0c);
    context->GetPlatformInfo()->GetLocalMemSize(fe::LocalMemType::UB, whole);
    t->ub = ub;
    t->l1 = l1;
    t->l0c = l0c;
    t->whole = whole;
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


@pytest.mark.parametrize("chip", ["910_93", "910B2", "910B3"])
def test_the_910b_family_keeps_256_bytes_of_ub_and_l1(chip: str) -> None:
    result = evaluate_program_tiling(load_text(SOURCE, "mem_tiling.cpp"),
                                     TilingInputs([TensorSpec((8,), "float32")], chip=chip))
    assert result.succeeded and not result.gaps, result.diagnostics
    assert result.fields == {"ub": 196608 - 256, "l1": 524288 - 256, "l0c": 131072, "whole": 196608}
