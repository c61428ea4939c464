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


def solution_verdict(task: Task) -> tuple[bool, str]:
    """Whether the harness accepts the task's reference solution, and why not."""
    from bench.harness import evaluate, reference_answers

    (verdict,) = evaluate(task, reference_answers([task]))
    if not verdict.compiled:
        return False, f"does not compile: {verdict.reason}"
    if verdict.correct is False:
        return False, f"not correct: {verdict.reason}"
    for case in verdict.cases:
        errors = [f for f in case.static_findings if f.severity == "error"]
        if errors:
            return False, f"case {case.case}: {errors[0].render()}"
    return True, ""


def records(task: Task, max_cases: int = 4) -> Iterator[Record]:
    """The task's code-centric records (none when its solution is not accepted)."""
    from llm.data.reasoning import reasoning
    from llm.prompts import kernel_prompt
    from llm.prompts.shots import render_solution

    if task.solution is None:
        return
    ok, _ = solution_verdict(task)
    if not ok:
        return
    project = render_solution(task, "project")
    for case in task.cases[:max_cases]:
        text, _ = reasoning(task, case)
        prompt = kernel_prompt(task, "npukernelbench", case=case, shot=False)
        yield Record(f"code/{task.name}/{case.id}", "code", "sft", task_key(task.name),
                     [*prompt.messages, message("assistant", f"{text}\n\n{project}")], task=task.name,
                     suite=task.suite, category=task.category, level=task.level or 0, tier="static",
                     code=project)
    if task.cases:
        case = task.cases[0]
        text, _ = reasoning(task, case)
        prompt = kernel_prompt(task, "multikernelbench", case=case, shot=False)
        six = render_solution(task, "multikernelbench")
        yield Record(f"code/{task.name}/multikernelbench", "code", "sft", task_key(task.name),
                     [*prompt.messages, message("assistant", f"{text}\n\n{six}")], task=task.name, suite=task.suite,
                     category=task.category, level=task.level or 0, tier="static", code=project)
