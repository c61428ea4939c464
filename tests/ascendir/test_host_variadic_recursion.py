"""A variadic function template calling itself on fewer arguments, in host code: each call is another
instantiation, and the pack's shrinking ends the recursion (ops-nn common/inc/op_host/tiling_key.h's
`RecursiveSum(T id, Args... ids) = id + 10 * RecursiveSum(ids...)`, which embedding_dense_grad_v2 builds its tiling
key with). Before, any call of a function already being inlined was 'recursive call ... is not modelled' (ASC103)
and the tiling key read the gap (ASC602). A call on as many arguments is still reported."""

from __future__ import annotations

from tests.ascendir.host_op import assert_tiled, op_def, run_tiling

SOURCE = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
constexpr uint64_t Digits() { return 0; }
template <typename T, typename... Args>
constexpr uint64_t Digits(T first, Args... rest)
{
    const int base = 10;
    return static_cast<uint64_t>(first) + base * Digits(rest...);
}
%s
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    uint32_t rows = context->GetInputShape(0)->GetStorageShape().GetDim(0);
    PTilingData td;
    td.set_rows(rows);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetTilingKey(%s);
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def test_a_pack_shrinking_on_each_call_is_unrolled() -> None:
    result = run_tiling(SOURCE % ("", "Digits(rows > 4, 0, true, 3)") + op_def(), 5, 6)
    assert_tiled(result)
    assert result.tiling_key == 3101


def test_a_call_on_as_many_arguments_is_still_recursion() -> None:
    loop = "uint64_t Loop(uint64_t n) { return n == 0 ? 0 : Loop(n - 1); }"
    result = run_tiling(SOURCE % (loop, "Loop(rows)") + op_def(), 5, 6)
    assert any("recursive call of 'Loop' is not modelled" in d for d in result.diagnostics), result.diagnostics
