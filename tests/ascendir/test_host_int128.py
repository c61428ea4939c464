"""GCC's `__int128` / `unsigned __int128` in host code (ops-nn quant_batch_matmul_v3's arch35 stream-K tiling
widens `static_cast<unsigned __int128>(value) * numerator / denominator`): the word is a builtin type to the
parser (before: ASC001, the whole host stopped parsing) and a 128-bit integer to the host lowering, so the
product does not wrap at 64 bits."""

from __future__ import annotations

from frontend import ast as A
from frontend.pipeline import load_text
from tests.ascendir.host_op import assert_tiled, op_def, run_tiling

SOURCE = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint64_t, scaled);
TILING_DATA_FIELD_DEF(uint64_t, wrapped);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
static uint64_t Scale(uint64_t value, uint64_t numerator, uint64_t denominator)
{
    auto result = static_cast<unsigned __int128>(value) * numerator / denominator;
    return static_cast<uint64_t>(result);
}
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    uint64_t rows = context->GetInputShape(0)->GetStorageShape().GetDim(0);
    uint64_t big = rows << 60;
    PTilingData td;
    td.set_scaled(Scale(big, 1000UL, 1000UL));
    td.set_wrapped(big * 1000UL / 1000UL);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


def test_int128_parses_as_a_builtin_type() -> None:
    program = load_text(SOURCE, "p.cpp")
    assert program.diagnostics == []
    bases = {n.base for n in program.units[0].ast.walk() if isinstance(n, A.TypeRef) and isinstance(n.base, str)}
    assert "unsigned __int128" in bases


def test_a_product_widened_to_128_bits_does_not_wrap() -> None:
    result = run_tiling(SOURCE, 5, 4)
    assert_tiled(result)
    big = 5 << 60
    assert result.fields == {"scaled": big, "wrapped": (big * 1000 % 2**64) // 1000}
