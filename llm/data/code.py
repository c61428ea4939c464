"""Code-centric records: each bundled task's reference solution, with reasoning derived from its IR.

One record per task and case (the case's numbers change the plan), in the NPUKernelBench style (the op
project's three files), and one per task in the MultiKernelBench style (six strings). A record is kept only
when the harness accepts the solution: it extracts, compiles with no error, has no static finding with the
case's shapes, and, once the simulator is there, is correct on every case.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from llm.data.records import Record, message, task_key

if TYPE_CHECKING:
    from bench.suites import Task


def answer_verdict(task: Task, answer_path: str, simulate: bool = True) -> tuple[bool, str]:
    """Whether the harness accepts an answer (a file or an op project folder) to `task`, and why not. With
    `simulate`, every stage runs (correctness on the simulator where the harness has one); without, the
    extract and compile stages and the static check with each case's shapes."""
    from bench.harness import Answer, evaluate
    from bench.harness.evaluate import draw
    from bench.harness.stages.compile import compile_answer, static_check, tiling_inputs
    from bench.harness.stages.extract import extract

    answer = Answer(task.name, "check", answer_path)
    if simulate:
        (verdict,) = evaluate(task, [answer])
        if not verdict.compiled:
            return False, f"does not compile: {verdict.reason}"
        if verdict.correct is False:
            return False, f"not correct: {verdict.reason}"
        for case in verdict.cases:
            errors = [f for f in case.static_findings if f.severity == "error"]
            if errors:
                return False, f"case {case.case}: {errors[0].render()}"
        return True, ""
    extracted = extract(task, answer)
    if not extracted.ok:
        return False, f"does not extract: {extracted.problem}"
    compiled = compile_answer(task, extracted)
    if not compiled.ok:
        return False, f"does not compile: {compiled.reason}"
    for case in task.cases:
        inputs, expected = draw(task, case, 0)
        shapes = tiling_inputs(task, case, inputs, expected, compiled)
        errors = [f for f in static_check(compiled, shapes) if f.severity == "error"] if shapes is not None else []
        if errors:
            return False, f"case {case.id}: {errors[0].render()}"
    return True, ""


def solution_verdict(task: Task, simulate: bool = True) -> tuple[bool, str]:
    """Whether the harness accepts the task's reference solution, and why not."""
    if task.solution is None:
        return False, "no reference solution"
    return answer_verdict(task, task.solution, simulate)


def records(task: Task, max_cases: int = 4, simulate: bool = True) -> Iterator[Record]:
    """The task's code-centric records (none when its solution is not accepted)."""
    from llm.data.reasoning import reasoning
    from llm.prompts import kernel_prompt
    from llm.prompts.answers import project_files
    from llm.prompts.shots import render_solution

    if task.solution is None:
        return
    ok, _ = solution_verdict(task, simulate)
    if not ok:
        return
    tier = "simulator" if simulate and simulator_available() else "static"
    project = render_solution(task, "project")
    # near-duplicate clustering compares kernels (the host sides of the bundled tasks are one template)
    kernel = "\n".join(text for rel, text in sorted(project_files(task.solution).items()) if rel.startswith("op_kernel/"))
    for case in task.cases[:max_cases]:
        text, _ = reasoning(task, case)
        prompt = kernel_prompt(task, "npukernelbench", case=case, shot=False)
        yield Record(f"code/{task.name}/{case.id}", "code", "sft", task_key(task.name),
                     [*prompt.messages, message("assistant", f"{text}\n\n{project}")], task=task.name,
                     suite=task.suite, category=task.category, level=task.level or 0, tier=tier,
                     code=kernel)
    if task.cases:
        case = task.cases[0]
        text, _ = reasoning(task, case)
        prompt = kernel_prompt(task, "multikernelbench", case=case, shot=False)
        six = render_solution(task, "multikernelbench")
        yield Record(f"code/{task.name}/multikernelbench", "code", "sft", task_key(task.name),
                     [*prompt.messages, message("assistant", f"{text}\n\n{six}")], task=task.name, suite=task.suite,
                     category=task.category, level=task.level or 0, tier=tier, code=kernel)



def simulator_available() -> bool:
    """Whether the harness judges correctness on the simulator in this process."""
    from bench.harness.stages.correctness import simulator_available as available

    return available()
