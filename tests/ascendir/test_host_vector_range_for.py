"""A range-for over a run-time std::vector in host code (ops-nn avg_pool3_d's FindDivisorWindowNum: divisors
gathered with push_back, then `for (auto w : divisors)` picks the largest that fits). Before, the loop was a gap
('rangefor statements are not supported') and the tiling field set from its result stopped the run."""

from __future__ import annotations

import pytest

from tests.ascendir.host_op import assert_tiled, op_def, run_tiling

SRC = r"""
#include <vector>
#include <cmath>
namespace optiling {
struct PTiling { uint64_t best; uint64_t sum; };
static inline uint64_t FindDivisor(uint64_t len, uint64_t limit)
{
    std::vector<uint64_t> divisors;
    uint64_t best = 0;
    for (uint64_t i = 1; i <= static_cast<uint64_t>(std::sqrt(len)) + 1; ++i) {
        if (len % i == 0) {
            divisors.push_back(i);
            if (i != len / i) {
                divisors.push_back(len / i);
            }
        }
    }
    for (auto w : divisors) {
        if (w <= limit && best < w) {
            best = w;
        }
    }
    return best;
}
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    uint64_t n = static_cast<uint64_t>(context->GetInputShape(0)->GetStorageShape().GetDim(0));
    PTiling* tiling = context->GetTilingData<PTiling>();
    tiling->best = FindDivisor(n, 10);
    std::vector<uint64_t> v;
    v.push_back(n);
    v.push_back(3);
    v.push_back(n + 1);
    uint64_t s = 0;
    for (const auto& x : v) {
        if (x == 3) {
            continue;
        }
        s += x;
    }
    tiling->sum = s;
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


@pytest.mark.parametrize("n, best", [(36, 9), (49, 7), (13, 1), (20, 10)])
def test_a_range_for_over_a_runtime_vector(n: int, best: int) -> None:
    result = run_tiling(SRC, rows=n)
    assert_tiled(result)
    assert result.fields == {"best": best, "sum": 2 * n + 1}


WRITES = r"""
#include <vector>
namespace optiling {
struct PTiling { uint64_t first; };
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    std::vector<uint64_t> v;
    v.push_back(1);
    for (auto& x : v) {
        x = 5;
    }
    PTiling* tiling = context->GetTilingData<PTiling>();
    tiling->first = v[0];
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


def test_writing_elements_through_the_loop_variable_is_a_gap() -> None:
    result = run_tiling(WRITES)
    assert any("writes its elements through the loop variable" in str(d) for d in result.gaps)
