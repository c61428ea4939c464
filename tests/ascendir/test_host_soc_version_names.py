"""Every platform_ascendc::SocVersion enumerator names its number (asc-devkit platform_ascendc.h), not only the
chips the simulator models: ops-nn situ_glu's IsCapable compares GetSocVersion() with ASCEND910_93, ASCEND910B and
ASCEND950, and ASCEND910_93 was unknown, so the whole condition was left out and the tiling stopped (ASC602, a
left-out value used). The enumerators after `ASCEND910_95 = ASCEND950` count on from 4, as C++ numbers them."""

from __future__ import annotations

import pytest

from tests.ascendir.host_op import OP_DEF, assert_tiled, run_tiling

HOST = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint32_t, capable);
TILING_DATA_FIELD_DEF(uint32_t, value);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    platform_ascendc::SocVersion soc = platform.GetSocVersion();
    PTilingData td;
    td.set_capable(soc != platform_ascendc::SocVersion::ASCEND910_93 && soc != platform_ascendc::SocVersion::NAME
                   ? 0 : 1);
    td.set_value(static_cast<uint32_t>(platform_ascendc::SocVersion::NAME));
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + OP_DEF


@pytest.mark.parametrize(("name", "value", "capable"), [
    ("ASCEND910B", 1, 1),  # the 910B2 the run tiles for reports ASCEND910B
    ("ASCEND950", 4, 0),
    ("AS31XM1", 5, 0),  # after ASCEND910_95 = ASCEND950: 5, as ASCEND910_55 is
    ("ASCEND910_93", 11, 0),
    ("KIRIN9030", 20, 0),
    ("ASCEND350", 22, 0),
])
def test_each_soc_version_enumerator_has_its_number(name: str, value: int, capable: int) -> None:
    result = run_tiling(HOST.replace("NAME", name))
    assert_tiled(result)
    assert result.fields == {"capable": capable, "value": value}
