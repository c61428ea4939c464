"""The simulator on real kernels nobody here wrote: the KernelHive failure records (issue 28's two tables).

    .venv/bin/python bench/perf/sim_realworld.py --root /path/to/MultiKernelBench [RECORDS.jsonl]
        [--workers 2] [--results R.jsonl] [--json OUT] [--only after|before] [--ops a,b] [--max-elements N] [--cube]
    .venv/bin/python bench/perf/sim_realworld.py --root X --merge A.json B.json [--json OUT] [--cube]

1. Passing finals: every operator's final project (`files_after`, which passed on Ascend hardware) runs on the
   simulator with inputs from its MultiKernelBench reference program (`get_inputs`, executed: benchmark code),
   compared with the reference Model on CPU torch. The reference programs are those of the revision the records
   were made against (--revision, default 7134d16^: before the benchmark's 2026-01 "Update task shapes", whose
   inputs reach 2^31 elements and which kernels with the old sizes built in reject). Goal: >= 95% of the
   operators that do not use the cube unit correct; every miss listed with its cause.
2. Failing attempts whose verifier tier is `simulator` (their failure shows only when run): each `files_before`
   runs the same way; caught = wrong output or a dynamic finding (runtime). Goal: >= 75% of those that neither
   use the cube unit nor have an unknown root cause caught, each with the cause at its line.

Answers never run natively: only on the simulator, through the benchmark harness (bench/harness: extract,
compile, correctness; the static shape check and the performance stage are off, so that what is measured is the
simulator). Where ModelNew hands the op its module's weights and settings (op(x, self.conv.weight, self.eps)),
its forward is read with `ast` (never run) and those come from the reference Model built as the benchmark builds
both models (seeded), by the same attribute path (the harness does this: bench/harness/model_task.py). Ops whose
files say Matmul or Mmad count as cube, as the issue counts them.

3. With --cube (issue 29): only the answers that use the cube unit, the two tables left out of 1 and 2: the cube
   finals' correct count with each miss's kind and cause, and the cube simulator-tier attempts, each caught or not
   (JSON default bench/perf/results/sim_realworld_cube.json).

Prints both tables and writes JSON (default bench/perf/results/sim_realworld.json); with --results a run resumes
where an earlier one stopped. Each miss is sorted into a kind (MISS_KINDS: inputs too large to run here, op
inputs not known, ..., a simulator finding, a wrong output); --merge combines runs made with other limits.
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

from bench.harness.model_forward import bypasses_kernel  # noqa: E402  (the checkout on sys.path first)
from bench.harness.stages.extract import MODEL_SRC, model_src_of  # noqa: E402
from bench.perf.sim_attempts import at_fixed_lines, caught_at_defect, error_findings  # noqa: E402

DEFAULT_RECORDS = ROOT.parent / "shared" / "data" / "kernelhive-failures" / "records.jsonl"
DEFAULT_ROOT = "/work/ext/MultiKernelBench"
DEFAULT_JSON = ROOT / "bench" / "perf" / "results" / "sim_realworld.json"
CUBE_JSON = ROOT / "bench" / "perf" / "results" / "sim_realworld_cube.json"
WORK = ROOT / "bench" / "perf" / "results" / "sim-realworld-answers"
# The records' answers were written against the reference programs before MultiKernelBench's "Update task shapes"
# (7134d16, 2026-01-22: inputs up to 2^31 elements; kernels with the old sizes built in reject or miss the new ones)
REVISION = "7134d16^"
CORRECT_GOAL = 0.95
CAUGHT_GOAL = 0.75
# what marks an answer as using the cube unit: the count (12 finals, 6 simulator-tier attempts) is "Matmul"
# or "Mmad" anywhere in the answer's files, which also takes in a few vector kernels with matmul in their op's name
CUBE_APIS = re.compile(r"Matmul|Mmad")


def uses_cube(files: dict[str, str]) -> bool:
    return any(CUBE_APIS.search(text) for text in files.values())


def binding_bypass(path: Path | str) -> str:
    """Why the op binding of the answer at `path` never runs its kernel (binding_source.bypass_reason: the kernel
    call only in a comment or under `if (false)`, or CANN's own operators instead); '' when it does run it."""
    from bench.harness.binding_source import bypass_reason
    from frontend.readers import read_input
    from passes.verify import load_for_check

    if Path(path).is_dir():
        return ""  # an op project folder (its fields computed by answer code): no binding to read
    program, _ = load_for_check(read_input(str(path), "multikernelbench"), "910B2")
    return bypass_reason(program)


class RevisionMissing(ValueError):
    """The MultiKernelBench checkout given lacks the revision asked for (or is no git checkout)."""


def reference_root(root: Path, revision: str) -> Path:
    """A folder holding `reference/` as it was at `revision` of the MultiKernelBench checkout `root` (exported once
    with git archive), or `root` itself for 'worktree'."""
    import subprocess
    import tarfile
    from io import BytesIO

    if revision == "worktree":
        return root
    found = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "--verify", "--quiet",
                            f"{revision}^{{commit}}"], capture_output=True, text=True)
    if found.returncode != 0:
        # a copy without its history (a tarball of a later revision) would otherwise stop here with git's traceback
        raise RevisionMissing(f"{root} holds no git revision {revision}, whose reference programs the records were "
                              "made with: pass --root a MultiKernelBench git clone that has it, or --revision "
                              f"worktree to take {root}/reference as it is (another revision's shapes and "
                              "tolerance, not the records')")
    sha = found.stdout.strip()
    target = WORK.parent / f"multikernelbench-{sha}"
    if not (target / "reference").is_dir():
        data = subprocess.run(["git", "-C", str(root), "archive", sha, "reference"], check=True,
                              capture_output=True).stdout
        target.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=BytesIO(data)) as tar:
            tar.extractall(target, filter="data")
    return target


def revision_tolerance(root: Path, revision: str) -> tuple[Any, str] | None:
    """The benchmark's utils/correctness.py tolerance at `revision` (1e-2 before 2026-01, 1e-4 after: the rule the
    records' answers passed) and "", or the assumed one and the note saying why (harness_tolerance, as the suite
    reads a checkout's); None for 'worktree', where the suite reads the checkout's own."""
    import subprocess

    from bench.suites.multikernelbench import harness_tolerance

    if revision == "worktree":
        return None
    done = subprocess.run(["git", "-C", str(root), "show", f"{revision}:utils/correctness.py"], capture_output=True,
                          text=True)
    where = f"utils/correctness.py at {revision} of {root}"
    if done.returncode != 0:
        return harness_tolerance(None, f"{where} cannot be read ({done.stderr.strip() or 'git show failed'})")
    return harness_tolerance(done.stdout, where)


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


def select(records: list[dict[str, Any]], only: str | None, ops: set[str] | None, cube: bool = False
           ) -> list[tuple[str, str, dict[str, str], dict[str, Any]]]:
    """(key, side, files, record): one final per operator (attempts share it), and the simulator-tier attempts;
    with `cube`, only those whose files use the cube unit, and the final of an op with a cube attempt (whether that
    attempt counts as caught depends on its final running correct)."""
    chosen: list[tuple[str, str, dict[str, str], dict[str, Any]]] = []
    seen: set[str] = set()
    cube_attempt_ops = {r["op"] for r in records if r.get("verifier_tier") == "simulator"
                        and uses_cube(r.get("files_before") or {})}
    for r in records:
        if ops and r["op"] not in ops:
            continue
        after = r.get("files_after")
        if cube and not uses_cube(after or {}) and r["op"] not in cube_attempt_ops:
            after = None
        if after and only != "before" and r["op"] not in seen:
            digest = hashlib.sha1(json.dumps(after, sort_keys=True).encode()).hexdigest()[:8]
            seen.add(r["op"])
            chosen.append((f"{r['op']}:after:{digest}", "after", after, r))
        if r.get("verifier_tier") == "simulator" and only != "after" \
                and (not cube or uses_cube(r.get("files_before") or {})):
            # an attempt without its code (googlenet_inception_v1#2) still counts: a miss, not run
            chosen.append((f"{r['id']}:before", "before", r.get("files_before") or {}, r))
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
    parser.add_argument("--root", type=Path, default=Path(os.environ.get("MULTIKERNELBENCH", DEFAULT_ROOT)),
                        help=f"a MultiKernelBench checkout (default: $MULTIKERNELBENCH, else {DEFAULT_ROOT})")
    parser.add_argument("--workers", type=int, default=None, help="worker processes (0: in this one, serially)")
    parser.add_argument("--results", type=Path, default=None, help="JSONL of verdicts; a rerun resumes from it")
    parser.add_argument("--json", type=Path, default=None, help=f"default {DEFAULT_JSON.name}, with --cube "
                                                                 f"{CUBE_JSON.name}")
    parser.add_argument("--cube", action="store_true",
                        help="only the answers that use the cube unit, and their own tables (issue 29)")
    parser.add_argument("--only", choices=("after", "before"), default=None)
    parser.add_argument("--ops", default=None, help="comma-separated operator names")
    parser.add_argument("--revision", default=REVISION,
                        help="the checkout's revision whose reference programs the records were made with (their "
                             "reference/ is exported under bench/perf/results; 'worktree': the checkout as it is)")
    parser.add_argument("--max-elements", type=int, default=1 << 25)
    parser.add_argument("--time-budget", type=float, default=900.0)
    parser.add_argument("--budget", type=int, default=None, help="simulated instructions per run (default: the "
                                                                   "simulator's, 4e9)")
    parser.add_argument("--merge", type=Path, nargs="+", default=None,
                        help="only combine earlier JSON reports (a later one's row for an answer replaces an "
                             "earlier one's: reruns with other limits) and print the tables")
    args = parser.parse_args()
    if args.json is None:
        args.json = CUBE_JSON if args.cube else DEFAULT_JSON
    if args.merge:
        merged: dict[tuple[str, str, str], dict[str, Any]] = {}
        for path in args.merge:
            for row in json.loads(path.read_text(encoding="utf-8"))["rows"]:
                merged[(row["op"], row["side"], str(row["id"]) if row["side"] == "before" else "")] = row
        if args.records.exists():  # the cube marks as this version of the script makes them
            for r in load_records(args.records):
                for side in ("after", "before"):
                    files = r.get(f"files_{side}")
                    row = merged.get((r["op"], side, str(r["id"]) if side == "before" else ""))
                    if files and row is not None:
                        row["cube"] = uses_cube(files)
                        row.pop("binding_finishes", None)  # the regex reading before binding_replay
                        if "binding_bypass" not in row:  # a row of an earlier version: read its answer now
                            answer = next(iter(sorted(WORK.glob(f"{r['op']}_after_*/*.py"))), None)
                            row["binding_bypass"] = binding_bypass(answer) if side == "after" and answer else ""
        cube_ops = {r["op"] for r in merged.values() if r.get("cube")}
        rows = [r for r in merged.values() if not args.cube or r.get("cube") or r["op"] in cube_ops]
        report = summarise(rows)
        report.update({"rows": rows, "merged": [str(p) for p in args.merge], "elapsed_s": 0.0})
        print_report(report, args.cube)
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2), encoding="utf-8")
        print(f"wrote {args.json}")
        return 0
    if not args.records.exists():
        print(f"no records at {args.records} (pass the path of kernelhive-failures/records.jsonl)", file=sys.stderr)
        return 2

    from bench.harness import Answer, EvalOptions
    from bench.harness.executors import make_executor
    from bench.harness.results import OptionsDiffer, ResultStore
    from bench.harness.run import make_jobs, run_jobs, verdict_options
    from bench.perf.kernelhive_answers import write_answer
    from bench.suites import find_task, load_suite

    try:
        tasks = load_suite("multikernelbench", reference_root(args.root, args.revision))
    except RevisionMissing as exc:
        print(f"sim_realworld: {exc}", file=sys.stderr)
        return 2
    read = revision_tolerance(args.root, args.revision)
    tolerance = read[0].default if read is not None else None
    if read is not None:
        if read[1]:
            print(f"sim_realworld: {read[1]}", file=sys.stderr)
        for t in tasks:  # the exported reference/ has no utils/: the revision's file judges, or its note says why
            t.tolerance, t.notes = read[0], (read[1],) if read[1] else ()
    by_squashed = {t.name.replace("_", ""): t for t in tasks}
    records = load_records(args.records)
    ops = set(args.ops.split(",")) if args.ops else None
    answers: list[Answer] = []
    meta: dict[str, dict[str, Any]] = {}
    diffs: dict[str, str] = {}  # an attempt's diff to its final, for the findings at the lines its fix changed
    skipped: Counter[str] = Counter()
    unrun: list[dict[str, Any]] = []  # selected but not runnable: they count, as misses
    for key, side, files, r in select(records, args.only, ops, args.cube):
        try:
            task = find_task(tasks, r["op"])
        except KeyError:
            task = by_squashed.get(r["op"].replace("_", ""))
        info = {"op": r["op"], "id": r["id"], "side": side, "cube": uses_cube(files), "bug_kind": r.get("bug_kind"),
                "error_class": r.get("error_class")}
        if not files:
            skipped[f"{side}: the record has no code"] += 1
            unrun.append({**info, "reason": "the record holds no code for this side (files_before is empty)"})
            continue
        if task is None:
            skipped["no MultiKernelBench task of that name"] += 1
            unrun.append({**info, "reason": "no MultiKernelBench task of that name"})
            continue
        safe = re.sub(r"[^\w.-]", "_", key)
        path = write_answer(files, task.kernel_name.removesuffix("_custom"), WORK / safe)
        if path is None:
            skipped[f"{side}: no answer file and no kernel source"] += 1
            unrun.append({**info, "reason": "the record has no answer file with its sources as string literals "
                          "(kernel_src computed by answer code) and no op project files"})
            continue
        model_src = files.get(MODEL_SRC) if path.is_dir() else model_src_of(path.read_text(encoding="utf-8"))
        info["bypass"] = bool(model_src) and bypasses_kernel(model_src)  # type: ignore[arg-type]
        info["binding_bypass"] = binding_bypass(path) if side == "after" else ""
        # sample `safe`: the harness names the task of an answer whose ModelNew hands the op weights after it, and a
        # draw's seed follows that name (bench/harness/model_task.py)
        answers.append(Answer(task.name, safe, str(path)))
        meta[safe] = {**info, "task": task.name}
        diffs[safe] = str(r.get("diff") or "") if side == "before" else ""

    options = EvalOptions(draws=1, max_elements=args.max_elements, time_budget_s=args.time_budget,
                          instruction_budget=args.budget,
                          static_shapes=False, performance=False, replay_binding=True)
    jobs = make_jobs(tasks, answers, options)
    try:  # the checkout, its revision and tolerance change verdicts too: a file of another run is refused
        store = ResultStore(args.results, verdict_options(options, root=str(args.root.resolve()),
                                                          revision=args.revision, tolerance=tolerance)) \
            if args.results else None
    except OptionsDiffer as exc:
        print(f"sim_realworld: {exc}; {exc.advice('--results')}",
              file=sys.stderr)
        return 2
    executor = make_executor("serial" if args.workers == 0 else "pool", args.workers)
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
        if v.forward_inputs:  # the op judged on what ModelNew's forward hands it
            m = {**m, "weights": True}
        judged = v.correct is not None
        found = error_findings(v)
        rows.append({**m, "correct": v.correct, "judged": judged, "failure": v.failure, "stage": v.stage,
                     "cause": cause(v), "wall_s": round(v.wall_s, 1), "findings": found,
                     "at_fix": at_fixed_lines(found, diffs.get(v.sample))})
    for u in unrun:
        rows.append({**{k: v for k, v in u.items() if k != "reason"}, "task": None, "correct": None, "judged": False,
                     "failure": "not-run", "stage": "select", "cause": u["reason"], "wall_s": 0.0})
    report = summarise(rows)
    report.update({"rows": rows, "skipped": dict(skipped), "elapsed_s": round(elapsed, 1)})
    print_report(report, args.cube)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=2), encoding="utf-8")
    print(f"wrote {args.json}")
    return 0


# why a final is not correct, from the harness's reason (first match wins); the simulator's own share is the last two
MISS_KINDS = (
    ("inputs too large to run here", r"over the harness's limit"),
    ("ModelNew cannot be built from get_init_inputs", r"ModelNew\(\*get_init_inputs\(\)\) cannot be built"),
    ("op inputs unknown: ModelNew computes them", r"ModelNew computes the op's arguments|reads input \d+ but only"
                                                  r"|ModelNew's self\S* (is not|cannot)"),
    ("inputs differ from the op's (dtype, count)", r"op json supports no inputs|attributes were given"
                                                    r"|reads attribute \d+ as|the op's binding fails"),
    ("binding the replay does not model", r"the binding replay does not model"),
    ("output shape differs from the reference's", r"output shape mismatch"),
    ("host code the host interpreter does not model", r"the host tiling did not set|not modelled by the host"
                                                       r"|host tiling function fails for these inputs: .*is not "
                                                       r"modelled"),
    ("host tiling rejects the reference's shapes", r"TilingFunc returned"),
    ("harness worker died (memory)", r"worker .* died"),
    ("no runnable answer or no such task", r"no answer file|no MultiKernelBench task|holds no code"),
    ("compile", r"^compile"),
    ("instruction budget: too long to simulate here", r"\[ASC957\]"),
    ("wall-time budget: too slow at this machine's load", r"time budget \(\d+ s\) ran out"),
    ("simulator finding", r"\[ASC9\d\d\]|first finding: ASC9"),
    ("wrong output", r"."),
)


def miss_kind(row: dict[str, Any]) -> str:
    if row.get("bypass"):
        return "final bypasses its kernel (torch computes)"
    if row.get("binding_bypass") or "does not come from its kernel's output" in row["cause"]:
        return "binding bypasses its kernel (ATen computes)"
    text = row["cause"] if row["failure"] != "compile" else "compile " + row["cause"]
    return next(kind for kind, pattern in MISS_KINDS if re.search(pattern, text))


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    finals = [r for r in rows if r["side"] == "after"]
    plain = [r for r in finals if not r["cube"]]
    correct = [r for r in plain if r["correct"]]
    judged = [r for r in plain if r["judged"]]
    kinds = Counter(miss_kind(r) for r in plain if not r["correct"])
    attempts = [r for r in rows if r["side"] == "before"]
    counted = [r for r in attempts if not r["cube"] and r["bug_kind"] != "kernel_bypassed_root_cause_unknown"]
    # caught: the attempt's own failure shows when it runs (a wrong output, a simulator finding, the budget), and
    # the op's final runs correct here; where the final fails too, the setup (inputs, host tiling, budget) is what
    # fails, which says nothing about the attempt
    final_ok = {r["op"]: bool(r["correct"]) for r in finals}
    caught = [r for r in counted if r["judged"] and not r["correct"] and r["stage"] != "compile"
              and miss_kind(r) in RUNTIME_KINDS and final_ok.get(r["op"], False)]
    # the second count (bench/perf/sim_attempts.py): a simulator error at a line the attempt's fix changed, the final
    # judged here without it
    final_of = {r["op"]: r for r in finals}
    at_defect = [(r, f) for r in counted if r not in caught for f in [caught_at_defect(r, final_of.get(r["op"]))] if f]
    # the static checks stop some before they run (ASC604 on cores sharing cache lines, ...): not the simulator's
    static = [r for r in counted if r["stage"] == "compile" and re.search(r"error: .*\[ASC[1-8]\d\d\]", r["cause"])]
    return {
        "cube_path": summarise_cube(rows),
        "finals": {"operators": len(finals), "cube": len(finals) - len(plain), "non_cube": len(plain),
                   "correct": len(correct), "rate": len(correct) / max(1, len(plain)), "goal": CORRECT_GOAL,
                   "judged": len(judged), "judged_rate": len(correct) / max(1, len(judged)),
                   "miss_kinds": dict(kinds.most_common()),
                   "misses": [{"op": r["op"], "failure": r["failure"], "kind": miss_kind(r), "cause": r["cause"]}
                              for r in plain if not r["correct"]]},
        "attempts": {"simulator_tier": len(attempts), "counted": len(counted), "caught": len(caught),
                     "rate": len(caught) / max(1, len(counted)), "goal": CAUGHT_GOAL,
                     "caught_statically": [{k: r[k] for k in ("id", "bug_kind", "cause")} for r in static],
                     "missed": [{**{k: r[k] for k in ("id", "bug_kind", "failure", "cause")},
                                 "final": "correct" if final_ok.get(r["op"]) else "not correct here"}
                                for r in counted if r not in caught],
                     "caught_list": [{k: r[k] for k in ("id", "bug_kind", "failure", "cause")} for r in caught],
                     "caught_with_defect_line": len(caught) + len(at_defect),
                     "rate_with_defect_line": (len(caught) + len(at_defect)) / max(1, len(counted)),
                     "at_defect_list": [{"id": r["id"], "bug_kind": r["bug_kind"], "finding": f} for r, f in at_defect]},
    }


RUNTIME_KINDS = ("wrong output", "simulator finding", "instruction budget: too long to simulate here")


def summarise_cube(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Issue 29's tables: the cube finals (correct, each miss's kind and cause) and the cube simulator-tier attempts
    (caught by the rule of the non-cube table: its own failure shows when run and its op's final runs correct here;
    the unknown-root-cause ones are listed, not left out)."""
    finals = [r for r in rows if r["side"] == "after" and r["cube"]]
    final_ok = {r["op"]: bool(r["correct"]) for r in rows if r["side"] == "after"}
    attempts = [r for r in rows if r["side"] == "before" and r["cube"]]
    caught = [r for r in attempts if r["judged"] and not r["correct"] and r["stage"] != "compile"
              and miss_kind(r) in RUNTIME_KINDS and final_ok.get(r["op"], False)]
    return {
        "finals": {"operators": len(finals), "correct": sum(bool(r["correct"]) for r in finals),
                   "judged": sum(bool(r["judged"]) for r in finals),
                   "rows": [{"op": r["op"], "correct": bool(r["correct"]), "kind": "" if r["correct"] else miss_kind(r),
                             "cause": r["cause"], "wall_s": r["wall_s"]} for r in finals]},
        "attempts": {"simulator_tier": len(attempts), "caught": len(caught),
                     "rows": [{"id": r["id"], "bug_kind": r["bug_kind"], "caught": r in caught,
                               "kind": "" if r["correct"] else miss_kind(r), "failure": r["failure"],
                               "final": "correct" if final_ok.get(r["op"]) else "not correct here",
                               "cause": r["cause"]} for r in attempts]},
    }


def print_cube(c: dict[str, Any]) -> None:
    f, a = c["finals"], c["attempts"]
    print(f"Cube finals: {f['correct']} of {f['operators']} correct (judged {f['judged']})")
    for m in sorted(f["rows"], key=lambda m: (m["correct"], m["kind"], m["op"])):
        mark = "correct" if m["correct"] else "miss"
        print(f"  {mark:<7} {m['op']:<48} {m['kind']:<44} {m['cause'][:150]}")
    print(f"Cube simulator-tier failing attempts: {a['caught']} of {a['simulator_tier']} caught")
    for m in a["rows"]:
        print(f"  {'caught' if m['caught'] else 'missed':<6} {m['id']:<44} {m['bug_kind'] or '-':<24} "
              f"final {m['final']:<16} {m['failure'] or 'passed'}: {m['cause'][:110]}")


def print_report(rep: dict[str, Any], cube: bool = False) -> None:
    if cube:
        print_cube(rep["cube_path"])
        print(f"{rep['elapsed_s']:.0f} s")
        return
    f, a = rep["finals"], rep["attempts"]
    print(f"Passing finals: {f['correct']} of {f['non_cube']} non-cube operators correct ({f['rate']:.1%}; goal "
          f"{f['goal']:.0%}); {f['cube']} cube operators left to the cube path")
    print(f"  judged (run and compared) {f['judged']}: {f['correct']} correct ({f['judged_rate']:.1%})")
    print("  misses by kind: " + ", ".join(f"{k} {n}" for k, n in f["miss_kinds"].items()))
    for m in sorted(f["misses"], key=lambda m: (m["kind"], m["op"])):
        print(f"  miss {m['op']:<48} {m['kind']:<44} {m['cause'][:150]}")
    print(f"Simulator-tier failing attempts: {a['caught']} of {a['counted']} caught ({a['rate']:.1%}; goal "
          f"{a['goal']:.0%}) of {a['simulator_tier']} (cube and unknown root cause left out)")
    for m in a["caught_list"]:
        print(f"  caught {m['id']:<44} {m['bug_kind'] or '-':<24} {m['cause'][:140]}")
    for m in a["missed"]:
        print(f"  missed {m['id']:<44} {m['bug_kind'] or '-':<24} final {m.get('final', '?'):<16} "
              f"{m['failure'] or 'passed'}: {m['cause'][:110]}")
    if "caught_with_defect_line" in a:
        print(f"  with an error at a line the attempt's fix changed (its final judged here, without it): "
              f"{a['caught_with_defect_line']} of {a['counted']} ({a['rate_with_defect_line']:.1%})")
        for m in a["at_defect_list"]:
            print(f"  at its fix {m['id']:<40} {m['finding'][0]} at `{m['finding'][1][:100]}`")
    if a.get("caught_statically"):
        print(f"  of the missed, {len(a['caught_statically'])} stopped by a static check before running (not counted): "
              + ", ".join(m["id"] for m in a["caught_statically"]))
    if rep.get("skipped"):
        print("left out: " + ", ".join(f"{k} {n}" for k, n in rep["skipped"].items()))
    print(f"{rep['elapsed_s']:.0f} s")


if __name__ == "__main__":
    sys.exit(main())
