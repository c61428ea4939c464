"""The Ray executor: the same jobs as the pool, on a Ray cluster (`--executor ray --address ADDR`), or on a local
Ray instance started for the run when no address is given.

Each job is one Ray task running `run_job`, so verdicts equal the pool's. At most as many jobs are in flight as
the cluster has CPUs (or `workers`), so a job's submission time is about its start time; a job past its budget
and grace is cancelled (`ray.cancel(force=True)` ends its worker) and gets a `timeout` verdict. The tasks' files
(bench/tasks, or the benchmark checkout) must be readable at the same paths on every node.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Sequence
from typing import Any

from bench.harness.executors import GRACE_S, Job, run_job, timed_out
from bench.harness.verdict import Verdict


def _ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise RuntimeError("the Ray executor needs ray: pip install -e '.[bench]'") from exc
    return ray


class RayExecutor:
    name = "ray"

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        ray = _ray()
        self.started_here = not ray.is_initialized()
        if self.started_here:
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                      "configure_logging": False}
            if address:
                kwargs["address"] = address
            else:
                # a local instance on a shared machine: Ray's memory monitor would kill tasks when other processes
                # fill the memory (it counts the whole machine); the harness's own budgets bound each answer
                os.environ.setdefault("RAY_memory_monitor_refresh_ms", "0")
                if workers:
                    kwargs["num_cpus"] = workers
            ray.init(**kwargs)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.slots = max(1, min(workers or cpus, cpus))
        self.remote = ray.remote(num_cpus=1, max_retries=0)(run_job)

    def run(self, jobs: Sequence[Job]) -> Iterator[Verdict]:
        ray = _ray()
        pending = list(enumerate(jobs))[::-1]
        in_flight: dict[Any, tuple[int, float]] = {}
        while pending or in_flight:
            while pending and len(in_flight) < self.slots:
                index, job = pending.pop()
                in_flight[self.remote.remote(job)] = (index, time.monotonic())
            done, _ = ray.wait(list(in_flight), num_returns=1, timeout=1.0)
            for ref in done:
                index, started = in_flight.pop(ref)
                try:
                    yield ray.get(ref)
                except Exception as exc:  # a worker lost, or a task cancelled
                    v = timed_out(jobs[index], time.monotonic() - started)
                    v.failure, v.reason = "internal", f"internal error: the Ray task failed: {type(exc).__name__}"
                    yield v
            now = time.monotonic()
            for ref, (index, started) in list(in_flight.items()):
                budget = jobs[index].options.time_budget_s
                if budget > 0 and now - started > budget + GRACE_S:
                    ray.cancel(ref, force=True)
                    del in_flight[ref]
                    yield timed_out(jobs[index], now - started)

    def close(self) -> None:
        if self.started_here:
            _ray().shutdown()
