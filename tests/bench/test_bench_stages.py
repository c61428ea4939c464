"""Answers through the extract and compile stages, in every answer format, on the bundled suite; the naming of an
answers folder. (Correctness on the simulator: test_bench_main_job.py, test_bench_integrity.py.)"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bench.harness import Answer, EvalOptions, collect_answers, evaluate
from bench.suites import find_task, load_suite

TASKS = load_suite("bundled")
FAST = EvalOptions(static_shapes=False)


def sqrt_task():
    return find_task(TASKS, "sqrt")


def project_files(task) -> dict[str, str]:
    root = Path(task.solution)
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*")) if p.is_file()}


def three_file_answer(task) -> str:
    files = project_files(task)
    parts = ["Here is my plan.\n"]
    for rel, text in files.items():
        if rel.endswith(".json"):
            continue
        parts.append(f"=== {rel} ===\n```cpp\n{text}\n```\n")
    return "\n".join(parts)


def six_string_answer(task) -> str:
    files = project_files(task)
    kernel = task.kernel_name
    fields = {"project_json_src": files[f"{kernel}.json"], "host_tiling_src": files[f"op_host/{kernel}_tiling.h"],
              "host_operator_src": files[f"op_host/{kernel}.cpp"], "kernel_src": files[f"op_kernel/{kernel}.cpp"],
              "python_bind_src": "", "model_src": ""}
    body = "\n".join(f"{k} = {v!r}" for k, v in fields.items())
    return f"Reasoning first.\n```python\n{body}\n```\n"


def test_reference_solution_compiles_and_waits_for_the_simulator() -> None:
    task = sqrt_task()
    v, = evaluate(task, [Answer(task.name, "ref", task.solution)], FAST)
    assert (v.form, v.extracted, v.compiled) == ("project", True, True)
    assert not [d for d in v.diagnostics if d.severity == "error"]
    assert len(v.cases) == len(task.cases)
    if v.correct is None:  # until the simulator lands, correctness is not judged, and the verdict says why
        assert v.failure == "not-evaluated" and "not simulated" in v.reason


def test_every_answer_format_is_read(tmp_path: Path) -> None:
    task = sqrt_task()
    (tmp_path / "three.md").write_text(three_file_answer(task))
    (tmp_path / "six.md").write_text(six_string_answer(task))
    shutil.copytree(task.solution, tmp_path / "proj")
    answers = [Answer(task.name, n, str(tmp_path / f)) for n, f in (("3", "three.md"), ("6", "six.md"), ("p", "proj"))]
    forms = {v.sample: (v.form, v.compiled, v.reason) for v in evaluate(task, answers, FAST)}
    assert forms["3"][:2] == ("npukernelbench", True), forms["3"]
    assert forms["6"][:2] == ("multikernelbench", True), forms["6"]
    assert forms["p"][:2] == ("project", True), forms["p"]


@pytest.mark.parametrize(("text", "reason"), [
    ("I could not do it.", "no answer in a known format"),
    ("<kernel_impl>\nno code\n</kernel_impl>", "no ```cpp block inside <kernel_impl>"),
    ("```python\nkernel_src = compute()\n```", "kernel_src is not a plain string literal"),
    ("```python\nkernel_src = 'x'\n```", "does not assign host_tiling_src, host_operator_src, project_json_src"),
])
def test_malformed_answers_are_format_failures_with_a_reason(tmp_path: Path, text: str, reason: str) -> None:
    path = tmp_path / "a.md"
    path.write_text(text)
    v, = evaluate(sqrt_task(), [Answer("sqrt", "0", str(path))], FAST)
    assert (v.stage, v.failure, v.extracted, v.compiled) == ("extract", "format", False, False)
    assert reason in v.reason


def test_compile_errors_keep_every_diagnostic(tmp_path: Path) -> None:
    task = sqrt_task()
    answer = tmp_path / "proj"
    shutil.copytree(task.solution, answer)
    kernel = answer / "op_kernel" / f"{task.kernel_name}.cpp"
    text = kernel.read_text()
    assert " Sqrt(y, x, n);" in text
    kernel.write_text(text.replace(" Sqrt(y, x, n);", " Sqrtt(y, x, n);"))
    v, = evaluate(task, [Answer(task.name, "0", str(answer))], FAST)
    assert (v.stage, v.failure, v.extracted, v.compiled, v.correct) == ("compile", "compile", True, False, None)
    assert any(d.code == "ASC100" for d in v.diagnostics)
    assert "Sqrtt" in v.reason and "[ASC100]" in v.reason


def test_misnamed_kernel_entry_fails_to_compile(tmp_path: Path) -> None:
    task = sqrt_task()
    answer = tmp_path / "proj"
    shutil.copytree(task.solution, answer)
    kernel = answer / "op_kernel" / f"{task.kernel_name}.cpp"
    kernel.write_text(kernel.read_text().replace(f"void {task.kernel_name}(", "void my_sqrt("))
    v, = evaluate(task, [Answer(task.name, "0", str(answer))], FAST)
    # the project rules say it for an op project (ASC801); the harness itself for a kernel-only answer
    assert v.failure == "compile" and f"'{task.kernel_name}'" in v.reason and "'my_sqrt'" in v.reason


def test_answers_folder_naming(tmp_path: Path) -> None:
    (tmp_path / "sqrt").mkdir()
    (tmp_path / "sqrt" / "0.md").write_text("x")
    (tmp_path / "sqrt" / "1.py").write_text("x")
    shutil.copytree(sqrt_task().solution, tmp_path / "sqrt" / "2")
    (tmp_path / "add.md").write_text("x")
    (tmp_path / "add__3.md").write_text("x")
    case = sqrt_task().cases[1].id
    (tmp_path / f"sqrt@{case}").mkdir()
    (tmp_path / f"sqrt@{case}" / "0.md").write_text("x")
    (tmp_path / "no_such_task.md").write_text("x")
    (tmp_path / "notes.png").write_bytes(b"")
    answers, unmatched = collect_answers(tmp_path, TASKS)
    got = sorted((a.task, a.sample, a.case or "") for a in answers)
    assert got == sorted([("sqrt", "0", ""), ("sqrt", "1", ""), ("sqrt", "2", ""), ("add", "0", ""),
                          ("add", "3", ""), ("sqrt", "0", case)])
    assert unmatched == ["no_such_task.md: no task named 'no_such_task'"]
    keys = {a.digest() for a in answers}
    assert len(keys) >= 2  # the key hashes the content: an edited answer is evaluated anew


def test_kernel_only_answer_must_define_the_launched_entry(tmp_path: Path) -> None:
    task = sqrt_task()
    kernel = (Path(task.solution) / "op_kernel" / f"{task.kernel_name}.cpp").read_text()
    path = tmp_path / "k.md"
    path.write_text("<kernel_impl>\n```cpp\n" + kernel.replace(f"void {task.kernel_name}(", "void my_sqrt(")
                    + "\n```\n</kernel_impl>\n")
    v, = evaluate(task, [Answer(task.name, "0", str(path))], FAST)
    assert v.form == "npukernelbench-kernel"
    assert v.failure == "compile" and f"no kernel entry '{task.kernel_name}'" in v.reason and "'my_sqrt'" in v.reason


def test_multikernelbench_model_that_computes_the_op_arguments_is_not_judged(tmp_path: Path) -> None:
    from bench.harness.stages.extract import model_passes_inputs

    through = "class ModelNew:\n    def forward(self, x, y):\n        return custom_ops_lib.add_custom(x, y)\n"
    weights = "class ModelNew:\n    def forward(self, x):\n        return custom_ops_lib.add_custom(x, self.w)\n"
    assert model_passes_inputs(f"```python\nkernel_src = ''\nmodel_src = {through!r}\n```") is True
    assert model_passes_inputs(f"```python\nkernel_src = ''\nmodel_src = {weights!r}\n```") is False
    assert model_passes_inputs("```python\nkernel_src = ''\n```") is None
    task = find_task(TASKS, "add")
    answer = six_string_answer(task).replace("model_src = ''", f"model_src = {weights!r}")
    (tmp_path / "a.md").write_text(answer)
    v, = evaluate(task, [Answer("add", "0", str(tmp_path / "a.md"))], FAST)
    assert v.compiled and v.correct is None and "ModelNew computes the op's arguments" in v.reason
