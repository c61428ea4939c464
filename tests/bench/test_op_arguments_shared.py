"""The op's arguments ModelNew passes on unchanged are the drawn arrays themselves, not second copies: a
2^29-element case (StridesliceNegConcatV2 case 3, InplaceAttnSoftmax case 4) holds 1 to 2 GiB per array and
per draw. A tensor ModelNew converts, views or writes in place is read anew."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from bench.suites.torch_ref import DrawnTensors, inputs_as_tensors, tensors_as_inputs  # noqa: E402

NPUKERNELBENCH = Path("/work/ext/NPUKernelBench")


def test_unchanged_arguments_are_the_drawn_arrays() -> None:
    drawn = tensors_as_inputs((torch.randn(4, 3), [torch.ones(2), torch.zeros(5)], torch.arange(6), 2.5),
                              ["x", "xs", "i", "alpha"], seed=1)
    given = inputs_as_tensors(drawn)
    x, xs, i, alpha = given
    passed = DrawnTensors(drawn, given)  # before the benchmark code runs
    i.mul_(3)  # written in place by it: its values are no longer the drawn ones
    assert passed.array(x) is drawn.values["x"]
    shared = passed.array(xs)
    assert shared[0] is drawn.values["xs"][0] and shared[1] is drawn.values["xs"][1]
    written = passed.array(i)
    assert written is not drawn.values["i"] and written.tolist() == [0, 3, 6, 9, 12, 15]
    view = passed.array(x.t())
    assert not np.shares_memory(view, drawn.values["x"]) and np.array_equal(view, drawn.values["x"].T)
    converted = passed.array(x.to(torch.float16))
    assert converted.dtype == np.float16
    assert passed.array(alpha) == 2.5 and passed.array(None) is None


@pytest.mark.skipif(not NPUKERNELBENCH.is_dir(), reason=f"no NPUKernelBench checkout at {NPUKERNELBENCH}")
def test_a_float16_input_modelnew_passes_on_is_not_copied() -> None:
    from bench.suites.npukernelbench import read_task

    task = read_task(NPUKERNELBENCH / "tasks/level1/Math/StridesliceNegConcatV2")
    small = {"shape": "[1, 2, 8, 16]"}
    # ModelNew: input.to(torch.float16), the same tensor for a float16 draw, a new one for bfloat16
    half = dataclasses.replace(task.cases[0], params={**task.cases[0].params, **small, "dtype": "float16"})
    op = task.make_inputs(half, 0)
    assert op.reference is not None
    assert op.values["input"] is op.reference.values["input"]
    bf16 = dataclasses.replace(task.cases[0], params={**task.cases[0].params, **small, "dtype": "bfloat16"})
    op = task.make_inputs(bf16, 0)
    assert op.reference is not None and op.dtypes["input"] == "float16"
    assert op.values["input"].dtype == np.float16 and op.reference.values["input"].dtype == np.float32
