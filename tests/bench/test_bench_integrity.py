"""Evaluation integrity (issue 31): adversarial answers written by the team, each in the bundled suite's op-project
form, each failing with its reason, while the reference solution passes every check. The answers are the
reference `add` solution with its kernel changed in one place (`ADVERSARIES`), run on the simulator."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import numpy as np
import pytest

from bench.harness import Answer, EvalOptions, evaluate
from bench.harness.evaluate import case_seed, draw
from bench.harness.stages.correctness import CHECKS, simulator_available
from bench.suites import find_task, load_suite

pytestmark = pytest.mark.skipif(not simulator_available(), reason="the simulator (passes.sim) is not available")

SOURCE = Path(__file__).resolve().parents[2] / "bench" / "tasks" / "level1" / "math" / "add"
KERNEL = "op_kernel/add_custom.cpp"
ONE_CASE = '''
[[cases]]
id = "one"
dtype = "float32"
shapes = { x1 = [1], x2 = [1] }
'''

# name -> (what is replaced in the reference kernel, by what, the check it must fail, words of the reason)
ADVERSARIES = {
    "writes_nothing": ("    op.Process();\n", "", "outputs_written", "no core wrote"),
    "writes_zeros": ("        Add(y, x1, x2, n);", "        Duplicate(y, static_cast<T>(0), n);", "follows_inputs",
                     "do not change with the inputs"),
    "copies_input": ("        Add(y, x1, x2, n);", "        Muls(y, x1, static_cast<T>(1), n);", "within_tolerance",
                     "elements differ"),
    "first_tile_only": ("pos < coreLength; pos += tileLength", "pos < coreLength && pos == 0; pos += tileLength",
                        "outputs_written", "no core wrote"),
    "writes_input": ("        DataCopyPad(yGm[pos], yLocal, params);",
                     "        DataCopyPad(yGm[pos], yLocal, params);\n        DataCopyPad(x1Gm[pos], yLocal, params);",
                     "inputs_unchanged", "writes into an input the task does not update in place"),
    "core0_only": ("        tileLength = td.tileLength;", "        tileLength = td.tileLength;\n"
                   "        if (GetBlockIdx() != 0) { coreLength = 0; }", "outputs_written", "no core wrote"),
}
LOOPS_FOREVER = ("pos < coreLength; pos += tileLength", "pos < coreLength; pos += 0")


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list]:
    root = tmp_path_factory.mktemp("suite")
    folder = root / "level1" / "math" / "add"
    shutil.copytree(SOURCE, folder)
    with open(folder / "task.toml", "a") as fh:
        fh.write(ONE_CASE)
    return root, load_suite("bundled", root)


def adversary(tmp: Path, solution: str, name: str, old: str, new: str) -> str:
    folder = tmp / name
    shutil.copytree(solution, folder)
    kernel = folder / KERNEL
    text = kernel.read_text()
    assert old in text, f"{name}: the reference kernel changed; update ADVERSARIES"
    kernel.write_text(text.replace(old, new))
    return str(folder)


OPTIONS = EvalOptions(static_shapes=False, instruction_budget=5_000_000, performance=False)


def test_reference_solution_passes_every_check(suite: tuple[Path, list]) -> None:
    _, tasks = suite
    task = find_task(tasks, "add")
    v, = evaluate(task, [Answer("add", "ref", task.solution)], OPTIONS)
    assert v.correct is True, v.reason
    for case in v.cases:
        assert case.status == "pass" and case.checks == dict.fromkeys(CHECKS, True)
        assert case.unwritten == {"y": 0}


@pytest.mark.parametrize("name", sorted(ADVERSARIES))
def test_adversarial_answer_fails_with_its_reason(suite: tuple[Path, list], tmp_path: Path, name: str) -> None:
    _, tasks = suite
    task = find_task(tasks, "add")
    old, new, check, words = ADVERSARIES[name]
    path = adversary(tmp_path, task.solution, name, old, new)
    v, = evaluate(task, [Answer("add", name, path)], OPTIONS)
    assert v.compiled, v.reason
    assert v.correct is False, f"{name} passed"
    failed = [c for c in v.cases if c.status != "pass"]
    assert failed and all(c.checks.get(check) is False for c in failed[:1]), (name, [c.checks for c in failed])
    assert words in v.reason, v.reason
    assert v.checks[check] is False  # the verdict lists the checks passed over all cases


def test_constant_matching_one_draw_fails(suite: tuple[Path, list], tmp_path: Path) -> None:
    """An answer that writes the value one seed's draw expects: it matches that draw and not the other."""
    _, tasks = suite
    task = find_task(tasks, "add")
    one = task.case("one")
    _, expected = draw(task, one, case_seed(task, one, 0))
    value = float(np.asarray(expected["y"]).reshape(-1)[0])
    path = adversary(tmp_path, task.solution, "constant", "        Add(y, x1, x2, n);",
                     f"        Duplicate(y, static_cast<T>({value!r}), n);")
    v, = evaluate(task, [Answer("add", "constant", path, "one")], OPTIONS)
    assert v.correct is False
    case, = v.cases
    assert case.checks["draws_agree"] is False and case.checks["follows_inputs"] is False
    assert "do not change with the inputs" in v.reason
    assert v.cases[0].outputs["draw0"]["y"]["ok"] and not v.cases[0].outputs["draw1"]["y"]["ok"]


def test_answer_that_loops_until_the_budget_is_neither_correct_nor_fast(suite: tuple[Path, list],
                                                                          tmp_path: Path) -> None:
    _, tasks = suite
    task = find_task(tasks, "add")
    path = adversary(tmp_path, task.solution, "loops_forever", *LOOPS_FOREVER)
    options = EvalOptions(static_shapes=False, instruction_budget=100_000)
    v, = evaluate(task, [Answer("add", "loop", path, "one")], options)
    assert v.correct is False and v.fast is not True and v.cases[0].budget_cut
    assert v.failure == "runtime" and "[ASC957]" in v.reason and v.checks["within_budget"] is False


WRITES_INPUT = ADVERSARIES["writes_input"][:2]
# writes back the x1 element it holds: the input's bytes end unchanged, so only the simulator's finding sees it
RESTORES_INPUT = ("        DataCopyPad(yGm[pos], yLocal, params);",
                  "        DataCopyPad(yGm[pos], yLocal, params);\n        x1Gm.SetValue(pos, x1Gm.GetValue(pos));")


def _write_line(path: str, marker: str) -> int:
    lines = (Path(path) / KERNEL).read_text().splitlines()
    return next(i + 1 for i, line in enumerate(lines) if marker in line)


@pytest.mark.parametrize("change,marker", [(WRITES_INPUT, "DataCopyPad(x1Gm[pos]"), (RESTORES_INPUT, "x1Gm.SetValue")],
                         ids=["changes_it", "restores_it"])
def test_a_write_into_an_input_is_marked_at_its_source_line(suite: tuple[Path, list], tmp_path: Path,
                                                            change: tuple[str, str], marker: str) -> None:
    """The reason is the simulator's finding (ASC963): the instruction's file and line, the input, the core and
    the elements, also when the bytes written are the ones the input held (the copy compare cannot see that)."""
    _, tasks = suite
    task = find_task(tasks, "add")
    path = adversary(tmp_path, task.solution, "writes", *change)
    line = _write_line(path, marker)
    v, = evaluate(task, [Answer("add", "writes", path, "one")], OPTIONS)
    assert v.correct is False and v.checks["inputs_unchanged"] is False
    assert f"add_custom.cpp:{line}:" in v.reason and "[ASC963]" in v.reason, v.reason
    assert "input 'x1'" in v.reason and "[core 0" in v.reason, v.reason
    assert {(f.code, f.line) for f in v.cases[0].sim_findings if f.code == "ASC963"} == {("ASC963", line)}


def test_the_same_write_is_accepted_when_the_task_updates_that_input_in_place(suite: tuple[Path, list],
                                                                               tmp_path: Path) -> None:
    """The clean twin: the task declares x1 in place, so the writing answer computes y and passes every check."""
    _, tasks = suite
    task = dataclasses.replace(find_task(tasks, "add"), inplace=("x1",))
    path = adversary(tmp_path, task.solution, "writes", *WRITES_INPUT)
    v, = evaluate(task, [Answer("add", "writes", path, "one")], OPTIONS)
    assert v.correct is True, v.reason
    assert v.cases[0].checks == dict.fromkeys(CHECKS, True)
    assert not [f for f in v.cases[0].sim_findings if f.code == "ASC963"]


def test_the_input_copy_compare_is_the_backstop(suite: tuple[Path, list], monkeypatch: pytest.MonkeyPatch) -> None:
    """A changed input the simulator reported no write for (none should exist) still fails inputs_unchanged."""
    from bench.harness.stages import correctness

    _, tasks = suite
    task = find_task(tasks, "add")
    real = correctness.simulate

    def simulate(*args: object, **kwargs: object) -> correctness.Run:
        run = real(*args, **kwargs)
        run.changed_inputs = ["x1"]
        return run

    monkeypatch.setattr(correctness, "simulate", simulate)
    v, = evaluate(task, [Answer("add", "ref", task.solution, "one")], OPTIONS)
    assert v.correct is False and v.checks["inputs_unchanged"] is False
    assert "wrote into its input x1, which the task does not update in place" in v.reason
