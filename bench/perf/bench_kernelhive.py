"""The benchmark harness's verdicts on real answers whose real verdicts are known: the KernelHive failure records.

    .venv/bin/python bench/perf/bench_kernelhive.py --root /path/to/MultiKernelBench [RECORDS.jsonl]
        [--workers 2] [--results R.jsonl] [--json OUT] [--limit N] [--max-elements N] [--replay-binding]

Every record holds a MultiKernelBench answer an LLM agent wrote that failed a real CANN build or a real run on
Ascend hardware (`files_before`, with the recorded error class), and for most the project that finally passed
(`files_after`). Each is evaluated by `ascendir bench`'s harness as an answer to its MultiKernelBench task
(extract -> compile -> correctness on the simulator -> performance), and our verdict is set against the
recorded one in a confusion table:

    recorded: compile (a CANN build error), runtime (UB out of bounds, AI Core exception), hang, numeric
              (wrong output), other (harness, environment, unknown), passed (files_after)
    ours:     format, compile, runtime, wrong, timeout, correct, not judged (no simulator here, a case too large
              to simulate on this machine, a reference that failed), internal

An answer whose sources are computed at run time (not string literals) is evaluated as the op project its record
splits into files. Where ModelNew hands the op its module's weights and settings (op(x, self.conv.weight, self.eps)),
its forward is read with `ast` (never run) and the op gets what the seeded reference Model holds: the harness does
that for every MultiKernelBench answer (bench/harness/model_task.py), as `ascendir bench` does. With --replay-binding
the op binding is replayed around the kernel (bench/harness/binding_replay.py) as sim_realworld.py always does:
the op then gets what the binding makes of ModelNew's arguments (at::broadcast_tensors, reshapes). Prints the table and
writes JSON (default bench/perf/results/bench_kernelhive.json); with --results the run resumes where an earlier one
stopped (one made with the same options: the file records them, bench/harness/results.py).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

DEFAULT_RECORDS = ROOT.parent / "shared" / "data" / "kernelhive-failures" / "records.jsonl"
DEFAULT_JSON = ROOT / "bench" / "perf" / "results" / "bench_kernelhive.json"
WORK = ROOT / "bench" / "perf" / "results" / "kernelhive-answers"

RECORDED = {"compile": "compile", "runtime_ub_oob": "runtime", "runtime_aicore_exception": "runtime",
            "hang": "hang", "numeric_mismatch": "numeric", "other": "other"}
RECORDED_ORDER = ("compile", "runtime", "hang", "numeric", "other", "passed")
OURS_ORDER = ("format", "compile", "runtime", "wrong", "timeout", "correct", "not judged", "internal")


def our_verdict(v: Any) -> str:
    if v.correct is True:
        return "correct"
    return {"format": "format", "compile": "compile", "runtime": "runtime", "wrong": "wrong", "timeout": "timeout",
            "not-evaluated": "not judged"}.get(v.failure, "internal")


def gather_answers(records: list[dict[str, Any]], tasks: list[Any], work: Path
                   ) -> tuple[list[Any], dict[tuple[str, str], str], dict[tuple[str, str], str], Counter[str]]:
    """The records' answers written under `work` (each failing attempt, and each distinct final once), with their
    recorded class and record id by (task, sample), and what was left out. An answer is named `<id>:<side>` (the id
    with its odd characters made `_`): the harness names the task of an answer whose ModelNew hands the op
    weights after it, and a draw's seed follows that name (bench/harness/model_task.py)."""
    from bench.harness import Answer
    from bench.perf.kernelhive_answers import write_answer
    from bench.suites import find_task

    suite = list(tasks)
    by_squashed = {t.name.replace("_", ""): t for t in suite}
    answers: list[Answer] = []
    recorded: dict[tuple[str, str], str] = {}  # (task, sample) -> recorded class
    ids: dict[tuple[str, str], str] = {}
    skipped: Counter[str] = Counter()
    seen_after: set[str] = set()
    for r in records:
        try:
            task = find_task(suite, r["op"])
        except KeyError:
            task = by_squashed.get(r["op"].replace("_", ""))
        if task is None:
            skipped["no MultiKernelBench task of that name"] += 1
            continue
        safe = re.sub(r"[^\w.-]", "_", r["id"])
        for side, files in (("before", r.get("files_before")), ("after", r.get("files_after"))):
            if not files:
                continue
            if side == "after":
                digest = hashlib.sha1(json.dumps(files, sort_keys=True).encode()).hexdigest()
                if digest in seen_after:  # attempts of one op share their final project
                    continue
                seen_after.add(digest)
            path = write_answer(files, task.kernel_name.removesuffix("_custom"), work / safe / side)
            if path is None:
                skipped[f"{side}: no answer file and no kernel source"] += 1
                continue
            sample = f"{safe}:{side}"
            answers.append(Answer(task.name, sample, str(path)))
            recorded[(task.name, sample)] = "passed" if side == "after" else RECORDED.get(r["error_class"], "other")
            ids[(task.name, sample)] = r["id"]
    return answers, recorded, ids, skipped


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="?", type=Path, default=DEFAULT_RECORDS)
    parser.add_argument("--root", type=Path, required=True, help="a MultiKernelBench checkout")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--results", type=Path, default=None, help="JSONL of verdicts; a rerun resumes from it")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON)
    parser.add_argument("--limit", type=int, default=None, help="only the first N records")
    parser.add_argument("--max-elements", type=int, default=1 << 25)
    parser.add_argument("--time-budget", type=float, default=600.0)
    parser.add_argument("--replay-binding", action="store_true",
                        help="replay each answer's op binding around its kernel (as sim_realworld.py does): the op "
                             "gets the tensors the binding makes (broadcasts, reshapes), not ModelNew's arguments")
    args = parser.parse_args()
    if not args.records.exists():
        print(f"no records at {args.records} (pass the path of kernelhive-failures/records.jsonl)", file=sys.stderr)
        return 2

    from bench.harness import EvalOptions
    from bench.harness.executors import make_executor
    from bench.harness.results import OptionsDiffer, ResultStore
    from bench.harness.run import make_jobs, run_jobs, verdict_options
    from bench.suites import load_suite

    tasks = load_suite("multikernelbench", args.root)
    records = [json.loads(line) for line in args.records.read_text(encoding="utf-8").splitlines() if line.strip()]
    records = records[: args.limit] if args.limit else records
    options = EvalOptions(max_elements=args.max_elements, time_budget_s=args.time_budget,
                          replay_binding=args.replay_binding)
    answers, recorded, ids, skipped = gather_answers(records, tasks, WORK)
    jobs = make_jobs(tasks, answers, options)
    try:  # the records and the checkout change verdicts too: a file of another run is refused, not mixed in
        store = ResultStore(args.results, verdict_options(options, root=str(args.root.resolve()),
                                                          records=str(args.records.resolve()))) \
            if args.results else None
    except OptionsDiffer as exc:
        print(f"bench_kernelhive: {exc}; {exc.advice('--results')}",
              file=sys.stderr)
        return 2
    executor = make_executor("pool", args.workers)
    t0 = time.perf_counter()
    try:
        verdicts = run_jobs(jobs, store, executor, progress=sys.stdout.isatty(), description="kernelhive answers")
    finally:
        executor.close()
        if store is not None:
            store.close()
    elapsed = time.perf_counter() - t0

    table: dict[str, Counter[str]] = defaultdict(Counter)
    rows = []
    for v in verdicts:
        rec = recorded[(v.task, v.sample)]
        ours = our_verdict(v)
        table[rec][ours] += 1
        rows.append({"id": ids[(v.task, v.sample)], "side": v.sample.rsplit(":", 1)[1], "task": v.task,
                     "weights": v.forward_inputs,
                     "recorded": rec, "ours": ours, "reason": v.reason, "wall_s": v.wall_s})
    from rich.console import Console
    from rich.table import Table

    console = Console(width=160)
    out = Table(title=f"{len(verdicts)} answers of {len(records)} KernelHive records: recorded verdict (rows) "
                      "against ours (columns)", title_justify="left")
    out.add_column("recorded")
    cols = [c for c in OURS_ORDER if any(table[r][c] for r in table)]
    for c in cols:
        out.add_column(c, justify="right")
    out.add_column("all", justify="right")
    for rec in RECORDED_ORDER:
        if rec in table:
            out.add_row(rec, *[str(table[rec][c]) for c in cols], str(sum(table[rec].values())))
    console.print(out)
    if skipped:
        console.print("left out: " + ", ".join(f"{k} {n}" for k, n in skipped.items()))
    console.print(f"{elapsed:.0f} s, {elapsed / max(1, len(jobs)):.2f} s per answer (wall, resumed ones count 0)")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"confusion": {r: dict(c) for r, c in table.items()}, "rows": rows,
                                     "skipped": dict(skipped), "elapsed_s": elapsed}, indent=2))
    console.print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
