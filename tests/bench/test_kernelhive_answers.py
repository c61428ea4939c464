"""A KernelHive answer whose ModelNew hands the op its module's weights, as bench_kernelhive.py writes it
(bench/perf/kernelhive_answers.py: an op project folder with model_src.py beside it) and the harness reads it
(bench/harness/model_task.py): judged with the reference Model's weights as the op's inputs, not left "not judged"
because ModelNew computes the op's arguments. A made-up reference program and record: no data needed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bench.harness.model_task import WeightedTask, forward_task
from bench.harness.stages.extract import extract
from bench.perf.bench_kernelhive import gather_answers
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


def _reading(task, answer, replay_binding: bool = False):
    """What the harness makes of the answer's ModelNew (the correctness stage's task)."""
    return forward_task(task, extract(task, answer).model_src, answer.sample, replay_binding)


def test_weights_handed_to_the_op_come_from_the_reference_model(tmp_path: Path) -> None:
    program = tmp_path / "reference" / "level2" / "scale_rows.py"
    program.parent.mkdir(parents=True)
    program.write_text(REFERENCE, encoding="utf-8")
    tasks = [read_task(program)]
    records = [_record("scale_rows#0", "x, self.weight"), _record("scale_rows#1", "x")]
    answers, recorded, ids, skipped = gather_answers(records, tasks, tmp_path / "answers")
    assert not skipped and len(answers) == 2 and len(tasks) == 1
    weighted, plain = answers
    assert weighted.task == plain.task == "scale_rows"
    assert (Path(weighted.path) / "model_src.py").is_file()  # ModelNew travels with the project folder
    assert recorded[(weighted.task, weighted.sample)] == "numeric" and ids[(weighted.task, weighted.sample)] \
        == "scale_rows#0"
    # the harness reads the weighted answer's forward: a task of its own, its inputs what forward hands the op
    task = _reading(tasks[0], weighted).task
    assert isinstance(task, WeightedTask) and task.name == "scale_rows~scale_rows_0:before"
    reading = _reading(tasks[0], plain)
    assert reading.task is tasks[0] and reading.readable  # forward passes x through: the task as it is
    pytest.importorskip("torch")
    inputs = task.make_inputs(task.cases[0], 0)
    x, weight = inputs.values.values()
    assert x.shape == (4, 8)
    # the reference Model's weight as the benchmark builds it (seeded), not ModelNew's own draw
    torch = pytest.importorskip("torch")
    seed_all(SEED)
    expected = torch.nn.Parameter(torch.randn(8)).detach().numpy()
    np.testing.assert_array_equal(np.asarray(weight), expected)


def test_a_forward_that_computes_is_not_read(tmp_path: Path) -> None:
    program = tmp_path / "reference" / "level2" / "scale_rows.py"
    program.parent.mkdir(parents=True)
    program.write_text(REFERENCE, encoding="utf-8")
    tasks = [read_task(program)]
    (answer,), *_ = gather_answers([_record("scale_rows#3", "torch.relu(x)")], tasks, tmp_path / "a")
    reading = _reading(tasks[0], answer)
    assert reading.task is tasks[0] and not reading.readable


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
    (answer,), *_ = gather_answers([record], tasks, tmp_path / "a")
    assert _reading(tasks[0], answer).task is tasks[0]  # bench_kernelhive: no binding replay
    task = _reading(tasks[0], answer, replay_binding=True).task
    assert isinstance(task, WeightedTask) and task.post == (("unsqueeze", (1,)),)
