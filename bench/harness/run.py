"""A benchmark run: the jobs not yet in the results file, on an executor, each verdict stored as it finishes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from bench.harness.answers import Answer
from bench.harness.evaluate import EvalOptions
from bench.harness.executors import Job, make_executor
from bench.harness.results import ResultStore
from bench.harness.verdict import Verdict
from bench.suites import Task, find_task


def verdict_options(options: EvalOptions, **setting: Any) -> dict[str, Any]:
    """What changes a verdict, as a results file records it (ResultStore's `options`): the evaluation options and
    the run's own settings (the suite, its checkout, the chip, --fit-shapes, ...). Not the answers or tasks chosen,
    the executor or the workers: a run over a subset, or on more workers, resumes the same verdicts."""
    return {**asdict(options), **setting}


def make_jobs(tasks: list[Task], answers: Sequence[Answer], options: EvalOptions) -> list[Job]:
    return [Job(find_task(tasks, a.task), a, options) for a in answers]


def run_jobs(jobs: Sequence[Job], store: ResultStore | None = None, executor: Any = None,
             progress: bool = False, description: str = "evaluating") -> list[Verdict]:
    """Evaluate the jobs whose verdicts `store` does not hold yet; returns every job's verdict in job order.
    `executor` defaults to a process pool; it is closed afterwards only when made here."""
    own = executor is None
    executor = executor or make_executor("pool")
    done: dict[str, Verdict] = {}
    todo = []
    for job in jobs:
        if store is not None and job.key in store:
            done[job.key] = store.verdicts[job.key]
        else:
            todo.append(job)
    try:
        if progress and todo:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                       TextColumn("{task.fields[last]}"))
            with Progress(*columns, transient=False) as bar:
                tid = bar.add_task(description, total=len(todo), last="")
                for verdict in executor.run(todo):
                    _keep(verdict, store, done)
                    mark = "ok" if verdict.correct else (verdict.failure or "?")
                    bar.update(tid, advance=1, last=f"{verdict.task}#{verdict.sample}: {mark}")
        else:
            for verdict in executor.run(todo):
                _keep(verdict, store, done)
    finally:
        if own:
            executor.close()
    return [done[j.key] for j in jobs if j.key in done]


def _keep(verdict: Verdict, store: ResultStore | None, done: dict[str, Verdict]) -> None:
    if store is not None:
        store.add(verdict)
    done[verdict.key] = verdict
