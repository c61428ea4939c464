"""Answers: what is evaluated, one per task, sample and (for static-shape answers) case.

A folder of answers (`ascendir bench --answers DIR`) names each answer after its task:

    DIR/<task>/<sample>.<ext>         one answer file (.md .txt .py .answer .cpp ...), sample = its stem
    DIR/<task>/<sample>/              one answer as an op project folder (op_host/, op_kernel/)
    DIR/<task>.<ext>                  sample 0 of <task>
    DIR/<task>__<sample>.<ext>        sample <sample> of <task>

`<task>` may end in `@<case>` (`Sqrt@0/3.md`): the answer was written for that one test case (NPUKernelBench's
static-shape mode) and is evaluated on it alone. A kernel-only NPUKernelBench answer without `@<case>` is
evaluated on the task's first case, as that benchmark does by default (one case per answer). Task names match
exactly, then case-insensitively, then by kernel name (`sqrt_custom`). A file or folder whose name matches no
task is reported, not evaluated.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from bench.suites import Task, find_task

ANSWER_SUFFIXES = (".md", ".txt", ".py", ".answer", ".cpp", ".json")


@dataclass(frozen=True)
class Answer:
    """One answer to one task: a file (any answer format) or an op project folder."""

    task: str  # the task's name
    sample: str
    path: str
    case: str | None = None  # the one case the answer was written for, or None for all

    def digest(self) -> str:
        """A short hash of the answer's content (files of a folder in path order): the results key, so that an
        answer edited after a run is evaluated again."""
        h = hashlib.sha1()
        p = Path(self.path)
        files = sorted(f for f in p.rglob("*") if f.is_file()) if p.is_dir() else [p]
        for f in files:
            h.update(str(f.relative_to(p) if p.is_dir() else f.name).encode())
            try:
                h.update(f.read_bytes())
            except OSError:
                h.update(b"<unreadable>")
        return h.hexdigest()[:12]


def answer_key(suite: str, answer: Answer, variant: str = "") -> str:
    """The identity of one evaluation in a results file; `variant` (Task.variant) tells apart runs of a task on
    other cases than the benchmark's (--fit-shapes), so that resuming never mixes the two."""
    return f"{suite}:{answer.task}@{answer.case or '*'}#{answer.sample}:{answer.digest()}" + (
        f":{variant}" if variant else "")


def reference_answers(tasks: list[Task]) -> list[Answer]:
    """Each task's reference solution as its answer (sample `ref`): what `ascendir bench` evaluates by default."""
    return [Answer(t.name, "ref", t.solution) for t in tasks if t.solution]


def collect_answers(folder: str | Path, tasks: list[Task]) -> tuple[list[Answer], list[str]]:
    """The answers under `folder` by the naming above, and the names that matched no task (with why)."""
    root = Path(folder)
    answers: list[Answer] = []
    unmatched: list[str] = []
    if not root.is_dir():
        raise FileNotFoundError(f"{folder}: no such folder of answers")
    for entry in sorted(root.iterdir(), key=lambda p: p.name):
        if entry.name.startswith("."):
            continue
        if entry.is_dir() and not _is_project(entry):
            task, case = _task_and_case(entry.name, tasks)
            if task is None:
                unmatched.append(f"{entry.name}/: no task of that name")
                continue
            for item in sorted(entry.iterdir(), key=lambda p: p.name):
                if item.name.startswith("."):
                    continue
                if item.is_dir() or item.suffix.lower() in ANSWER_SUFFIXES:
                    answers.append(Answer(task.name, item.stem if item.is_file() else item.name, str(item), case))
            continue
        stem = entry.name if entry.is_dir() else entry.stem
        if entry.is_file() and entry.suffix.lower() not in ANSWER_SUFFIXES:
            continue
        base, _, sample = stem.partition("__")
        task, case = _task_and_case(base, tasks)
        if task is None:
            unmatched.append(f"{entry.name}: no task named '{base}'")
            continue
        answers.append(Answer(task.name, sample or "0", str(entry), case))
    return answers, unmatched


def _is_project(path: Path) -> bool:
    return (path / "op_kernel").is_dir() or (path / "op_host").is_dir()


def _task_and_case(name: str, tasks: list[Task]) -> tuple[Task | None, str | None]:
    base, at, case = name.partition("@")
    try:
        task = find_task(tasks, base)
    except KeyError:
        return None, None
    if at and case not in {c.id for c in task.cases}:
        return None, None
    return task, (case if at else None)


def relative(path: str) -> str:
    """`path` relative to the working folder where it lies below it (for reports)."""
    try:
        return os.path.relpath(path)
    except ValueError:
        return path
