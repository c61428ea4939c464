"""Local lambdas and namespace-scope std::string variables in host tiling code (ops-nn mse_loss_v2's idioms).

A tiling that names a helper as a lambda and calls it twice, `auto calc = [ubSize](uint32_t n) { ... }; calc(1);`,
stopped on ASC103 "call of 'calc', which is a variable", and every value the lambda set was left unset. A
`std::string mode = MODE_A;` at namespace scope, set from a string attribute in a helper after an early return
and compared in another function, was "assignment to this kind of expression" (ASC103) and its compares unknown.
"""

from __future__ import annotations

from tests.ascendir.host_op import assert_tiled, op_def, run_tiling

_TILING_DATA = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(PTilingData)
TILING_DATA_FIELD_DEF(uint32_t, a);
TILING_DATA_FIELD_DEF(uint32_t, b);
TILING_DATA_FIELD_DEF(uint32_t, c);
TILING_DATA_FIELD_DEF(uint32_t, d);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(P, PTilingData)
"""

_SAVE = """
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""

LAMBDAS = _TILING_DATA + """
uint64_t perPart = 0;
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTilingData td;
    uint64_t total = 960;
    uint32_t calls = 0;
    auto split = [total, &calls](uint32_t parts) {   // total by value, calls by reference
        constexpr uint64_t EXTRA = 1u;
        optiling::perPart = total / (parts + EXTRA);
        calls += 1;
    };
    split(1);
    if (optiling::perPart > 256) {
        split(3);
    }
    td.set_a(optiling::perPart);
    td.set_b(calls);
    auto scaled = [=](uint32_t v) { return v * 2 + total; };   // a copy of total, taken here
    total = 0;
    td.set_c(scaled(3));
    uint32_t sum = 0;
    auto add = [&](uint32_t v) { sum += v + total; };
    add(5);
    add(7);
    auto keyOf = [](ge::DataType dtype) -> int64_t {   // returns under a switch: the written type holds them
        switch (dtype) {
            case ge::DT_FLOAT:
                return 4;
            default:
                return -1;
        }
    };
    td.set_d(sum + keyOf(context->GetInputDesc(0)->GetDataType()));
""" + _SAVE

STRING_GLOBAL = _TILING_DATA + """
constexpr const char* MODE_A = "alpha";
constexpr const char* MODE_B = "beta";
std::string mode = optiling::MODE_A;
static ge::graphStatus ReadMode(gert::TilingContext *context)
{
    auto attrs = context->GetAttrs();
    if (attrs == nullptr) {
        return ge::GRAPH_FAILED;
    }
    optiling::mode = attrs->GetAttrPointer<char>(0);
    return ge::GRAPH_SUCCESS;
}
static uint32_t Parts()
{
    if (optiling::mode == optiling::MODE_B) {
        return 4;
    }
    return 1;
}
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    PTilingData td;
    td.set_a(optiling::mode == MODE_A ? 1 : 0);
    if (ReadMode(context) != ge::GRAPH_SUCCESS) {
        return ge::GRAPH_FAILED;
    }
    td.set_b(optiling::mode == MODE_B ? 1 : 0);
    td.set_c(Parts());
    if (td.get_c() > 1) {
        optiling::mode = MODE_A;   // under an `if`
    }
    td.set_d(optiling::mode == MODE_A ? 1 : 0);
""" + _SAVE


def test_lambda_captures_by_value_and_by_reference() -> None:
    result = run_tiling(LAMBDAS + op_def())
    assert_tiled(result)
    # 960 / 2 = 480 > 256, so split(3): 960 / 4; two calls; 3 * 2 + 960 with the copy; 5 + 7 with total 0, + 4
    assert result.fields == {"a": 240, "b": 2, "c": 966, "d": 16}


def test_namespace_string_set_from_an_attribute_and_under_an_if() -> None:
    source = STRING_GLOBAL + op_def('this->Attr("mode").AttrType(OPTIONAL).String("alpha");')
    result = run_tiling(source, attrs=["beta"])
    assert_tiled(result)
    assert result.fields == {"a": 1, "b": 1, "c": 4, "d": 1}
    result = run_tiling(source, attrs=["alpha"])
    assert_tiled(result)
    assert result.fields == {"a": 1, "b": 0, "c": 1, "d": 1}
