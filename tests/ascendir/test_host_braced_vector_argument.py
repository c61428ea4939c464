"""A braced list passed to a `const std::vector<T>&` parameter and walked backwards with rbegin() / rend(), and a
workspace size read back through GetWorkspaceSizes' array (ops-math grouped_bias_add_grad: its tiling key is
`ComputeTiling({dtype, performance, useUBSum, ...})`, a sum of the digits from the last, and its PostTiling
`workspaces[0] = base; workspaces[0] += ...`). Before, both were gaps ('constructing vector is not modelled',
'reading an element of size_t* is not modelled'): the key was left out and the kernel ran no template (ASC961)."""

from __future__ import annotations

from tests.ascendir.host_op import assert_tiled, op_def, run_tiling

SRC = r"""
#include <vector>
namespace optiling {
struct PTiling { uint64_t key; uint64_t byValue; uint64_t ws; };
class KeyMaker {
public:
    uint64_t Compute(const std::vector<uint32_t>& args) const
    {
        uint64_t result = 1000000UL;
        uint64_t startValue = 1;
        for (auto it = args.rbegin(); it != args.rend(); ++it) {
            result += *it * startValue;
            startValue *= 10;
        }
        return result;
    }
};
static uint64_t Count(std::vector<int64_t> v)
{
    uint64_t n = 0;
    for (auto it = v.rbegin(); it != v.rend(); ++it) {
        n = n * 100 + static_cast<uint64_t>(*it);
    }
    return n;
}
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    uint32_t a = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetDim(0));
    KeyMaker maker;
    PTiling* tiling = context->GetTilingData<PTiling>();
    tiling->key = maker.Compute({a, 2U, static_cast<uint32_t>(3)});
    tiling->byValue = Count({1, a});
    size_t* workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = 100;
    workspaces[0] += a * 2;
    tiling->ws = workspaces[0];
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


def test_a_braced_list_for_a_vector_parameter_and_a_workspace_read_back() -> None:
    result = run_tiling(SRC, rows=5)
    assert_tiled(result)
    assert result.fields["key"] == 1000000 + 5 * 100 + 2 * 10 + 3
    assert result.fields["byValue"] == 5 * 100 + 1
    assert result.fields["ws"] == 110
    assert result.workspace == {0: 110}


UNSET = r"""
namespace optiling {
struct PTiling { uint64_t ws; };
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    size_t* workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] += 16;
    PTiling* tiling = context->GetTilingData<PTiling>();
    tiling->ws = workspaces[0];
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


def test_a_workspace_size_read_before_it_is_set_stops_the_run() -> None:
    result = run_tiling(UNSET)
    assert not result.succeeded
    assert any("reads workspace size 0 before it sets it" in d for d in result.diagnostics)
