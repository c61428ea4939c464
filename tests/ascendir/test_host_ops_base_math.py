"""ops-base's integer helpers Ops::Base::FloorDiv / FloorAlign / CeilDiv / CeilAlign in host tiling code (ops-nn
deep_norm's arch35 tiling: `rowPerCore = CeilDiv(numRow, coreNum)`). Before, the call was left out as "not
modelled" and the check that reads its result stopped the tiling (ASC602). Expected values follow the header's
definitions (hicann/opbase include/op_common/op_host/util/math_util.h), zero operands and signs included."""

from __future__ import annotations

import pytest

from ascendir.host_eval_types import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text
from tests.ascendir.host_op import op_def

SOURCE = """
#include "register/tilingdata_base.h"
using Ops::Base::CeilDiv;
namespace optiling {
BEGIN_TILING_DATA_DEF(MTilingData)
TILING_DATA_FIELD_DEF(int64_t, ceilDiv);
TILING_DATA_FIELD_DEF(int64_t, ceilDivNeg);
TILING_DATA_FIELD_DEF(int64_t, ceilAlign);
TILING_DATA_FIELD_DEF(int64_t, floorDiv);
TILING_DATA_FIELD_DEF(int64_t, floorAlign);
TILING_DATA_FIELD_DEF(uint64_t, ceilDivU);
TILING_DATA_FIELD_DEF(uint64_t, ceilAlignU);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, MTilingData)
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    MTilingData td;
    int64_t x = context->GetInputShape(0)->GetStorageShape().GetDim(0);
    int64_t y = context->GetInputShape(0)->GetStorageShape().GetDim(1);
    td.set_ceilDiv(CeilDiv(x, y));
    td.set_ceilDivNeg(CeilDiv(-x, y));
    td.set_ceilAlign(Ops::Base::CeilAlign(x, y));
    td.set_floorDiv(Ops::Base::FloorDiv(x, y));
    td.set_floorAlign(Ops::Base::FloorAlign<int64_t>(x, y));
    td.set_ceilDivU(CeilDiv(static_cast<uint64_t>(x), static_cast<uint64_t>(y)));
    td.set_ceilAlignU(Ops::Base::CeilAlign(static_cast<uint64_t>(x), static_cast<uint64_t>(y)));
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


@pytest.mark.parametrize(("x", "y", "want"), [
    # (ceilDiv, ceilDivNeg, ceilAlign, floorDiv, floorAlign): a zero divisor gives x (the divisions) and 0 (aligns)
    (7, 2, (4, -3, 8, 3, 6)),
    (8, 2, (4, -4, 8, 4, 8)),
    (7, 0, (7, -7, 0, 7, 0)),
    (0, 5, (0, 0, 0, 0, 0)),
    (1, 64, (1, 0, 64, 0, 0)),
])
def test_ops_base_math(x: int, y: int, want: tuple[int, ...]) -> None:
    result = evaluate_program_tiling(load_text(SOURCE, "m.cpp"),
                                     TilingInputs([TensorSpec((x, y), "float32")], chip="910B2"))
    assert result.succeeded, result.diagnostics
    assert [d for d in result.diagnostics if "error" in d] == [], result.diagnostics
    got = tuple(result.fields[f] for f in ("ceilDiv", "ceilDivNeg", "ceilAlign", "floorDiv", "floorAlign"))
    assert got == want
    assert result.fields["ceilDivU"] == want[0]
    assert result.fields["ceilAlignU"] == want[2]


U16 = SOURCE.replace("TILING_DATA_FIELD_DEF(int64_t, ceilDiv);", "TILING_DATA_FIELD_DEF(int64_t, ceilDiv);\n"
                     "TILING_DATA_FIELD_DEF(int64_t, ceilAlign16);").replace(
    "    td.set_ceilDiv(CeilDiv(x, y));",
    "    td.set_ceilDiv(CeilDiv(x, y));\n"
    "    uint16_t a = x;\n    uint16_t b = y;\n    td.set_ceilAlign16(Ops::Base::CeilAlign(a, b));")


def test_two_uint16_operands_make_a_uint16_t() -> None:
    # T is deduced from the operands, uint16_t, not the int their arithmetic promotes to: 65535 aligned up to 2
    # passes the largest uint16_t, which the header returns instead (65536 when T was taken as int)
    result = evaluate_program_tiling(load_text(U16, "m.cpp"),
                                     TilingInputs([TensorSpec((65535, 2), "float32")], chip="910B2"))
    assert result.succeeded, result.diagnostics
    assert result.fields["ceilAlign16"] == 65535
