"""The bundled task suite (bench/tasks): schema, references, and the static checker over the solutions.

The references are checked against an independent computation: torch on CPU (tests/bench/task_oracles.py).
ascendc-check runs here on the widest case of one task per category, the simulator on the smallest case of every
task; `python -m bench.tasks.validate --static --sim` checks every case of every task both ways.
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

from bench.tasks.validate import (  # noqa: E402
    load_reference,
    load_task,
    normalised_case,
    reference_problems,
    run_reference,
    solution_problems,
    task_dirs,
)

TASKS = [load_task(p) for p in task_dirs()]
IDS = [t.name for t in TASKS]


def test_suite_size():
    levels: dict[int, int] = {}
    for t in TASKS:
        levels[t.spec.get("level", 0)] = levels.get(t.spec.get("level", 0), 0) + 1
    assert TASKS, "no tasks found under bench/tasks"
    names = [t.name for t in TASKS]
    assert len(set(names)) == len(names), "task names must be unique over the suite"
    op_types = [t.spec.get("op_type") for t in TASKS]
    assert len(set(op_types)) == len(op_types), "op types must be unique over the suite"


@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_schema(task):
    assert task.problems == []


@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_solution_files(task):
    op = task.op_name
    sol = task.path / "solution"
    for rel in (f"{op}.json", f"op_host/{op}.cpp", f"op_host/{op}_tiling.h", f"op_kernel/{op}.cpp"):
        assert (sol / rel).is_file(), f"solution/{rel} missing"
    kernel = (sol / f"op_kernel/{op}.cpp").read_text()
    assert f"void {op}(" in kernel, f"kernel entry {op} missing"


@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_reference_runs_on_every_case(task):
    assert reference_problems(task) == []


@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_reference_matches_oracle(task):
    """Every reference agrees with an independent computation on every case."""
    from task_oracles import ORACLES, compare

    assert task.name in ORACLES, f"no independent check of {task.name}'s reference in tests/bench/task_oracles.py"
    oracle = ORACLES[task.name]
    module = load_reference(task)
    for case in task.spec["cases"]:
        inputs, expected = run_reference(task, case, module)
        attrs = normalised_case(task, case)["attrs"]
        got = oracle(inputs, attrs)
        for name, want in got.items():
            compare(task, case["id"], name, expected[name], want)


def _widest_case(task):
    return max(task.spec["cases"], key=lambda c: sum(int(np.prod(s)) for s in c["shapes"].values()))


def _representatives():
    """The first task of every (level, category): each kernel family once; `python -m bench.tasks.validate
    --static` checks every case of every task (a few minutes)."""
    seen: dict[tuple[int, str], object] = {}
    for t in TASKS:
        seen.setdefault((t.spec.get("level", 0), t.spec.get("category", "")), t)
    return list(seen.values())


@pytest.mark.parametrize("task", _representatives(), ids=lambda t: t.name)
def test_solution_clean_under_ascendc_check(task):
    case = _widest_case(task)
    assert solution_problems(task, [case]) == {case["id"]: []}


def _smallest_case(task):
    return min(task.spec["cases"], key=lambda c: sum(int(np.prod(s)) for s in c["shapes"].values()))


@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_solution_correct_on_simulator(task):
    """The solution on the simulator against the reference, on the task's smallest case (every case:
    `python -m bench.tasks.validate --sim`). A solution that needs an API the simulator does not model yet is
    skipped with the API's name; any other finding or mismatch fails."""
    pytest.importorskip("rust_sim._sim")
    from bench.tasks.validate import simulation_problems

    case = _smallest_case(task)
    problems = simulation_problems(task, [case])[case["id"]]
    missing = sorted({p.split("does not model ")[1].split(";")[0] for p in problems if "does not model" in p})
    if missing:
        pytest.skip(f"the simulator does not model {', '.join(missing)} yet")
    assert problems == []
