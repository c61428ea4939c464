"""NPUKernelBench cases name their shapes in test_cases.csv columns, not in Case.shapes, so --max-elements never
applied to them: StridesliceNegConcatV2's case 3 (2^29 float16 elements) was drawn and took its worker past
5.9 GB before anything ran. The rows' shape columns are counted now (bench/suites/csv_shapes.py), against the
suite's own limit (2^27: its cases up to that size run here) unless --max-elements is given.
"""

from __future__ import annotations

from bench.harness.evaluate import EvalOptions, evaluate_case
from bench.suites.csv_shapes import shape_elements
from bench.suites.model import Case
from bench.suites.npukernelbench import NPUKernelBenchTask


def test_shape_columns_are_summed() -> None:
    assert shape_elements({"case_id": 3, "shape": "[1, 512, 1024, 1024]", "dtype": "float16"}) == 1 << 29
    assert shape_elements({"x1_shape": "[4, 8]", "x2_shape": [8], "dim": 1}) == 40
    assert shape_elements({"input_shapes": "[[2, 3], [4]]"}) == 10
    assert shape_elements({"n": 32, "dtype": "float32"}) is None  # no shape column: not known
    assert shape_elements({"shape": "not a list"}) is None


def _task() -> NPUKernelBenchTask:
    cases = (Case("0", params={"shape": "[8, 16]"}), Case("3", params={"shape": "[1, 512, 1024, 1024]"}))
    return NPUKernelBenchTask(suite="npukernelbench", name="Big", level=1, category="Math", description="",
                              op_type="Big", kernel_name="big", cases=cases)


def test_a_case_over_the_suites_limit_is_not_drawn() -> None:
    task = _task()
    assert task.input_elements(task.cases[0]) == 128
    result = evaluate_case(task, task.cases[1], None, EvalOptions())  # type: ignore[arg-type]
    assert result.status == "skipped" and "536,870,912 input elements" in result.reason
    assert f"{NPUKernelBenchTask.max_elements:,}" in result.reason
    # a limit given on the command line wins over the suite's
    given = evaluate_case(task, task.cases[0], None, EvalOptions(max_elements=100))  # type: ignore[arg-type]
    assert given.status == "skipped" and "limit of 100 " in given.reason
