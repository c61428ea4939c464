"""A MultiKernelBench checkout is judged with its own harness's tolerance (bench/suites/multikernelbench.py,
checkout_tolerance): the benchmark moved torch.allclose from 1e-2 to 1e-4 (its 0555903) after the task shapes the
KernelHive tables run at, and KernelHive's conv2d_subtract_hard_swish_max_pool_mish final, which passed on
hardware, computes Mish with a polynomial off by up to 4e-4. A made-up checkout: no data needed."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bench.suites.multikernelbench import TOLERANCE, checkout_tolerance, load_tasks

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
    # no harness file, or calls that disagree: the current benchmark's 1e-4
    assert checkout_tolerance(_checkout(tmp_path / "bare", None)) == TOLERANCE
    mixed = CORRECTNESS.format(atol="1e-02", rtol="1e-02") + CORRECTNESS.format(atol="1e-04", rtol="1e-04")
    assert checkout_tolerance(_checkout(tmp_path / "mixed", mixed)) == TOLERANCE
