"""`std::pair` in host tiling functions (ops-nn deep_norm's shape check: a local array of (name, dtype) pairs
walked with a range-for, `item.second` compared with x's dtype), and what the evaluator says about a local
array whose element type it cannot hold (before: 'NotImplementedError: Unknown format for element type none', the
Python exception and xdsl's message in the user's diagnostic)."""

from __future__ import annotations

import pytest

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text

PAIRS = """
namespace optiling {
struct PairTilingData { uint32_t sum; uint32_t checked; uint32_t firstLen; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    PairTilingData *t = context->GetTilingData<PairTilingData>();
    ge::DataType xDtype = context->GetInputDesc(0)->GetDataType();
    const std::pair<const char*, ge::DataType> others[] = {
        {"gx", context->GetInputDesc(1)->GetDataType()},
        {"y", context->GetOutputDesc(0)->GetDataType()},
    };
    uint32_t checked = 0;
    for (const auto& item : others) {
        if (item.second != xDtype) {
            return ge::GRAPH_FAILED;
        }
        checked += 1;
    }
    std::pair<uint32_t, uint32_t> range = {3, context->GetInputShape(0)->GetStorageShape().GetDim(1)};
    std::pair<int64_t, uint32_t> copy{range.second, 5};
    t->sum = range.first + range.second + copy.second;
    t->checked = checked;
    t->firstLen = copy.first;
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def run(source: str, gx: str = "float16", y: str = "float16"):
    inputs = TilingInputs([TensorSpec((4, 8), "float16"), TensorSpec((4, 8), gx)],
                          outputs=[TensorSpec((4, 8), y)])
    return evaluate_program_tiling(load_text(source, "pairs.cpp"), inputs)


def test_pairs_are_read_and_an_array_of_them_is_walked() -> None:
    result = run(PAIRS)
    assert result.diagnostics == []
    assert result.succeeded and not result.gaps
    assert result.fields == {"sum": 16, "checked": 2, "firstLen": 8}


@pytest.mark.parametrize(("gx", "y"), [("float32", "float16"), ("float16", "bfloat16")])
def test_a_mismatch_in_any_pair_fails_the_check(gx: str, y: str) -> None:
    result = run(PAIRS, gx, y)
    assert not result.gaps
    assert not result.succeeded
    assert result.diagnostics == ["TilingFunc returned ge::GRAPH_FAILED"]


def test_an_unmodelled_use_of_a_pair_is_a_gap() -> None:
    result = run(PAIRS.replace("t->sum = range.first", "range.first = 4; t->sum = range.first"))
    assert result.gaps
    assert not any("Error" in d for d in result.diagnostics)


def _one_declaration(decl: str):
    source = PAIRS.replace("    uint32_t checked = 0;", f"    {decl}\n    uint32_t checked = 0;")
    return run(source)


def test_an_array_of_an_unmodelled_type_is_named_in_words() -> None:
    result = _one_declaration('std::string names[] = {"gx", "y"};')
    assert [g.message for g in result.gaps] == [
        "an array of std::string (its element type is not modelled); "
        "later checks of this function are incomplete"]
    assert not any("NotImplementedError" in d or "Unknown format" in d for d in result.diagnostics)


def test_the_evaluator_catch_all_names_the_construct() -> None:
    # an array of `const char*` lowers (pointers have an IR type) but the evaluator cannot hold its elements
    result = _one_declaration('const char* names[] = {"gx", "y"};')
    assert not result.succeeded
    [message] = [d for d in result.diagnostics if d.startswith("cannot evaluate")]
    assert message.startswith("cannot evaluate TilingFunc: the local array 'names' has pointer elements, "
                              "which the evaluator does not model (in memref.alloca at pairs.cpp:")
    assert "NotImplementedError" not in message and "Unknown format" not in message
