"""The simulator's half of realworld.py's recall: failing attempts the static check misses, run on the simulator.

For each record `ascendc-check` does not flag, its failing project (`files_before`) and the operator's passing
project (`files_after`) run through the benchmark harness on the simulator (extract, compile, correctness; the
static shape check and the performance stage off, the op binding replayed around the kernel, as
bench/perf/sim_realworld.py runs them), with inputs from the same MultiKernelBench reference program that gives
realworld.py its shapes. The record counts as caught by the
simulator only when the failing version is judged and fails at run time (wrong output, a dynamic finding; not a
compile failure, which would be the static check's, and not our time or instruction budget running out, which says
nothing of the device) while the passing version runs correct on the same inputs: a simulator that fails both says
nothing about the bug.

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


# a side write_answer cannot write: its sources are read at run time from files outside the record (an answer that
# exec()s another file for its six strings) and it holds no op project files
NO_ANSWER = "not run: no answer file (its sources are not string literals in the record and it has no op_kernel/)"


def _verdict_line(v: Any, sample: str | None = "") -> str:
    if sample is None:
        return NO_ANSWER
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

    # the binding (op.cpp) is replayed around the kernel, as sim_realworld.py runs the same records: what it does
    # before EXEC_NPU_CMD is what the op gets on the device (`mask.to(at::kFloat)` hands a float op a float mask;
    # handing the op the reference's bool tensor instead stopped both versions at the op json's dtypes)
    options = EvalOptions(draws=1, max_elements=max_elements, time_budget_s=time_budget, static_shapes=False,
                          performance=False, replay_binding=True)
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
        outcomes[rid] = SimOutcome(caught(vb, va), f"failing: {_verdict_line(vb, before)}; "
                                                   f"passing: {_verdict_line(va, after)}")
    return outcomes


def caught(failing: Any, passing: Any) -> bool:
    """Whether the failing version's verdict tells it from the passing one's: it fails at run time for a reason of
    its own while the passing version runs correct. A run our wall-clock or instruction budget cut off is no such
    reason: a failing version that loops over the whole output on every core does more work than its fix, and only
    our limits make that a failure."""
    from bench.harness.verdict import COMPILE_FAILURE, FORMAT_FAILURE, INTERNAL, NOT_EVALUATED, TIMEOUT

    if failing is None or passing is None or failing.correct is not False or passing.correct is not True:
        return False
    if failing.stage == "compile" or failing.failure in (FORMAT_FAILURE, COMPILE_FAILURE, INTERNAL, NOT_EVALUATED,
                                                         TIMEOUT):
        return False
    return failing.checks.get("within_budget", True)
