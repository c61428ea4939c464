"""A MultiKernelBench checkout is judged with its own harness's tolerance (bench/suites/multikernelbench.py,
checkout_tolerance): the benchmark moved torch.allclose from 1e-2 to 1e-4 (its 0555903) after the task shapes the
KernelHive tables run at, and KernelHive's conv2d_subtract_hard_swish_max_pool_mish final, which passed on
hardware, computes Mish with a polynomial off by up to 4e-4. A made-up checkout: no data needed."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bench.harness import Answer, EvalOptions, evaluate_answer
from bench.report.table import notes_lines
from bench.suites.multikernelbench import TOLERANCE, checkout_tolerance, harness_tolerance, load_tasks

REFERENCE = """import torch

class Model(torch.nn.Module):
    def forward(self, x):
        return torch.relu(x)

def get_inputs():
    return [torch.rand(4, 8)]

def get_init_inputs():
    return []
"""

CORRECTNESS = """import torch

def check(ref_output, new_output):
    if ref_output.shape != new_output.shape:
        return False
    elif not torch.allclose(ref_output, new_output, atol={atol}, rtol={rtol}):
        return False
    return True
"""


def _checkout(root: Path, correctness: str | None) -> Path:
    (root / "reference" / "activation").mkdir(parents=True)
    (root / "reference" / "activation" / "relu.py").write_text(REFERENCE, encoding="utf-8")
    if correctness is not None:
        (root / "utils").mkdir()
        (root / "utils" / "correctness.py").write_text(correctness, encoding="utf-8")
    return root


def test_the_checkouts_allclose_tolerance_judges(tmp_path: Path) -> None:
    old = _checkout(tmp_path / "old", CORRECTNESS.format(atol="1e-02", rtol="1e-02"))
    (task,) = load_tasks(old)
    assert task.tolerance.default == (1e-2, 1e-2) and task.tolerance.mode == "allclose"
    ref = np.linspace(-1, 1, 64, dtype=np.float32)
    off = ref + np.float32(4e-4)  # a polynomial activation's error: within 1e-2, not within 1e-4
    assert task.compare(task.cases[0], {"y": ref}, {"y": off})["y"].ok
    (new,) = load_tasks(_checkout(tmp_path / "new", CORRECTNESS.format(atol="1e-04", rtol="1e-04")))
    assert not new.compare(new.cases[0], {"y": ref}, {"y": off})["y"].ok
    assert not task.notes and not new.notes  # read: nothing assumed


def test_an_unread_tolerance_is_said_not_silent(tmp_path: Path) -> None:
    """No harness file, calls that disagree, a file that does not parse: the current benchmark's 1e-4, and a note
    that every verdict on the checkout's tasks and the report carry (before, 1e-4 was taken silently)."""
    tolerance, note = checkout_tolerance(_checkout(tmp_path / "bare", None))
    assert tolerance == TOLERANCE and "tolerance assumed: atol 0.0001" in note and "cannot be read" in note
    mixed = CORRECTNESS.format(atol="1e-02", rtol="1e-02") + CORRECTNESS.format(atol="1e-04", rtol="1e-04")
    tolerance, note = checkout_tolerance(_checkout(tmp_path / "mixed", mixed))
    assert tolerance == TOLERANCE and "disagree (atol/rtol 0.0001/0.0001, 0.01/0.01)" in note
    _, note = checkout_tolerance(_checkout(tmp_path / "broken", "def check(:\n"))
    assert "does not parse" in note
    (task,) = load_tasks(tmp_path / "bare")
    assert task.notes == (checkout_tolerance(tmp_path / "bare")[1],)
    answer = tmp_path / "answer.md"
    answer.write_text("no answer here")
    verdict = evaluate_answer(task, Answer(task.name, "0", str(answer)), EvalOptions(static_shapes=False))
    assert verdict.notes == list(task.notes)
    assert notes_lines([verdict, verdict]) == [f"note (2 answers): {task.notes[0]}"]


def test_one_reading_for_a_checkout_and_a_revision() -> None:
    """sim_realworld.py reads a git revision's utils/correctness.py with the suite's function (it had a regex of its
    own that needed atol before rtol)."""
    tolerance, note = harness_tolerance("torch.allclose(a, b, rtol=1e-02, atol=1e-03)\n", "x.py")
    assert tolerance.default == (1e-3, 1e-2) and note == ""
    tolerance, note = harness_tolerance(None, "utils/correctness.py at abc of /r cannot be read (no such path)")
    assert tolerance == TOLERANCE and note.endswith("at abc of /r cannot be read (no such path)")
