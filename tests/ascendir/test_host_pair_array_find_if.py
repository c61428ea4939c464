"""A `std::array<std::pair<A, B>, N>` of constants searched with `std::find_if` (ops-math erf's tile-size table:
the first entry whose bound holds for the input size, read through `it->second`). Before: 'array' objects and
std::find_if were gaps, the tile size a value left out, and the tiling failed (ASC602)."""

from __future__ import annotations

import pytest

from tests.ascendir.host_op import assert_tiled, op_def, run_tiling

SRC = """
#include <array>
#include <algorithm>
namespace optiling {
struct PTiling { uint32_t tile; uint32_t bound; uint32_t count; };
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    uint64_t n = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    constexpr std::array<std::pair<uint32_t, uint32_t>, 4> table = {{
        {16, 8},
        {64, 32},
        {256, 128},
        {UINT32_MAX, 1024}
    }};
    auto it = std::find_if(table.begin(), table.end(),
        [n](const auto& entry) { return n <= entry.first; });
    PTiling* tiling = context->GetTilingData<PTiling>();
    tiling->tile = it->second;
    tiling->bound = it->first;
    tiling->count = static_cast<uint32_t>(table.size());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


@pytest.mark.parametrize("rows, cols, tile, bound", [
    (2, 3, 8, 16),          # 6 elements: the first entry
    (4, 16, 32, 64),        # 64: a bound that holds with equality
    (5, 40, 128, 256),      # 200
    (100, 100, 1024, 2**32 - 1),   # past every bound but the last
])
def test_find_if_over_an_array_of_pairs(rows: int, cols: int, tile: int, bound: int) -> None:
    result = run_tiling(SRC, rows=rows, cols=cols)
    assert_tiled(result)
    assert (result.fields["tile"], result.fields["bound"], result.fields["count"]) == (tile, bound, 4)
