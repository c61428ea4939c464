"""TilingContext::SetLocalMemorySize (renamed SetDynUBufSize): the UB bytes a SIMT kernel takes as dynamic unified
buffer, 0 unless set (CANN's TilingContext reference). ops-transformer moe_init_routing's PostTiling sets it to the
chip's UB size (minus a SIMT reserve on the 950). Before, "no member named 'SetLocalMemorySize'" (ASC100) stopped
the tiling."""

from __future__ import annotations

from tests.ascendir.host_op import OP_DEF, run_tiling

SOURCE = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint32_t, before);
TILING_DATA_FIELD_DEF(uint32_t, after);
TILING_DATA_FIELD_DEF(uint32_t, status);
TILING_DATA_FIELD_DEF(uint64_t, ub);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTilingData td;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    td.set_ub(ubSize);
    td.set_before(context->GetLocalMemorySize());
    td.set_status(context->SetLocalMemorySize(ubSize - 40960));
    td.set_after(context->GetDynUBufSize());
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + OP_DEF


def test_set_local_memory_size_is_kept() -> None:
    result = run_tiling(SOURCE)
    assert result.succeeded, result.diagnostics
    assert [d for d in result.diagnostics if "warning" in d or "error" in d] == [], result.diagnostics
    ub = result.fields["ub"]
    assert ub > 40960
    assert result.fields == {"ub": ub, "before": 0, "after": ub - 40960, "status": 0}
    assert result.local_memory_size == ub - 40960


def test_local_memory_size_is_zero_when_not_set() -> None:
    result = run_tiling(SOURCE.replace("td.set_status(context->SetLocalMemorySize(ubSize - 40960));", ""))
    assert result.succeeded, result.diagnostics
    assert result.fields["after"] == 0
    assert result.local_memory_size == 0
