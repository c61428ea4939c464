"""A program's host tiling and InferShape functions are lowered once per process (ascendir/lower/host_cache.py):
the harness runs the tiling at every launch (each case, each input draw), and lowering it each time was most of a
small NPUKernelBench case's time (ForeachAddcdivList, bench/README.md Level 2)."""

from __future__ import annotations

import pytest

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.lower import host as host_lowering
from ascendir.lower import host_cache
from ascendir.lower.host import evaluate_program_infer_shape, evaluate_program_tiling
from frontend.pipeline import load_text

SOURCE = """
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(ATilingData)
TILING_DATA_FIELD_DEF(int64_t, total);
TILING_DATA_FIELD_DEF(int64_t, rows);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(A, ATilingData)
static ge::graphStatus TilingA(gert::TilingContext* context)
{
  ATilingData tiling;
  auto shape = context->GetInputShape(0)->GetStorageShape();
  tiling.set_total(shape.GetShapeSize());
  tiling.set_rows(shape.GetDim(0));
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->SetBlockDim(shape.GetDim(0) > 4 ? 8 : 1);
  return ge::GRAPH_SUCCESS;
}
}
namespace ge {
static ge::graphStatus InferShapeA(gert::InferShapeContext* context)
{
  *context->GetOutputShape(0) = *context->GetInputShape(0);
  return GRAPH_SUCCESS;
}
}
namespace ops {
class A : public OpDef {
public:
    explicit A(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShapeA);
        this->AICore().SetTiling(optiling::TilingA);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(A);
}
"""


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Every host lowering, as the infer_shape flag it was made with."""
    host_cache.forget()
    calls: list[bool] = []
    lower = host_lowering._lower_host_function

    def counting(program: object, options: object, *, infer_shape: bool) -> object:
        calls.append(infer_shape)
        return lower(program, options, infer_shape=infer_shape)

    monkeypatch.setattr(host_lowering, "_lower_host_function", counting)
    yield calls
    host_cache.forget()


def test_launches_of_one_program_lower_its_tiling_once(counted: list[bool]) -> None:
    program = load_text(SOURCE, "a.cpp")
    small = evaluate_program_tiling(program, TilingInputs([TensorSpec((2, 8), "float32")]))
    big = evaluate_program_tiling(program, TilingInputs([TensorSpec((16, 8), "float32")]))
    again = evaluate_program_tiling(program, TilingInputs([TensorSpec((2, 8), "float32")]))
    assert counted == [False]
    # each run evaluates its own inputs on the kept module: the results are a fresh lowering's
    assert (small.fields, small.block_dim) == ({"total": 16, "rows": 2}, 1)
    assert (big.fields, big.block_dim) == ({"total": 128, "rows": 16}, 8)
    assert (again.fields, again.block_dim, again.diagnostics) == (small.fields, small.block_dim, small.diagnostics)
    fresh = load_text(SOURCE, "a.cpp")  # another program (same text): lowered for itself
    assert evaluate_program_tiling(fresh, TilingInputs([TensorSpec((2, 8), "float32")])).fields == small.fields
    assert counted == [False, False]


def test_infer_shape_is_kept_apart_from_the_tiling(counted: list[bool]) -> None:
    program = load_text(SOURCE, "a.cpp")
    shapes = TilingInputs([TensorSpec((3, 5), "float32")])
    first = evaluate_program_infer_shape(program, shapes)
    second = evaluate_program_infer_shape(program, shapes)
    evaluate_program_tiling(program, shapes)
    assert counted == [True, False]
    assert [tuple(s) for s in first.outputs] == [(3, 5)] == [tuple(s) for s in second.outputs]


def test_a_program_whose_units_changed_is_lowered_again(counted: list[bool]) -> None:
    program = load_text(SOURCE, "a.cpp")
    evaluate_program_tiling(program, TilingInputs([TensorSpec((2, 8), "float32")]))
    program.units[:] = load_text(SOURCE.replace("GetDim(0) > 4", "GetDim(0) > 1"), "a.cpp").units
    assert evaluate_program_tiling(program, TilingInputs([TensorSpec((2, 8), "float32")])).block_dim == 8
    assert counted == [False, False]


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every run of the tiling interpreter, as the inputs it was given."""
    host_cache.forget()
    seen: list[object] = []
    evaluate = host_lowering.evaluate_tiling

    def counting(module: object, name: str, inputs: object, **kw: object) -> object:
        seen.append(inputs)
        return evaluate(module, name, inputs, **kw)

    monkeypatch.setattr(host_lowering, "evaluate_tiling", counting)
    yield seen
    host_cache.forget()


def test_equal_inputs_run_the_tiling_once_and_get_their_own_copy(runs: list[object]) -> None:
    program = load_text(SOURCE, "a.cpp")
    first = evaluate_program_tiling(program, TilingInputs([TensorSpec((16, 8), "float32")]))
    first.fields["rows"] = -1  # a caller's changes stay its own
    first.diagnostics.append("the caller's note")
    second = evaluate_program_tiling(program, TilingInputs([TensorSpec((16, 8), "float32")]))
    assert len(runs) == 1
    assert (second.fields, second.block_dim, second.diagnostics) == ({"total": 128, "rows": 16}, 8, [])
    # inputs that differ anywhere run again: a shape, a small tensor's values, an attribute (-0.0 is not 0.0)
    evaluate_program_tiling(program, TilingInputs([TensorSpec((16, 4), "float32")]))
    evaluate_program_tiling(program, TilingInputs([TensorSpec((2,), "float32", values=(1.0, 2.0))]))
    evaluate_program_tiling(program, TilingInputs([TensorSpec((2,), "float32", values=(1.0, 3.0))]))
    evaluate_program_tiling(program, TilingInputs([TensorSpec((2,), "float32")], attrs=[0.0]))
    evaluate_program_tiling(program, TilingInputs([TensorSpec((2,), "float32")], attrs=[-0.0]))
    assert len(runs) == 6
    evaluate_program_tiling(program, TilingInputs([TensorSpec((2,), "float32", values=(1.0, 3.0))]))
    assert len(runs) == 6


def test_frozen_keys_tell_values_apart() -> None:
    assert host_cache.frozen([1, 2]) != host_cache.frozen((1, 2))
    assert host_cache.frozen(1) != host_cache.frozen(True) != host_cache.frozen(1.0)
    assert host_cache.frozen(float("nan")) == host_cache.frozen(float("nan"))
    assert host_cache.frozen({"chip": "910B2"}) != host_cache.frozen({"chip": "910B3"})
    assert host_cache.frozen([object()]) is None  # unknown values: nothing is kept
