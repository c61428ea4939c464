"""Iterators of std::vectors and the <algorithm> calls over them in host tiling code (issue 29, session 13):
ops-nn mat_mul_v3's OpSpecificCheck builds `std::vector<ge::DataType> dtype = {a, b, c}`, pushes the bias dtype
under `if (hasBias)`, and a lambda taking it by const reference walks a `std::vector<std::vector<ge::DataType>>`
table of supported combinations with a range-for and `std::equal(v.begin(), v.end(), row.begin())`. Before: a
vector of an enum was not modelled ('push_back' on 'vector'), nor a vector of vectors, nor the iterators of a
run-time vector ('std::equal' not modelled), so the check was a gap and the tiling stopped there."""

from __future__ import annotations

import pytest

from tests.ascendir.host_op import assert_tiled, op_def, run_tiling

DTYPE_CHECK = """
namespace optiling {
struct PTiling { uint32_t ok; uint32_t n; };
struct Args { ge::DataType aType; ge::DataType cType; ge::DataType biasType; bool hasBias; };
static ge::graphStatus Check(const Args& args, uint32_t& n)
{
    std::vector<ge::DataType> dtype = {args.aType, args.aType, args.cType};
    if (args.hasBias) {
        dtype.push_back(args.biasType);
    }
    n = dtype.size();
    auto isValidDtype = [&args](const std::vector<ge::DataType>& dtypeList) -> ge::graphStatus {
        const std::vector<std::vector<ge::DataType>> supported = {
            {ge::DT_FLOAT16, ge::DT_FLOAT16, ge::DT_FLOAT16, ge::DT_FLOAT16},
            {ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT},
            {ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_BF16, ge::DT_BF16}};
        for (auto& row : supported) {
            if (std::equal(dtypeList.begin(), dtypeList.end(), row.begin())) {
                return ge::GRAPH_SUCCESS;
            }
        }
        return ge::GRAPH_FAILED;
    };
    return isValidDtype(dtype);
}
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTiling *t = context->GetTilingData<PTiling>();
    Args args;
    args.aType = context->GetInputDesc(0)->GetDataType();
    args.cType = C_TYPE;
    args.biasType = BIAS_TYPE;
    args.hasBias = HAS_BIAS;
    uint32_t n = 0;
    t->ok = Check(args, n) == ge::GRAPH_SUCCESS ? 1 : 0;
    t->n = n;
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


@pytest.mark.parametrize(("c_type", "bias_type", "has_bias", "expected"), [
    ("args.aType", "ge::DT_FLOAT", "false", {"ok": 1, "n": 3}),      # float x3: a prefix of row 2
    ("args.aType", "ge::DT_FLOAT", "true", {"ok": 1, "n": 4}),       # row 2
    ("args.aType", "ge::DT_INT8", "true", {"ok": 0, "n": 4}),        # no row ends in int8
    ("ge::DT_BF16", "ge::DT_BF16", "true", {"ok": 1, "n": 4}),       # row 3
    ("ge::DT_FLOAT16", "ge::DT_FLOAT", "false", {"ok": 0, "n": 3}),  # float, float, half: none
])
def test_mat_mul_v3s_dtype_check(c_type: str, bias_type: str, has_bias: str, expected: dict[str, int]) -> None:
    source = DTYPE_CHECK.replace("C_TYPE", c_type).replace("BIAS_TYPE", bias_type).replace("HAS_BIAS", has_bias)
    result = run_tiling(source)
    assert_tiled(result)
    assert result.fields == expected


ALGORITHMS = """
namespace optiling {
struct PTiling { uint32_t same; uint32_t differ; uint32_t shorter; uint32_t at; uint32_t missing; uint32_t twos;
                 uint32_t anyBig; uint32_t allPos; uint32_t noneNeg; uint32_t second; uint32_t tailSame; };
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTiling *t = context->GetTilingData<PTiling>();
    int64_t rows = context->GetInputShape(0)->GetStorageShape().GetDim(0);
    std::vector<int64_t> a;
    std::vector<int64_t> b;
    for (int64_t i = 0; i < rows; i++) {
        a.push_back(i % 3);
        b.push_back(i % 3);
    }
    t->same = std::equal(a.begin(), a.end(), b.begin()) ? 1 : 0;
    b[rows - 1] = 7;
    t->differ = std::equal(a.begin(), a.end(), b.begin(), b.end()) ? 1 : 0;
    t->shorter = std::equal(a.begin(), a.end() - 1, b.begin(), b.end() - 1) ? 1 : 0;
    t->at = std::find(a.begin(), a.end(), 2) - a.begin();
    t->missing = std::find(a.begin(), a.end(), 5) == a.end() ? 1 : 0;
    t->twos = std::count(a.begin(), a.end(), 2);
    int64_t limit = 6;
    t->anyBig = std::any_of(b.begin(), b.end(), [limit](int64_t x) { return x > limit; }) ? 1 : 0;
    t->allPos = std::all_of(a.begin() + 1, a.end(), [](int64_t x) { return x > 0; }) ? 1 : 0;
    t->noneNeg = std::none_of(a.begin(), a.end(), [](int64_t x) { return x < 0; }) ? 1 : 0;
    t->second = *(a.begin() + 1);
    const std::vector<int64_t> tail = {1, 2};
    t->tailSame = std::equal(tail.begin(), tail.end(), a.begin() + 1) ? 1 : 0;
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def()


def test_iterators_and_algorithms_over_run_time_vectors() -> None:
    # a = b = [0, 1, 2, 0, 1] (rows 5), then b[4] = 7: the loops run over the run-time sizes
    result = run_tiling(ALGORITHMS, rows=5)
    assert_tiled(result)
    assert result.fields == {"same": 1, "differ": 0, "shorter": 1, "at": 2, "missing": 1, "twos": 1, "anyBig": 1,
                             "allPos": 0, "noneNeg": 1, "second": 1, "tailSame": 1}
