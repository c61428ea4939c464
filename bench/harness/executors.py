"""Where answers are evaluated: in this process, on a local process pool, or on Ray (bench/harness/ray_executor.py).

Every executor runs the same `run_job` on each job and yields verdicts as they finish (in any order), so the
caller can store each one at once. The per-answer time budget is enforced twice: inside the job by a timer
signal (the stage in progress stops with BudgetExceeded and the verdict says `timeout`), and from outside,
where the job does not return within the budget plus a grace period (a native call that never yields): the
worker is ended, replaced, and the answer gets a `timeout` verdict.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import queue
import signal
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from bench.harness.answers import Answer, answer_key
from bench.harness.evaluate import BudgetExceeded, EvalOptions, evaluate_answer
from bench.harness.verdict import TIMEOUT, Verdict
from bench.suites import Task

GRACE_S = 30.0  # how long past its budget a job may take before its worker is ended


@dataclass(frozen=True)
class Job:
    task: Task
    answer: Answer
    options: EvalOptions

    @property
    def key(self) -> str:
        return answer_key(self.task.suite, self.answer, self.task.variant)


def run_job(job: Job) -> Verdict:
    """Evaluate one job under its time budget (a timer signal, where this is the main thread)."""
    budget = job.options.time_budget_s
    armed = budget > 0 and threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    if armed:
        def expire(signum: int, frame: Any) -> None:
            raise BudgetExceeded()

        previous = signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, budget)
    try:
        return evaluate_answer(job.task, job.answer, job.options)
    finally:
        if armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)


def timed_out(job: Job, waited_s: float) -> Verdict:
    """The verdict of a job whose worker had to be ended."""
    v = evaluate_answer_stub(job)
    v.failure = TIMEOUT
    v.reason = (f"the answer's time budget ({job.options.time_budget_s:g} s) ran out and its worker did not stop "
                f"within {GRACE_S:g} s more; it was ended after {waited_s:.0f} s")
    v.wall_s = round(waited_s, 3)
    return v


def evaluate_answer_stub(job: Job) -> Verdict:
    t = job.task
    return Verdict(t.suite, t.name, job.answer.sample, job.answer.path, t.level, t.category, job.answer.case, job.key)


class SerialExecutor:
    """Evaluate in this process, one job after another (tests, debugging, `--workers 1`)."""

    name = "serial"

    def run(self, jobs: Sequence[Job]) -> Iterator[Verdict]:
        for job in jobs:
            yield run_job(job)

    def close(self) -> None:
        pass


def _worker(inbox: Any, outbox: Any) -> None:
    """A pool worker: evaluate the jobs sent to it until it gets None."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and ends the workers
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    while True:
        item = inbox.get()
        if item is None:
            return
        index, job = item
        try:
            verdict = run_job(job)
        except BaseException as exc:  # noqa: BLE001 - a worker must always answer
            verdict = evaluate_answer_stub(job)
            verdict.failure, verdict.reason = "internal", f"internal error: {type(exc).__name__}: {exc}"
        outbox.put((index, verdict))


class PoolExecutor:
    """A pool of worker processes, one job per worker at a time (each job is one answer, all its cases)."""

    name = "pool"

    def __init__(self, workers: int | None = None) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        method = "fork" if "fork" in mp.get_all_start_methods() else "spawn"
        self.ctx = mp.get_context(method)
        self.outbox: Any = self.ctx.Queue()
        self.slots: list[tuple[Any, Any]] = []  # (process, its inbox)

    def _start(self) -> tuple[Any, Any]:
        inbox = self.ctx.Queue()
        proc = self.ctx.Process(target=_worker, args=(inbox, self.outbox), daemon=True)
        proc.start()
        return proc, inbox

    def run(self, jobs: Sequence[Job]) -> Iterator[Verdict]:
        pending = list(enumerate(jobs))[::-1]
        running: dict[int, tuple[int, float]] = {}  # slot -> (job index, started)
        while len(self.slots) < min(self.workers, len(jobs)):
            self.slots.append(self._start())
        try:
            while pending or running:
                for slot in range(len(self.slots)):
                    if slot not in running and pending:
                        index, job = pending.pop()
                        self.slots[slot][1].put((index, job))
                        running[slot] = (index, time.monotonic())
                try:
                    index, verdict = self.outbox.get(timeout=1.0)
                except queue.Empty:
                    yield from self._reap(jobs, running)
                    continue
                slot = next(s for s, (i, _) in running.items() if i == index)
                del running[slot]
                yield verdict
        finally:
            for slot in list(running):
                self._replace(slot)

    def _reap(self, jobs: Sequence[Job], running: dict[int, tuple[int, float]]) -> Iterator[Verdict]:
        """End the workers whose job ran past its budget and grace, or that died; their jobs get verdicts."""
        now = time.monotonic()
        for slot, (index, started) in list(running.items()):
            job = jobs[index]
            limit = job.options.time_budget_s + GRACE_S if job.options.time_budget_s > 0 else None
            proc = self.slots[slot][0]
            if limit is not None and now - started > limit:
                self._replace(slot)
                del running[slot]
                yield timed_out(job, now - started)
            elif not proc.is_alive():
                self._replace(slot)
                del running[slot]
                v = evaluate_answer_stub(job)
                v.failure = "internal"
                v.reason = f"internal error: the worker evaluating this answer died (exit code {proc.exitcode})"
                yield v

    def _replace(self, slot: int) -> None:
        proc, _ = self.slots[slot]
        if proc.is_alive():
            proc.kill()
        proc.join(timeout=5)
        self.slots[slot] = self._start()

    def close(self) -> None:
        for proc, inbox in self.slots:
            if proc.is_alive():
                inbox.put(None)
        for proc, _ in self.slots:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.kill()
                proc.join(timeout=5)
        self.slots = []


def make_executor(name: str, workers: int | None = None, address: str | None = None) -> Any:
    """`serial`, `pool` (default) or `ray` (on the cluster at `address`, else a local instance)."""
    if name == "serial":
        return SerialExecutor()
    if name == "pool":
        return PoolExecutor(workers)
    if name == "ray":
        from bench.harness.ray_executor import RayExecutor

        return RayExecutor(address, workers)
    raise ValueError(f"unknown executor '{name}' (serial, pool, ray)")
