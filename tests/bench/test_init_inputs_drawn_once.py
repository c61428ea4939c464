"""An NPUKernelBench reference is built with the draw's own get_init_inputs values, not drawn again.

CrossEntropyLoss's get_init_inputs draws its class weight with torch.rand. The op got the weight of the draw
(ModelNew hands it to the kernel), while the reference drew get_init_inputs a second time, in another random
state, and weighed its loss with another weight: every case with a weight was 'wrong' by 0.2% to 530%.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from bench.suites import load_suite

NPUKERNELBENCH = Path(os.environ.get("NPUKERNELBENCH", "/work/ext/NPUKernelBench"))


@pytest.mark.skipif(not NPUKERNELBENCH.is_dir(), reason=f"no NPUKernelBench checkout at {NPUKERNELBENCH}")
def test_reference_uses_the_weight_the_op_gets() -> None:
    torch = pytest.importorskip("torch")
    task = next(t for t in load_suite("npukernelbench", NPUKERNELBENCH) if t.name == "CrossEntropyLoss")
    case = task.case("0")  # 4 x 10, weight present, mean, no ignore_index, no smoothing
    inputs = task.make_inputs(case, 3)
    first = task.reference(case, inputs)["loss"]
    torch.rand(100)  # the global random state moves on, as other draws move it in a run
    assert np.array_equal(task.reference(case, inputs)["loss"], first)
    x = np.asarray(inputs.values["input"], dtype=np.float64)
    t = np.asarray(inputs.values["target"]).astype(np.int64)
    w = np.asarray(inputs.values["weight"], dtype=np.float64)
    logp = x - x.max(axis=1, keepdims=True)
    logp = logp - np.log(np.exp(logp).sum(axis=1, keepdims=True))
    rows = np.arange(len(t))
    expected = -(logp[rows, t] * w[t]).sum() / w[t].sum()
    assert np.allclose(np.asarray(first, dtype=np.float64), expected, rtol=1e-5)
