"""A `const char*` walked character by character in host code (ops-nn smooth_l1_loss_v2 compares its reduction
attribute with "none" / "sum" / "mean" without regard to case: `while (*lhs != '\\0' && *rhs != '\\0') {
std::tolower(*lhs) ...; ++lhs; ++rhs; }` over GetStr's pointer and literals, after a helper that returns nullptr
for an absent attribute). Before: the helper's `return nullptr` / `return attr` merge, `*lhs`, `++lhs` in the loop
and std::tolower were gaps, and '\\0' read as the code of '0' (48). Also std::isfinite / isnan / isinf."""

from __future__ import annotations

import pytest

from tests.ascendir.host_op import assert_tiled, op_def, run_tiling

WALK = r"""
#include <cctype>
namespace optiling {
struct PTiling { int32_t mode; int32_t length; int32_t third; };

inline const char* AsC(const char* attr)
{
    if (attr == nullptr) {
        return nullptr;
    }
    return attr;
}

inline int32_t Parse(const char* token)
{
    if (token == nullptr) {
        return -2;
    }
    auto eq = [](const char* lhs, const char* rhs) -> bool {
        if (lhs == nullptr || rhs == nullptr) {
            return false;
        }
        while (*lhs != '\0' && *rhs != '\0') {
            char lc = static_cast<char>(std::tolower(static_cast<unsigned char>(*lhs)));
            char rc = static_cast<char>(std::tolower(static_cast<unsigned char>(*rhs)));
            if (lc != rc) {
                return false;
            }
            ++lhs;
            ++rhs;
        }
        return *lhs == '\0' && *rhs == '\0';
    };
    if (eq(token, "none") || eq(token, "n")) {
        return 0;
    }
    if (eq(token, "sum")) {
        return 1;
    }
    if (eq(token, "mean")) {
        return 2;
    }
    return -1;
}

static ge::graphStatus TilingP(gert::TilingContext *context)
{
    auto attrs = context->GetAttrs();
    auto attr = attrs->GetStr(1);
    if (attr == nullptr) {
        attr = attrs->GetStr(0);
    }
    PTiling* tiling = context->GetTilingData<PTiling>();
    tiling->mode = Parse(AsC(attr));
    const char* p = AsC(attrs->GetStr(0));
    int32_t n = 0;
    while (p[n] != '\0') {
        n++;
    }
    tiling->length = n;
    tiling->third = n > 2 ? static_cast<int32_t>(*(p + 2)) : -1;
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def('this->Attr("a").AttrType(REQUIRED).String("sum");', 'this->Attr("b").AttrType(OPTIONAL).String("sum");')


@pytest.mark.parametrize("attrs, mode", [
    (["x", "Mean"], 2),     # the second attribute, any case
    (["sum", None], 1),     # no second attribute: the helper's nullptr path, then the first
    (["x", "n"], 0),        # a one-letter name
    (["x", "meanx"], -1),   # a longer text is no match: the walk stops at the literal's end
    (["x", "mea"], -1),     # a shorter one neither
])
def test_a_c_string_walked_character_by_character(attrs: list, mode: int) -> None:
    result = run_tiling(WALK, attrs=attrs)
    assert_tiled(result)
    assert result.fields["mode"] == mode
    assert result.fields["length"] == len(attrs[0])
    assert result.fields["third"] == (ord(attrs[0][2]) if len(attrs[0]) > 2 else -1)


PAST_END = r"""
namespace optiling {
struct PTiling { int32_t c; };
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    const char* p = context->GetAttrs()->GetStr(0);
    PTiling* tiling = context->GetTilingData<PTiling>();
    tiling->c = p[4];
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def('this->Attr("a").AttrType(REQUIRED).String("sum");')


def test_a_read_past_the_terminator_stops_the_run() -> None:
    assert run_tiling(PAST_END, attrs=["abcd"]).fields["c"] == 0  # the terminator itself
    result = run_tiling(PAST_END, attrs=["ab"])
    assert not result.succeeded
    assert any("character 4 of the C string 'ab' read, past its terminator" in d for d in result.diagnostics)


FLOAT_CLASS = r"""
#include <cmath>
namespace optiling {
struct PTiling { int32_t fin; int32_t nan; int32_t inf; int32_t intFin; };
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    float s = *context->GetAttrs()->GetFloat(0);
    PTiling* tiling = context->GetTilingData<PTiling>();
    tiling->fin = std::isfinite(s) ? 1 : 0;
    tiling->nan = std::isnan(s) ? 1 : 0;
    tiling->inf = std::isinf(s) ? 1 : 0;
    tiling->intFin = std::isfinite(7) ? 1 : 0;
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def('this->Attr("a").AttrType(REQUIRED).Float(1.0);')


@pytest.mark.parametrize("value, fin, nan, inf", [
    (1.5, 1, 0, 0), (float("inf"), 0, 0, 1), (float("-inf"), 0, 0, 1), (float("nan"), 0, 1, 0)])
def test_float_classification(value: float, fin: int, nan: int, inf: int) -> None:
    result = run_tiling(FLOAT_CLASS, attrs=[value])
    assert_tiled(result)
    assert (result.fields["fin"], result.fields["nan"], result.fields["inf"], result.fields["intFin"]) == \
        (fin, nan, inf, 1)


AS_STRING = r"""
#include <string>
namespace optiling {
struct PTiling { int32_t isMean; };
inline const char* AsC(const char* attr)
{
    if (attr == nullptr) {
        return nullptr;
    }
    return attr;
}
static ge::graphStatus TilingP(gert::TilingContext *context)
{
    const char* p = AsC(context->GetAttrs()->GetStr(0));
    std::string s = p;
    PTiling* tiling = context->GetTilingData<PTiling>();
    tiling->isMean = (s == "mean" && strcmp(p, "mean") == 0) ? 1 : 0;
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
""" + op_def('this->Attr("a").AttrType(REQUIRED).String("sum");')


@pytest.mark.parametrize("text, is_mean", [("mean", 1), ("sum", 0)])
def test_a_c_string_made_a_std_string_and_compared(text: str, is_mean: int) -> None:
    result = run_tiling(AS_STRING, attrs=[text])
    assert_tiled(result)
    assert result.fields["isMean"] == is_mean
