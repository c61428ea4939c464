"""GCC's count-leading-zeros builtins in host tiling code: ops-nn add_rms_norm's arch35 tiling finds the largest
power of two <= numColAlign as `1L << (63 - __builtin_clzl(numColAlign))`. Before, `__builtin_clzl` was an
undeclared identifier (ASC102) and the tiling stopped."""

from __future__ import annotations

import pytest

from ascendir.host_eval_types import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text
from tests.ascendir.host_op import op_def

SOURCE = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint64_t, pow2);
TILING_DATA_FIELD_DEF(uint32_t, clz32);
TILING_DATA_FIELD_DEF(uint32_t, clz64);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTilingData td;
    uint64_t n = context->GetInputShape(0)->GetStorageShape().GetDim(1);
    td.set_pow2(n == 0 ? 1 : (1L << (64 - 1 - __builtin_clzl(n))));
    td.set_clz32(__builtin_clz(static_cast<uint32_t>(n)));
    td.set_clz64(__builtin_clzll(n));
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


@pytest.mark.parametrize(("cols", "pow2", "clz32"), [(1, 1, 31), (64, 64, 25), (100, 64, 25), (4097, 4096, 19)])
def test_clz_builtins(cols: int, pow2: int, clz32: int) -> None:
    result = evaluate_program_tiling(load_text(SOURCE, "p.cpp"),
                                     TilingInputs([TensorSpec((4, cols), "float32")], chip="910B2"))
    assert result.succeeded, result.diagnostics
    assert [d for d in result.diagnostics if "error" in d] == [], result.diagnostics
    assert result.fields["pow2"] == pow2
    assert result.fields["clz32"] == clz32
    assert result.fields["clz64"] == clz32 + 32
