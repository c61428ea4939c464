"""`std::find_if(first, last, pred)` compared with `end()` over a std::vector, a constant one (unrolled) or one
filled at run time (a loop), and the position it finds (`it - v.begin()`). Before, find_if was modelled over an array
of std::pair only: 'std::find_if is modelled over an array of std::pair only' (ASC103) and the fields it set were
left out."""

from __future__ import annotations

import pytest

from tests.ascendir.host_op import assert_tiled, op_def, run_tiling

SRC = r"""
#include <vector>
#include <algorithm>
namespace optiling {
struct PTiling { int32_t supported; int32_t found; int32_t at; };
static const std::vector<int64_t> SUPPORTED = {2, 4, 8};
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    int64_t n = context->GetInputShape(0)->GetStorageShape().GetDim(0);
    PTiling* tiling = context->GetTilingData<PTiling>();
    auto hit = std::find_if(SUPPORTED.begin(), SUPPORTED.end(), [n](int64_t v) { return v == n; });
    tiling->supported = hit != SUPPORTED.end() ? 1 : 0;
    std::vector<int64_t> dims;
    dims.push_back(n);
    dims.push_back(7);
    auto it = std::find_if(dims.begin(), dims.end(), [](int64_t v) { return v > 6; });
    tiling->found = it != dims.end() ? 1 : 0;
    tiling->at = it == dims.end() ? -1 : static_cast<int32_t>(it - dims.begin());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


@pytest.mark.parametrize("n, supported, at", [(4, 1, 1), (5, 0, 1), (9, 0, 0)])
def test_find_if_compared_with_end(n: int, supported: int, at: int) -> None:
    result = run_tiling(SRC, rows=n)
    assert_tiled(result)
    assert result.fields == {"supported": supported, "found": 1, "at": at}
