"""A host tiling function that reads an input tensor's values (`GetInputTensor(i)->GetData<int64_t>()`), as
NPUKernelBench's Fill does with its `dims` input (a value-depend input the aclnn layer makes from an aclIntArray).
The lowering had no GetData on gert::Tensor (ASC100) and the evaluation no values to give it; the values now
travel in TensorSpec.values (the harness side: tests/bench/test_aclnn_arguments.py).
"""

from __future__ import annotations

import numpy as np

from ascendir.host_eval import TensorSpec, TilingInputs
from ascendir.host_tensor_values import VALUES_LIMIT, known_values
from ascendir.lower.host import evaluate_program_tiling
from frontend.pipeline import load_text

SOURCE = """
namespace optiling {
struct FillTilingData { uint64_t total; uint64_t second; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    FillTilingData *t = context->GetTilingData<FillTilingData>();
    const gert::StorageShape *shape = context->GetInputShape(0);
    const gert::Tensor *dimsTensor = context->GetInputTensor(0);
    const int64_t *dims = dimsTensor->GetData<int64_t>();
    uint64_t total = 1;
    for (int i = 0; i < shape->GetStorageShape().GetDim(0); i++) {
        total *= dims[i];
    }
    t->total = total;
    t->second = dims[1];
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}
"""


def _run(dims: TensorSpec):
    return evaluate_program_tiling(load_text(SOURCE, "fill_tiling.cpp"),
                                   TilingInputs([dims, TensorSpec((1,), "float32")], chip="910_93"))


def test_the_host_reads_an_input_tensors_values() -> None:
    result = _run(TensorSpec((3,), "int64", values=(4, 3, 224)))
    assert result.succeeded and not result.gaps, result.diagnostics
    assert result.fields == {"total": 4 * 3 * 224, "second": 3}


def test_values_not_given_stop_the_host_with_the_input_named() -> None:
    result = _run(TensorSpec((3,), "int64"))
    assert not result.succeeded
    assert any("reads the data of input 0" in str(d) and "values were not given" in str(d)
               for d in result.diagnostics), result.diagnostics


def test_small_arrays_carry_their_values_and_data_does_not() -> None:
    assert known_values(np.array([[1, 2], [3, 4]], dtype=np.int64)) == (1, 2, 3, 4)
    assert known_values(np.zeros(VALUES_LIMIT + 1, dtype=np.float32)) is None
