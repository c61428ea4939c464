"""One-shot examples: a bundled task's reference solution, written in the answer form the prompt asks for.

MultiKernelBench's prompts take the shot from the task's own category (activation: leaky_relu, loss: mse_loss,
normalization: layer_norm, ...), which is what lifted its activation pass rate from near zero; NPUKernelBench
shows one fixed example. Here the shot is the bundled task closest to the asked one: the same category (the
public suites' category names mapped onto ours), else the same level, else the first with a solution; never
the task itself, so a prompt never holds its own answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from llm.prompts.answers import project_files, render_multikernelbench, render_project

if TYPE_CHECKING:
    from bench.suites import Task

# public suites' categories -> the bundled suite's (bench/tasks/README.md)
CATEGORY_MAP = {
    "normalization": "norm", "optimizer": "optim", "activation": "activation", "loss": "loss",
    "reduce": "reduce", "math": "math", "matmul": "matmul", "attention": "attention", "index": "index",
    "broadcast": "math", "fuse": "fused", "comparison": "comparison", "condition": "comparison",
    "tensorcreation": "creation", "tensormove": "index", "foreach": "foreach", "norm": "norm", "optim": "optim",
    "mask": "mask", "gmm": "matmul", "linalg": "matmul", "sort": "index",
}


@dataclass(frozen=True)
class Shot:
    task: str  # the bundled task whose solution it is
    category: str
    prompt: str  # what that task's prompt said (description and case)
    answer: str  # its solution in the asked form


def bundled_category(category: str) -> str:
    """A suite's category in the bundled suite's words (`npukernelbench_level1` and such have no category)."""
    return CATEGORY_MAP.get(category.lower().replace("_", ""), category.lower())


@cache
def _bundled() -> tuple[Task, ...]:
    from bench.suites import load_suite

    return tuple(t for t in load_suite("bundled") if t.solution)


def shot_for(task: Task, form: str, pool: tuple[Task, ...] | None = None) -> Shot | None:
    """The one-shot example for `task` in answer `form` (`project` or `multikernelbench`), from `pool`
    (default: the bundled tasks with a solution); None when the pool holds no other task."""
    candidates = [t for t in (pool if pool is not None else _bundled()) if t.solution and
                  not (t.suite == task.suite and t.name == task.name)]
    if not candidates:
        return None
    wanted = bundled_category(task.category)
    chosen = (next((t for t in candidates if t.category == wanted), None)
              or next((t for t in candidates if t.level == task.level), None) or candidates[0])
    key = (chosen.suite, chosen.name, form)
    if key not in _RENDERED:  # one shot serves many prompts: render it once
        _RENDERED[key] = Shot(chosen.name, chosen.category, _shown(chosen), render_solution(chosen, form))
    return _RENDERED[key]


_RENDERED: dict[tuple[str, str, str], Shot] = {}


def _shown(task: Task) -> str:
    from bench.suites.prompt import prompt_parts

    parts = prompt_parts(task)
    return f"{parts['description']}\n\n{parts['case']}"


def render_solution(task: Task, form: str) -> str:
    """`task`'s reference solution as an answer in `form`."""
    if task.solution is None:
        raise ValueError(f"task {task.name} has no reference solution")
    files = project_files(task.solution)
    if form == "multikernelbench":
        inputs = [i.name for i in task.inputs]
        outputs = [(o.name, _same_shape_input(task, o.name)) for o in task.outputs]
        return render_multikernelbench(files, task.op_type, inputs, outputs, [(a.name, a.type) for a in task.attrs])
    return render_project(files)


def _same_shape_input(task: Task, output: str) -> str | None:
    """The input whose shape the output has in every case (the binding allocates it with empty_like), or None
    (the output's shape is passed in)."""
    if not task.cases:
        return task.inputs[0].name if task.inputs else None
    from bench.harness.evaluate import draw

    for candidate in task.inputs:
        if all(_output_shape(draw(task, case, 0), output) == case.shapes.get(candidate.name) for case in task.cases[:2]):
            return candidate.name
    return None


def _output_shape(drawn: tuple[object, dict[str, object]], output: str) -> tuple[int, ...] | None:
    expected = drawn[1].get(output)
    shape = getattr(expected, "shape", None)
    return tuple(shape) if shape is not None else None
