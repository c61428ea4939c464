"""`memcpy_s(&u32, sizeof(float), &f32, sizeof(float))` in host tiling code: the float's bits into a uint32 tiling
field (ops-nn deep_norm's arch22 tiling stores eps, 1 / numCol and alpha so). Before, the call was left out
("memcpy is modelled only for copying a tiling struct") and the field read an unset value (ASC602)."""

from __future__ import annotations

import struct

import pytest

from tests.ascendir.host_op import OP_DEF, run_tiling

SOURCE = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint32_t, invBits);
TILING_DATA_FIELD_DEF(uint32_t, status);
TILING_DATA_FIELD_DEF(int32_t, roundTrip);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTilingData td;
    float inv = 1.0f / static_cast<float>(context->GetInputShape(0)->GetStorageShape().GetDim(1));
    uint32_t bits;
    td.set_status(memcpy_s(&bits, sizeof(float), &inv, sizeof(float)));
    td.set_invBits(bits);
    float back;
    memcpy(&back, &bits, sizeof(back));
    td.set_roundTrip(static_cast<int32_t>(1.0f / back));
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + OP_DEF


@pytest.mark.parametrize("cols", [3, 64])
def test_memcpy_of_a_float_into_a_uint32(cols: int) -> None:
    result = run_tiling(SOURCE, rows=2, cols=cols)
    assert result.succeeded, result.diagnostics
    assert [d for d in result.diagnostics if "warning" in d or "error" in d] == [], result.diagnostics
    assert result.fields["invBits"] == struct.unpack("<I", struct.pack("<f", 1.0 / cols))[0]
    assert result.fields["status"] == 0
    assert result.fields["roundTrip"] == cols


def test_memset_s_returns_eok() -> None:
    """securec's `memset_s(...) != EOK` check (deep_norm's arch35 tiling): EOK is 0 and memset_s returns it.
    Before, EOK was an undeclared identifier (ASC102) and memset_s returned void."""
    source = SOURCE.replace("    PTilingData td;\n", "    PTilingData td;\n"
                            "    if (memset_s(&td, sizeof(td), 0, sizeof(td)) != EOK) { return ge::GRAPH_FAILED; }\n")
    result = run_tiling(source, rows=2, cols=4)
    assert result.succeeded, result.diagnostics
    assert [d for d in result.diagnostics if "warning" in d or "error" in d] == [], result.diagnostics
