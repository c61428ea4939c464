"""The simulator's half of realworld.py's recall: failing attempts the static check misses, run on the simulator.

For each record `ascendc-check` does not flag, its failing project (`files_before`) and the operator's passing
project (`files_after`) run through the benchmark harness on the simulator (extract, compile, correctness; the
static shape check and the performance stage off, as bench/perf/sim_realworld.py runs them), with inputs from the
same MultiKernelBench reference program that gives realworld.py its shapes. The record counts as caught by the
simulator only when the failing version is judged and fails at run time (wrong output, a dynamic finding, a
timeout; not a compile failure, which would be the static check's) while the passing version runs correct on the
same inputs: a simulator that fails both says nothing about the bug.

Answers never run natively: only on the simulator. The reference programs are benchmark code and run on CPU torch.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
WORK = ROOT / "bench" / "perf" / "results" / "realworld-sim-answers"


@dataclass(frozen=True)
class SimOutcome:
    """What the simulator says of one missed record: caught or not, and why in one line."""

    caught: bool
    why: str


def _verdict_line(v: Any) -> str:
    if v is None:
        return "not run"
    if v.correct:
        return "correct"
    reason = (v.reason or v.failure or "?").replace("\n", " ")
    return f"{v.failure or '?'}: {reason[:140]}"


def simulate_misses(records: list[dict[str, Any]], references: Path, results: Path | None, max_elements: int,
                    workers: int | None, time_budget: float = 900.0) -> dict[str, SimOutcome]:
    """{record id: SimOutcome} for `records` (each with files_before and files_after), run on the simulator with
    the MultiKernelBench checkout whose reference/ folder is `references`."""
    from bench.harness import Answer, EvalOptions
    from bench.harness.executors import make_executor
    from bench.harness.results import ResultStore
    from bench.harness.run import make_jobs, run_jobs, verdict_options
    from bench.perf.kernelhive_answers import write_answer
    from bench.suites import find_task, load_suite

    tasks = load_suite("multikernelbench", references.parent)
    squashed = {t.name.replace("_", ""): t for t in tasks}
    answers: list[Answer] = []
    keys: dict[str, tuple[str | None, str | None]] = {}  # record id -> (before sample, after sample)
    outcomes: dict[str, SimOutcome] = {}
    for r in records:
        try:
            task = find_task(tasks, r["op"])
        except KeyError:
            task = squashed.get(r["op"].replace("_", ""))
        if task is None or not r.get("files_after"):
            outcomes[r["id"]] = SimOutcome(False, "no MultiKernelBench task" if task is None else "no passing project")
            continue
        samples: list[str | None] = []
        for side in ("before", "after"):
            files = r[f"files_{side}"]
            digest = hashlib.sha1(json.dumps(files, sort_keys=True).encode()).hexdigest()[:8]
            sample = f"{r['op']}:{side}:{digest}"
            path = write_answer(files, task.kernel_name.removesuffix("_custom"), WORK / re.sub(r"[^\w.-]", "_", sample))
            if path is not None and all(a.sample != sample for a in answers):
                answers.append(Answer(task.name, sample, str(path)))
            samples.append(sample if path is not None else None)
        keys[r["id"]] = (samples[0], samples[1])

    options = EvalOptions(draws=1, max_elements=max_elements, time_budget_s=time_budget, static_shapes=False,
                          performance=False)
    # the reference programs change verdicts too: a results file of another run is refused (OptionsDiffer)
    store = ResultStore(results, verdict_options(options, references=str(references.resolve()))) \
        if results is not None else None
    executor = make_executor("pool", workers)
    try:
        verdicts = run_jobs(make_jobs(tasks, answers, options), store, executor, progress=sys.stdout.isatty(),
                            description="simulator")
    finally:
        executor.close()
        if store is not None:
            store.close()
    by_sample = {v.sample: v for v in verdicts}
    for rid, (before, after) in keys.items():
        vb, va = by_sample.get(before or ""), by_sample.get(after or "")
        fails_at_run_time = vb is not None and vb.correct is False and vb.stage != "compile" and \
            vb.failure not in ("not-evaluated", "internal", "format")
        caught = fails_at_run_time and va is not None and va.correct is True
        outcomes[rid] = SimOutcome(caught, f"failing: {_verdict_line(vb)}; passing: {_verdict_line(va)}")
    return outcomes
