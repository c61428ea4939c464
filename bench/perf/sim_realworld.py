"""The simulator on real kernels nobody here wrote: the KernelHive failure records (issue 28's two tables).

    .venv/bin/python bench/perf/sim_realworld.py --root /path/to/MultiKernelBench [RECORDS.jsonl]
        [--workers 2] [--results R.jsonl] [--json OUT] [--only after|before] [--ops a,b]

1. Passing finals: every operator's final project (`files_after`, which passed on Ascend hardware) runs on the
   simulator with inputs from its MultiKernelBench reference program (`get_inputs`, executed: benchmark code),
   compared with the reference Model on CPU torch. Goal: >= 95% of the operators that do not use the cube unit
   correct; every miss listed with its cause.
2. Failing attempts whose verifier tier is `simulator` (their failure shows only when run): each `files_before`
   runs the same way; caught = wrong output or a dynamic finding (runtime). Goal: >= 75% of those that neither
   use the cube unit nor have an unknown root cause caught, each with the cause at its line.

Answers never run natively: only on the simulator, through the benchmark harness (bench/harness: extract,
compile, correctness; the static shape check and the performance stage are off, so that what is measured is the
simulator). Prints both tables and writes JSON (default bench/perf/results/sim_realworld.json); with --results a
run resumes where an earlier one stopped.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OMP_NUM_THREADS", "1")

DEFAULT_RECORDS = ROOT.parent / "shared" / "data" / "kernelhive-failures" / "records.jsonl"
DEFAULT_JSON = ROOT / "bench" / "perf" / "results" / "sim_realworld.json"
WORK = ROOT / "bench" / "perf" / "results" / "sim-realworld-answers"
CORRECT_GOAL = 0.95
CAUGHT_GOAL = 0.75
# what marks an answer as using the cube unit
CUBE_APIS = re.compile(r"\b(Matmul|Mmad|LoadData|Fixpipe|REGIST_MATMUL_OBJ|MatmulImpl|TCubeTiling)\b")


def uses_cube(files: dict[str, str]) -> bool:
    return any(CUBE_APIS.search(text) for name, text in files.items() if "kernel" in name or name.endswith(".py"))


def load_records(path: Path) -> list[dict[str, Any]]:
    import ast

    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for r in records:
        for side in ("files_before", "files_after"):
            if isinstance(r.get(side), str):
                try:
                    r[side] = ast.literal_eval(r[side])
                except (ValueError, SyntaxError):
                    r[side] = None
    return records


def select(records: list[dict[str, Any]], only: str | None, ops: set[str] | None
           ) -> list[tuple[str, str, dict[str, str], dict[str, Any]]]:
    """(key, side, files, record): one final per operator (attempts share it), and the simulator-tier attempts."""
    chosen: list[tuple[str, str, dict[str, str], dict[str, Any]]] = []
    seen: set[str] = set()
    for r in records:
        if ops and r["op"] not in ops:
            continue
        after = r.get("files_after")
        if after and only != "before" and r["op"] not in seen:
            digest = hashlib.sha1(json.dumps(after, sort_keys=True).encode()).hexdigest()[:8]
            seen.add(r["op"])
            chosen.append((f"{r['op']}:after:{digest}", "after", after, r))
        if r.get("verifier_tier") == "simulator" and r.get("files_before") and only != "after":
            chosen.append((f"{r['id']}:before", "before", r["files_before"], r))
    return chosen


def cause(v: Any) -> str:
    """One line: what the simulator (or the harness) says went wrong."""
    if v.correct:
        return ""
    reason = v.reason or v.failure or "?"
    for c in v.cases:
        for f in c.sim_findings or []:
            if f.severity == "error":
                return f"{reason} | first finding: {f.code} {f.message[:160]}"
    return reason


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="?", type=Path, default=DEFAULT_RECORDS)
    parser.add_argument("--root", type=Path, required=True, help="a MultiKernelBench checkout")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--results", type=Path, default=None, help="JSONL of verdicts; a rerun resumes from it")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON)
    parser.add_argument("--only", choices=("after", "before"), default=None)
    parser.add_argument("--ops", default=None, help="comma-separated operator names")
    parser.add_argument("--max-elements", type=int, default=1 << 25)
    parser.add_argument("--time-budget", type=float, default=900.0)
    args = parser.parse_args()
    if not args.records.exists():
        print(f"no records at {args.records} (pass the path of kernelhive-failures/records.jsonl)", file=sys.stderr)
        return 2

    from bench.harness import Answer, EvalOptions
    from bench.harness.executors import make_executor
    from bench.harness.results import ResultStore
    from bench.harness.run import make_jobs, run_jobs
    from bench.perf.bench_kernelhive import write_answer
    from bench.suites import find_task, load_suite

    tasks = load_suite("multikernelbench", args.root)
    by_squashed = {t.name.replace("_", ""): t for t in tasks}
    records = load_records(args.records)
    ops = set(args.ops.split(",")) if args.ops else None
    answers: list[Answer] = []
    meta: dict[str, dict[str, Any]] = {}
    skipped: Counter[str] = Counter()
    for key, side, files, r in select(records, args.only, ops):
        try:
            task = find_task(tasks, r["op"])
        except KeyError:
            task = by_squashed.get(r["op"].replace("_", ""))
        if task is None:
            skipped["no MultiKernelBench task of that name"] += 1
            continue
        safe = re.sub(r"[^\w.-]", "_", key)
        path = write_answer(files, task.kernel_name.removesuffix("_custom"), WORK / safe)
        if path is None:
            skipped[f"{side}: no answer file and no kernel source"] += 1
            continue
        answers.append(Answer(task.name, key, str(path)))
        meta[key] = {"op": r["op"], "id": r["id"], "side": side, "cube": uses_cube(files),
                     "bug_kind": r.get("bug_kind"), "error_class": r.get("error_class"), "task": task.name}

    options = EvalOptions(draws=1, max_elements=args.max_elements, time_budget_s=args.time_budget,
                          static_shapes=False, performance=False)
    jobs = make_jobs(tasks, answers, options)
    store = ResultStore(args.results) if args.results else None
    executor = make_executor("pool", args.workers)
    t0 = time.perf_counter()
    try:
        verdicts = run_jobs(jobs, store, executor, progress=sys.stdout.isatty(), description="kernelhive answers")
    finally:
        executor.close()
        if store is not None:
            store.close()
    elapsed = time.perf_counter() - t0

    rows = []
    for v in verdicts:
        m = meta[v.sample]
        judged = v.correct is not None
        rows.append({**m, "correct": v.correct, "judged": judged, "failure": v.failure, "stage": v.stage,
                     "cause": cause(v), "wall_s": round(v.wall_s, 1)})
    report = summarise(rows)
    report.update({"rows": rows, "skipped": dict(skipped), "elapsed_s": round(elapsed, 1)})
    print_report(report)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=2), encoding="utf-8")
    print(f"wrote {args.json}")
    return 0


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    finals = [r for r in rows if r["side"] == "after"]
    plain = [r for r in finals if not r["cube"]]
    correct = [r for r in plain if r["correct"]]
    attempts = [r for r in rows if r["side"] == "before"]
    counted = [r for r in attempts if not r["cube"] and r["bug_kind"] != "kernel_bypassed_root_cause_unknown"]
    caught = [r for r in counted if r["judged"] and not r["correct"] and r["stage"] != "compile"]
    return {
        "finals": {"operators": len(finals), "cube": len(finals) - len(plain), "non_cube": len(plain),
                   "correct": len(correct), "rate": len(correct) / max(1, len(plain)), "goal": CORRECT_GOAL,
                   "misses": [{k: r[k] for k in ("op", "failure", "cause")} for r in plain if not r["correct"]]},
        "attempts": {"simulator_tier": len(attempts), "counted": len(counted), "caught": len(caught),
                     "rate": len(caught) / max(1, len(counted)), "goal": CAUGHT_GOAL,
                     "missed": [{k: r[k] for k in ("id", "bug_kind", "failure", "cause")} for r in counted
                                if r not in caught],
                     "caught_list": [{k: r[k] for k in ("id", "bug_kind", "failure", "cause")} for r in caught]},
    }


def print_report(rep: dict[str, Any]) -> None:
    f, a = rep["finals"], rep["attempts"]
    print(f"Passing finals: {f['correct']} of {f['non_cube']} non-cube operators correct ({f['rate']:.1%}; goal "
          f"{f['goal']:.0%}); {f['cube']} cube operators left to the cube path")
    for m in f["misses"]:
        print(f"  miss {m['op']:<48} {m['failure'] or '-':<14} {m['cause'][:150]}")
    print(f"Simulator-tier failing attempts: {a['caught']} of {a['counted']} caught ({a['rate']:.1%}; goal "
          f"{a['goal']:.0%}) of {a['simulator_tier']} (cube and unknown root cause left out)")
    for m in a["caught_list"]:
        print(f"  caught {m['id']:<44} {m['bug_kind'] or '-':<24} {m['cause'][:140]}")
    for m in a["missed"]:
        print(f"  missed {m['id']:<44} {m['bug_kind'] or '-':<24} {m['failure'] or 'passed'}: {m['cause'][:120]}")
    if rep.get("skipped"):
        print("left out: " + ", ".join(f"{k} {n}" for k, n in rep["skipped"].items()))
    print(f"{rep['elapsed_s']:.0f} s")


if __name__ == "__main__":
    sys.exit(main())
