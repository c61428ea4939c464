"""`Ops::Base::GetCacheLineSize(context)` (op_common's platform helpers, out of reach of an op folder read alone):
the GM cache line the arch35 tilings align to, 256 bytes on every chip (ops-nn avg_pool's arch35 platform_util.h,
a copy of those helpers, returns 256U). ops-nn repeat_interleave_grad's arch35 tiling reads it into its compile
info; before, it was an undeclared identifier (ASC102). A program's own function of that name is the one called."""

from __future__ import annotations

import pytest

from ascendir.host_eval_types import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text
from tests.ascendir.host_op import assert_tiled, op_def

_SOURCE = """
#include "register/tilingdata_base.h"
#include "op_common/op_host/util/platform_util.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint32_t, lines);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
%s
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTilingData td;
    uint32_t clSize = %sGetCacheLineSize(context);
    td.set_lines(4096 / clSize);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""

_OWN = "template <typename T> inline uint32_t GetCacheLineSize(T* context) { return 128U; }"


def _lines(source: str, chip: str) -> object:
    result = evaluate_program_tiling(load_text(source + op_def(), "p.cpp"),
                                     TilingInputs([TensorSpec((4, 4), "float32")], chip=chip))
    assert_tiled(result)
    return result.fields["lines"]


@pytest.mark.parametrize("chip", ["910B2", "950PR"])
def test_the_cache_line_is_256_bytes(chip: str) -> None:
    assert _lines(_SOURCE % ("", "Ops::Base::"), chip) == 4096 // 256


def test_the_programs_own_function_is_called() -> None:
    assert _lines(_SOURCE % (_OWN, ""), "910B2") == 4096 // 128
