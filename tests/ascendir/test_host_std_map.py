"""Host tiling functions that look values up in a `std::map` built from a list of constant entries (NPUKernelBench's
GeGluGradV2: `static const map<ge::DataType, int32_t>` and `find(dtype)->second`; InplaceFusedMatmulSoftmaxGrad:
a non-const namespace-scope `std::map` read with `operator[]`). The lookups run per case dtype."""

from __future__ import annotations

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text

TABLES = """
namespace optiling {
static const std::map<ge::DataType, int32_t> BUF_CNT = {
    {ge::DT_BF16, 7}, {ge::DT_FLOAT16, 6}, {ge::DT_FLOAT, 4}};
std::map<const ge::DataType, const uint32_t> typeLen = {{ge::DT_FLOAT16, 2}, {ge::DT_BF16, 2}, {ge::DT_FLOAT, 4}};
struct MapTilingData { uint32_t bufCnt; uint32_t len; uint32_t known; uint32_t size; uint32_t fixed; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    MapTilingData *t = context->GetTilingData<MapTilingData>();
    const ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    const auto iter = BUF_CNT.find(dtype);
    if (iter == BUF_CNT.end()) {
        return ge::GRAPH_FAILED;
    }
    t->bufCnt = iter->second;
    t->len = typeLen[dtype];
    t->known = BUF_CNT.count(dtype) + (typeLen.find(ge::DT_INT8) != typeLen.end() ? 10 : 0);
    t->size = BUF_CNT.size();
    t->fixed = BUF_CNT.at(ge::DT_FLOAT);
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def run(dtype: str):
    return evaluate_program_tiling(load_text(TABLES, "tables.cpp"), TilingInputs([TensorSpec((4, 8), dtype)]))


def test_lookups_follow_the_case_dtype() -> None:
    for dtype, count, length in (("float16", 6, 2), ("bfloat16", 7, 2), ("float32", 4, 4)):
        result = run(dtype)
        assert result.diagnostics == []
        assert result.succeeded and not result.gaps
        assert result.fields == {"bufCnt": count, "len": length, "known": 1, "size": 3, "fixed": 4}


def test_a_missing_key_takes_the_end_branch() -> None:
    result = run("int32")
    assert not result.gaps
    assert not result.succeeded  # find missed: the function returns GRAPH_FAILED


def test_changing_a_table_is_reported() -> None:
    source = TABLES.replace("const auto iter = BUF_CNT.find(dtype);",
                            "typeLen.insert({ge::DT_INT8, 1}); const auto iter = BUF_CNT.find(dtype);")
    result = evaluate_program_tiling(load_text(source, "tables.cpp"), TilingInputs([TensorSpec((4, 8), "float16")]))
    assert any("insert" in g.message for g in result.gaps)


FIND = """
namespace optiling {
static const std::vector<ge::DataType> X_DTYPES = {ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_INT32};
struct FindTilingData { uint32_t supported; uint32_t count; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    FindTilingData *t = context->GetTilingData<FindTilingData>();
    const ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    t->supported = std::find(X_DTYPES.begin(), X_DTYPES.end(), dtype) != X_DTYPES.end() ? 1 : 0;
    t->count = X_DTYPES.size();
    if (std::find(X_DTYPES.begin(), X_DTYPES.end(), dtype) == X_DTYPES.end()) {
        return ge::GRAPH_FAILED;
    }
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def test_find_in_a_constant_vector() -> None:
    program = load_text(FIND, "find.cpp")
    result = evaluate_program_tiling(program, TilingInputs([TensorSpec((4,), "int32")]))
    assert result.diagnostics == [] and not result.gaps
    assert result.succeeded and result.fields == {"supported": 1, "count": 3}
    assert not evaluate_program_tiling(program, TilingInputs([TensorSpec((4,), "int8")])).succeeded
