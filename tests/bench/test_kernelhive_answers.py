"""bench/perf/kernelhive_answers.py as bench_kernelhive.py uses it: a KernelHive answer whose ModelNew hands the op
its module's weights is judged with the reference Model's weights as the op's inputs, not left "not judged" because
ModelNew computes the op's arguments. A made-up reference program and record: no data needed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import bench.harness.stages.extract as extract
from bench.harness.model_forward import WeightedTask
from bench.perf.bench_kernelhive import gather_answers
from bench.perf.kernelhive_answers import relax_input_rule
from bench.suites.multikernelbench import SEED, read_task
from bench.suites.torch_ref import seed_all

REFERENCE = """import torch

class Model(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.randn(n))

    def forward(self, x):
        return x * self.weight

def get_inputs():
    return [torch.randn(4, 8)]

def get_init_inputs():
    return [8]
"""

MODEL_NEW = """import torch
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.randn(n))

    def forward(self, x):
        return custom_ops_lib.scale_rows_custom({args})
"""


def _record(rid: str, args: str) -> dict[str, object]:
    files = {"op_kernel/scale_rows_custom.cpp": "// the kernel: not read here\n",
             "model_src.py": MODEL_NEW.format(args=args)}
    return {"id": rid, "op": "scale_rows", "error_class": "numeric_mismatch", "files_before": files,
            "files_after": None}


def test_weights_handed_to_the_op_come_from_the_reference_model(tmp_path: Path) -> None:
    program = tmp_path / "reference" / "level2" / "scale_rows.py"
    program.parent.mkdir(parents=True)
    program.write_text(REFERENCE, encoding="utf-8")
    tasks = [read_task(program)]
    records = [_record("scale_rows#0", "x, self.weight"), _record("scale_rows#1", "x")]
    answers, recorded, ids, skipped = gather_answers(records, tasks, tmp_path / "answers")
    assert not skipped and len(answers) == 2
    weighted, plain = answers
    # the weighted answer's task is a new one (appended), its inputs what forward hands the op
    assert weighted.task != "scale_rows" and plain.task == "scale_rows"
    task = next(t for t in tasks if t.name == weighted.task)
    assert isinstance(task, WeightedTask)
    assert recorded[(weighted.task, weighted.sample)] == "numeric" and ids[(weighted.task, weighted.sample)] \
        == "scale_rows#0"
    pytest.importorskip("torch")
    inputs = task.make_inputs(task.cases[0], 0)
    x, weight = inputs.values.values()
    assert x.shape == (4, 8)
    # the reference Model's weight as the benchmark builds it (seeded), not ModelNew's own draw
    torch = pytest.importorskip("torch")
    seed_all(SEED)
    expected = torch.nn.Parameter(torch.randn(8)).detach().numpy()
    np.testing.assert_array_equal(np.asarray(weight), expected)


def test_the_extract_stage_takes_a_readable_forward(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(extract, "model_passes_inputs", extract.model_passes_inputs)  # restored afterwards
    answer = f"model_src = '''{MODEL_NEW.format(args='x, self.weight')}'''\n"
    assert extract.model_passes_inputs(answer) is False  # the harness alone: "ModelNew computes the op's arguments"
    relax_input_rule()
    relax_input_rule()  # a second call leaves one wrapper
    assert extract.model_passes_inputs(answer) is True
    computed = f"model_src = '''{MODEL_NEW.format(args='torch.relu(x)')}'''\n"
    assert extract.model_passes_inputs(computed) is False  # forward computes: still unknown


def test_methods_on_the_ops_result_only_where_the_binding_is_replayed(tmp_path: Path) -> None:
    """Without the binding replay the op's outputs are made in the reference's output shapes (forward's results
    already): forward's `.unsqueeze(1)` on them again would give [4, 1, 8] -> [4, 1, 1, 8] against [4, 1, 8]."""
    program = tmp_path / "reference" / "level1" / "scale_rows.py"
    program.parent.mkdir(parents=True)
    program.write_text(REFERENCE, encoding="utf-8")
    record = _record("scale_rows#2", "x")
    record["files_before"]["model_src.py"] = MODEL_NEW.format(args="x") \
        .replace("scale_rows_custom(x)", "scale_rows_custom(x).unsqueeze(1)")  # type: ignore[index]
    tasks = [read_task(program)]
    (plain,), *_ = gather_answers([record], tasks, tmp_path / "a")  # bench_kernelhive: no binding replay
    assert plain.task == "scale_rows" and len(tasks) == 1
    (replayed,), *_ = gather_answers([record], tasks, tmp_path / "b", replay_binding=True)
    task = next(t for t in tasks if t.name == replayed.task)
    assert isinstance(task, WeightedTask) and task.post == (("unsqueeze", (1,)),)
