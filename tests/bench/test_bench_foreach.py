"""NPUKernelBench's foreach tasks through the harness: a list of tensors as one input and one output.

The task's prepare_inputs.py draws a Python list of tensors for the DYNAMIC input, its Model returns a list (one
tensor or more); the harness hands the lists to the simulator as tensor lists, poisons and counts each output
tensor, and compares them one by one. The reference answers (correct on hardware) must be judged correct.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

NPUKERNELBENCH = Path("/work/ext/NPUKernelBench")
needs_npukernelbench = pytest.mark.skipif(not NPUKERNELBENCH.is_dir(),
                                          reason=f"no NPUKernelBench checkout at {NPUKERNELBENCH}")


def first_case_verdict(name: str) -> object:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    from bench.harness.answers import reference_answers
    from bench.harness.evaluate import EvalOptions, evaluate_answer
    from bench.suites.npukernelbench import read_task

    folder = next(NPUKERNELBENCH.glob(f"tasks/level*/*/{name}"))
    task = read_task(folder)
    task = dataclasses.replace(task, cases=task.cases[:1])
    return evaluate_answer(task, reference_answers([task])[0], EvalOptions(draws=1, performance=False))


@needs_npukernelbench
def test_the_list_input_and_output_are_declared_dynamic() -> None:
    from bench.suites.npukernelbench import read_task

    task = read_task(next(NPUKERNELBENCH.glob("tasks/level*/*/ForeachAddScalarList")))
    assert [d.is_list for d in task.inputs] == [True, False]
    assert [d.is_list for d in task.outputs] == [True]


@needs_npukernelbench
def test_a_scalar_list_answer_is_judged_correct() -> None:
    # x is a list of one float16 tensor, the scalars a float32 tensor: the output's dtype follows x's column
    verdict = first_case_verdict("ForeachAddScalarList")
    assert verdict.correct, [(c.status, c.reason) for c in verdict.cases]  # type: ignore[attr-defined]
