"""The reference's outputs are named by the op outputs the binding returns, in the binding's order.

NPUKernelBench zips the Model's outputs with what the binding returns. AddLayerNorm's binding launches the op with
outputs (y, mean, rstd, x) and returns `{xOut, yOut}` when additionalOut is set: its Model's [x, layer_norm(x)]
are the op's x and y. Named by the op's order instead they were y and mean, mean's buffer got x's full shape, and
the answer's tiling, which checks mean's shape, failed (ASC602) on every additional_out case.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bench.suites.binding import returned_outputs

# an op of three outputs (total, peak, copy) whose binding returns copy and total when asked for the copy
OPDEF = """
#include "register/op_def_registry.h"
namespace ops {
class RowTotals : public OpDef {
public:
    explicit RowTotals(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("total").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("peak").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("copy").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(RowTotals);
}
"""

BINDING = """
std::vector<at::Tensor> row_totals_api(at::Tensor x, bool withCopy)
{
    auto totalOut = torch::empty({x.size(0), 1}, x.options());
    auto peakOut = torch::empty_like(totalOut);
    at::Tensor copyOut = torch::empty_like(x);
    EXEC_NPU_CMD(aclnnRowTotals, x, withCopy, totalOut, peakOut, copyOut);
    std::vector<at::Tensor> result;
    if (withCopy) {
        result = {copyOut, totalOut};
    } else {
        result = {totalOut};
    }
    return result;
}

PYBIND11_MODULE(kernel_gen_ops, m) {
    m.def("row_totals", &row_totals_api, "");
}
"""

PREPARE = """
import torch

def get_inputs(param, device=None):
    return [torch.rand(eval(param['input_shape']), device=device)]

def get_init_inputs(param, device=None):
    return [param['with_copy']]
"""

MODULE = """
import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, with_copy):
        super().__init__()
        self.with_copy = with_copy

    def forward(self, x):
        total = x.sum(dim=1, keepdim=True)
        return [x * 1.0, total] if self.with_copy else [total]

class ModelNew(nn.Module):
    def __init__(self, with_copy):
        super().__init__()
        self.with_copy = with_copy

    def forward(self, x):
        import kernel_gen_ops
        return kernel_gen_ops.row_totals(x, self.with_copy)
"""


def test_the_binding_names_what_it_returns_for_its_flags() -> None:
    outputs = ["total", "peak", "copy"]
    assert returned_outputs(BINDING, outputs, {"withCopy": True}) == ["copy", "total"]
    assert returned_outputs(BINDING, outputs, {"withCopy": False}) == ["total"]
    negated = BINDING.replace("if (withCopy)", "if (!withCopy)")
    assert returned_outputs(negated, outputs, {"withCopy": True}) == ["total"]
    pushed = BINDING.replace("result = {copyOut, totalOut};", "result = {copyOut}; result.push_back(peakOut);")
    assert returned_outputs(pushed, outputs, {"withCopy": True}) == ["copy", "peak"]
    # a condition that is not a flag parameter, or a flag not given: not followed
    assert returned_outputs(BINDING.replace("if (withCopy)", "if (x.dim() > 1)"), outputs, {"withCopy": True}) is None
    assert returned_outputs(BINDING, outputs, {}) is None


def _task(tmp_path: Path) -> Any:
    from bench.suites.npukernelbench import read_task

    folder = tmp_path / "tasks" / "level2" / "Reduce" / "RowTotals"
    (folder / "question" / "op_host").mkdir(parents=True)
    (folder / "question" / "op_host" / "row_totals.cpp").write_text(OPDEF)
    (folder / "validation").mkdir()
    (folder / "validation" / "test_cases.csv").write_text(
        "case_id;input_shape;with_copy\n0;[4, 8];true\n1;[4, 8];false\n")
    (folder / "validation" / "prepare_inputs.py").write_text(PREPARE)
    (folder / "validation" / "module.py").write_text(MODULE)
    (folder / "validation" / "pybind.cpp").write_text(BINDING)
    return read_task(folder)


def test_the_references_outputs_are_the_ones_the_binding_returns(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    task = _task(tmp_path)
    assert [o.name for o in task.outputs] == ["total", "peak", "copy"]
    case = task.case("0")
    inputs = task.make_inputs(case, 0)
    expected = task.reference(case, inputs)
    x = np.asarray((inputs.reference or inputs).values["x"])
    assert list(expected) == ["total", "copy"]  # the op's order; peak gets the shape InferShape gives it
    assert np.asarray(expected["total"]).shape == (4, 1)
    np.testing.assert_allclose(expected["copy"], x)
    assert task.uncompared(case, inputs) == ("peak",)

    case = task.case("1")
    inputs = task.make_inputs(case, 0)
    assert list(task.reference(case, inputs)) == ["total"]


def test_the_buffers_dtypes_pair_by_name(monkeypatch: Any) -> None:
    from bench.harness.stages import compile as compile_stage
    from passes.verify import kernel_only

    desc = {"input_desc": [{"name": "x", "type": ["float16"]}],
            "output_desc": [{"name": "y", "type": ["float16"]}, {"name": "mean", "type": ["float"]},
                            {"name": "x_sum", "type": ["float16"]}]}
    monkeypatch.setattr(kernel_only, "op_description", lambda program: desc)
    expected = {"y": np.zeros(2, np.float32), "x_sum": np.zeros(2, np.float32)}
    assert compile_stage.op_output_dtypes(None, ["float16"], expected) == ["float16", "float16"]


def test_a_call_with_fewer_outputs_than_the_op_names_none() -> None:
    # the op's five outputs, the call's last five arguments two scalars and three tensors: not the op's outputs
    text = BINDING.replace("bool withCopy)", "bool withCopy, double eps)").replace(
        "EXEC_NPU_CMD(aclnnRowTotals, x, withCopy, totalOut, peakOut, copyOut);",
        "EXEC_NPU_CMD(aclnnRowTotals, x, withCopy, eps, totalOut, peakOut, copyOut);")
    assert returned_outputs(text, ["total", "peak", "copy"], {"withCopy": True}) == ["copy", "total"]
    assert returned_outputs(text, ["a", "b", "total", "peak", "copy"], {"withCopy": True}) is None
