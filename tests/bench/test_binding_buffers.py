"""The buffers an NPUKernelBench binding allocates for outputs it does not return (bench/suites/binding_shapes.py).

FlashAttentionScoreWithLargeHeadDim's binding makes softmax_max as torch::empty({batch, head_num, seq_len, 8}) and
returns only attention_out; the harness gave the uncompared softmax_max InferShape's {batch, 1, seq_len, 8}, and
the kernel's writes of the other heads' rows went past its end (ASC950). The uncompared outputs now get the
binding's shapes and dtypes for the draw."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.suites.binding_shapes import allocated_outputs
from bench.suites.model import TensorDecl

BINDING = """
at::Tensor stats_api(at::Tensor &x, double scale, int64_t heads)
{
    const int64_t rows = x.size(0);   // rows
    const int64_t cols = x.size(-1) / heads;
    at::Tensor peakOut = torch::empty({rows, heads, static_cast<int64_t>(8)}, x.options().dtype(torch::kFloat32));
    at::Tensor idxOut = torch::empty({rows * 2, cols % 3 + 1}, at::TensorOptions().dtype(at::kInt));
    at::Tensor copyOut = torch::empty_like(x);
    at::Tensor oddOut = torch::empty({rows, x.numel()}, x.options());
    EXEC_NPU_CMD(aclnnStats, x, scale, heads, peakOut, idxOut, copyOut, oddOut);
    return copyOut;
}

PYBIND11_MODULE(kernel_gen_ops, m) {
    m.def("stats", &stats_api, "");
}
"""
OUTPUTS = ["peak", "idx", "copy", "odd"]


def test_allocations_are_evaluated_for_the_draw() -> None:
    made = allocated_outputs(BINDING, OUTPUTS, {"x": (4, 64)}, {"x": "float16"}, {"scale": 0.5, "heads": 8})
    assert made == {"peak": ((4, 8, 8), "float32"), "idx": ((8, 3), "int32")}  # 64 / 8 % 3 + 1
    # empty_like and a dim the evaluator does not follow (numel) are left to InferShape; so is all of it when a
    # scalar the dims need is not given
    assert allocated_outputs(BINDING, OUTPUTS, {"x": (4, 64)}, {"x": "float16"}, {}) == {}


def test_dtype_from_a_tensor_parameters_options() -> None:
    text = BINDING.replace("x.options().dtype(torch::kFloat32)", "x.options()")
    made = allocated_outputs(text, OUTPUTS, {"x": (2, 16)}, {"x": "bfloat16"}, {"heads": 4})
    assert made["peak"] == ((2, 4, 8), "bfloat16")


OPDEF = """
#include "register/op_def_registry.h"
namespace ops {
class Stats : public OpDef {
public:
    explicit Stats(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("peak").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("idx").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Output("copy").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("odd").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0);
        this->Attr("heads").Int();
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Stats);
}
"""
PREPARE = """
import torch

def get_inputs(param, device=None):
    return [torch.rand(eval(param['shape']), device=device, dtype=torch.float16), param['scale'], param['heads']]

def get_init_inputs(param, device=None):
    return []
"""
MODULE = """
import torch
import torch.nn as nn

class Model(nn.Module):
    def forward(self, x, scale, heads):
        return x * 1.0

class ModelNew(nn.Module):
    def forward(self, x, scale, heads):
        import kernel_gen_ops
        return kernel_gen_ops.stats(x, scale, heads)
"""


def test_the_task_gives_the_uncompared_outputs_the_bindings_buffers(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from bench.suites.npukernelbench import read_task

    folder = tmp_path / "tasks" / "level3" / "Stats" / "Stats"
    (folder / "question" / "op_host").mkdir(parents=True)
    (folder / "question" / "op_host" / "stats.cpp").write_text(OPDEF)
    (folder / "validation").mkdir()
    (folder / "validation" / "test_cases.csv").write_text("case_id;shape;scale;heads\n0;[4, 64];0.5;8\n")
    (folder / "validation" / "prepare_inputs.py").write_text(PREPARE)
    (folder / "validation" / "module.py").write_text(MODULE)
    (folder / "validation" / "pybind.cpp").write_text(BINDING)
    task: Any = read_task(folder)
    case = task.case("0")
    inputs = task.make_inputs(case, 0)
    assert set(task.uncompared(case, inputs)) == {"peak", "idx", "odd"}
    assert task.binding_buffers(case, inputs) == {"peak": ((4, 8, 8), "float32"), "idx": ((8, 3), "int32")}


class _Task:
    outputs = tuple(TensorDecl(n, ("float32",)) for n in ("peak", "idx", "copy"))
    inplace: tuple[str, ...] = ()

    def answer_inputs(self, program: object, inputs: Any) -> Any:
        return inputs

    def attr_values(self, case: object) -> dict[str, Any]:
        return {}

    def binding_buffers(self, case: object, inputs: object) -> dict[str, tuple[tuple[int, ...], str]]:
        return {"peak": ((4, 8, 8), "float32")}


def test_the_simulation_gets_the_bindings_buffer_for_an_uncompared_output(monkeypatch: Any) -> None:
    import numpy as np

    from bench.harness import aclnn_replay
    from bench.harness.stages import correctness
    from bench.suites.model import Inputs
    from passes.sim import launch

    given: dict[str, Any] = {}

    def fake_run(program: object, chip: str, tensors: Any, attrs: Any, **options: Any) -> Any:
        given.update(options)
        raise launch.SimError("stop here")

    monkeypatch.setattr(aclnn_replay, "simulate_aclnn", lambda *args: (None, ""))
    monkeypatch.setattr(launch, "run_loaded", fake_run)
    inputs = Inputs({"x": np.zeros((4, 64), np.float16)}, {"x": "float16"})
    expected = {"copy": np.zeros((4, 64), np.float32)}  # the one output returned: the op's third
    correctness.simulate(_Task(), None, None, "910B2", inputs, expected, ["float32"], 0, None)  # type: ignore[arg-type]
    buffers = given["outputs"]
    assert set(buffers) == {"copy", "peak"} and buffers["peak"].shape == (4, 8, 8)
    assert buffers["peak"].dtype == np.float32
    assert given["dtypes"][-3:] == ["float32", None, "float32"]  # peak, idx (InferShape's), copy


def test_outputs_given_by_name_follow_the_ops_order() -> None:
    import numpy as np

    from passes.sim.launch import _given_outputs

    a, b, c = np.zeros(1), np.zeros(2), np.zeros(3)
    # (the harness gives the returned output first and the binding's other buffers after it)
    assert list(_given_outputs({"c": c, "a": a, "b": b}, ["a", "b", "c"])) == ["a", "b", "c"]
    assert list(_given_outputs({"c": c, "a": a}, ["a", "b", "c"])) == ["a", "c"]
