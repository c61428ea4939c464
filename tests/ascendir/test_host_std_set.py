"""A std::set (or std::unordered_set) of constants in host code is a table of its keys (host_std.make_set): ops-math
dot_v2 checks its input dtype with `const std::set<ge::DataType> supportedDtype = {...};` and `.count(dataType)`,
which were gaps ("'set' objects are not modelled"). count, find, `*iter` (the key), end, size (distinct keys) and
a namespace-scope unordered_set are read as a std::map's are."""

from __future__ import annotations

import pytest

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text
from tests.ascendir.host_op import assert_tiled, op_def

SRC = """
namespace optiling {
struct PTiling { uint32_t ok; uint32_t n; uint32_t key; };
static const std::unordered_set<int32_t> EVEN = {2, 4, 6};
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTiling* tiling = context->GetTilingData<PTiling>();
    const std::set<ge::DataType> supportedDtype = {ge::DT_FLOAT, ge::DT_FLOAT16};
    ge::DataType dataType = context->GetInputDesc(0)->GetDataType();
    if (supportedDtype.count(dataType) == 0) {
        return ge::GRAPH_FAILED;
    }
    std::set<ge::DataType> others{ge::DT_INT8, ge::DT_INT32, ge::DT_INT8};
    tiling->ok = others.count(dataType) == 0 ? 1 : 0;
    tiling->n = others.size();
    auto it = supportedDtype.find(dataType);
    tiling->key = (it != supportedDtype.end() ? *it : 99) + (EVEN.count(4) ? 100 : 0) + (EVEN.count(5) ? 1000 : 0);
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def().replace("{ge::DT_FLOAT}", "{ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT8}")


@pytest.mark.parametrize(("dtype", "code"), [("float32", 0), ("float16", 1)])
def test_a_set_of_constants_is_read(dtype: str, code: int) -> None:
    result = evaluate_program_tiling(load_text(SRC, "p.cpp"), TilingInputs([TensorSpec((5, 6), dtype)]))
    assert_tiled(result)
    assert (result.fields["ok"], result.fields["n"], result.fields["key"]) == (1, 2, code + 100)


def test_a_dtype_the_set_does_not_hold_fails_the_tiling() -> None:
    result = evaluate_program_tiling(load_text(SRC, "p.cpp"), TilingInputs([TensorSpec((5, 6), "int8")]))
    assert not result.succeeded and not result.gaps, result.diagnostics
