"""How the simulator path takes bad kernels: every mutant must end in a finding or a clear message (issues 28/30).

    .venv/bin/python bench/perf/sim_robustness.py [--sample 120] [--seed 0] [--budget 20000000] [--timeout 60]
                                                  [--sources tasks,clean,args] [--operators text-] [--json OUT]

A model's answer is a reference kernel with a few things wrong. This takes the bundled suite's reference
solutions (bench/tasks) and the clean corpus's simulator cases (tests/rust_sim/clean_cases*.py: the kernels with
their inputs and launch), makes mutants of their kernel files with the mutation engine (passes/mutate, as
mutants.py does) and with a few plain textual edits of its own (TEXT_OPERATORS: a number changed, a line deleted,
a loop bound doubled, a buffer length halved, an index off by one, a statement cut mid-way), and runs each: a
task's mutant through the bench's stages (compile with static shapes, then correctness on the task's first case,
one draw), a corpus mutant through `ascendir.sim.run` with its case's first shape. `--sources args` adds the
corpus cases' launches with one argument made bad (ARG_OPERATORS: a negative block_dim, a tiling value given as
text, an unknown dtype, a path that does not exist), which must be a SimError that names it. Runs get a small
instruction budget and each runs in a forked child killed after --timeout seconds (the simulator holds no GIL, so
an alarm in the same process could not stop it); the child's stderr is read for Rust panic text.

Outcomes, fine: `ran` (completed, no finding: an edit that changes nothing the run sees, or a wrong output the
comparison judges), `finding` (errors or warnings, each with a file and line), `message` (an exception the API
documents, SimError, or a verdict whose reason says what is wrong without a location: a missing output; the
finding ASC961, an output no core wrote, names the output as no line holds the missing write).
Defects: `unlocated` (an error finding with no file/line), `internal` (ASC000, a bug of ours caught as a
finding), `traceback` (an exception of ours escaping, or the bench's `internal` verdict naming one), `panic` (a
Rust panic, caught or not: 'the simulator failed', 'panicked at' on stderr), `crash` (the child died on a
signal), `hang` (killed past --timeout, or the bench's time budget ran out). The sample is drawn with --seed from
all mutants of all sources (at most one site per operator and file), so two runs with one seed run the same
mutants.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

DEFAULT_JSON = ROOT / "bench" / "perf" / "results" / "sim_robustness.json"
FINE = ("ran", "finding", "message")
DEFECTS = ("unlocated", "internal", "traceback", "panic", "crash", "hang")
PANIC_TEXT = ("the simulator failed", "panicked at", "RUST_BACKTRACE")
KERNEL_SUFFIXES = (".cpp", ".h", ".hpp", ".asc", ".cc")
# findings about the whole launch, which no source line holds: an output no core wrote (the write that is missing
# has no line); each names the output instead
WHOLE_RUN_CODES = ("ASC961",)


# --- textual operators: one edit on one line, the kind a model's answer gets wrong ---------------------------------

def _code(line: str) -> bool:
    s = line.strip()
    return bool(s) and not s.startswith(("//", "/*", "*", "#"))


_NUMBER = re.compile(r"(?<![\w.])(\d+)(?![\w.'])")
_LOOP = re.compile(r"(for\s*\([^;]*;\s*\w+\s*<=?\s*)([^;]+?)(\s*;)")
_INIT_BUFFER = re.compile(r"(InitBuffer\(\s*[^,]+,\s*[^,]+,\s*)([^;]+?)(\)\s*;)")
_INDEX = re.compile(r"(\w)\[([A-Za-z_]\w*)\]")
_STATEMENT = re.compile(r";\s*(//.*)?$")


def _number_sites(lines: list[str], rng: random.Random) -> list[tuple[int, str]]:
    out = []
    for i, line in enumerate(lines):
        if _code(line):
            for m in _NUMBER.finditer(line):
                value = int(m.group(1))
                new = rng.choice([0, value + 1, max(value - 1, 0), value * 2, 1 << 31])
                out.append((i, line[:m.start()] + str(new) + line[m.end():]))
    return out


def _delete_sites(lines: list[str], rng: random.Random) -> list[tuple[int, str]]:
    return [(i, "") for i, line in enumerate(lines) if _code(line) and line.strip() not in ("{", "}", "};")]


def _loop_sites(lines: list[str], rng: random.Random) -> list[tuple[int, str]]:
    return [(i, _LOOP.sub(lambda m: f"{m.group(1)}({m.group(2)}) * 2{m.group(3)}", line, count=1))
            for i, line in enumerate(lines) if _code(line) and _LOOP.search(line)]


def _halve_sites(lines: list[str], rng: random.Random) -> list[tuple[int, str]]:
    return [(i, _INIT_BUFFER.sub(lambda m: f"{m.group(1)}({m.group(2)}) / 2{m.group(3)}", line, count=1))
            for i, line in enumerate(lines) if _code(line) and _INIT_BUFFER.search(line)]


def _index_sites(lines: list[str], rng: random.Random) -> list[tuple[int, str]]:
    out = []
    for i, line in enumerate(lines):
        if _code(line):
            out += [(i, line[:m.start()] + f"{m.group(1)}[{m.group(2)} + 1]" + line[m.end():])
                    for m in _INDEX.finditer(line)]
            for call in ("GetValue(", "SetValue("):
                at = line.find(call)
                if at >= 0 and not line[at + len(call):].startswith(")"):
                    start = at + len(call)
                    out.append((i, line[:start] + "1 + " + line[start:]))
    return out


def _truncate_sites(lines: list[str], rng: random.Random) -> list[tuple[int, str]]:
    out = []
    for i, line in enumerate(lines):
        if _code(line) and _STATEMENT.search(line) and len(line.strip()) > 8:
            body = line.rstrip()
            cut = rng.randrange(len(body) - len(body.lstrip()) + 2, len(body) - 1)
            out.append((i, body[:cut]))
    return out


TEXT_OPERATORS: dict[str, Callable[[list[str], random.Random], list[tuple[int, str]]]] = {
    "text-number": _number_sites,
    "text-delete-line": _delete_sites,
    "text-loop-bound-doubled": _loop_sites,
    "text-buffer-halved": _halve_sites,
    "text-index-off-by-one": _index_sites,
    "text-truncate": _truncate_sites,
}


# --- bad launch arguments: what a caller of ascendir.sim.run gets wrong (--sources args; the clean cases' launches)

ARG_OPERATORS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "arg-block-dim-zero": lambda a: {**a, "block_dim": 0},
    "arg-block-dim-negative": lambda a: {**a, "block_dim": -3},
    "arg-block-dim-text": lambda a: {**a, "block_dim": "8"},
    "arg-budget-negative": lambda a: {**a, "budget": -5},
    "arg-tiling-text": lambda a: {**a, "tiling": {k: "abc" for k in a["tiling"] or {"n": 1}}},
    "arg-tiling-none": lambda a: {**a, "tiling": {k: None for k in a["tiling"] or {"n": 1}}},
    "arg-tiling-huge": lambda a: {**a, "tiling": {k: 10**30 for k in a["tiling"] or {"n": 1}}},
    "arg-tiling-key-negative": lambda a: {**a, "tiling_key": -1},
    "arg-dtype-unknown": lambda a: {**a, "dtypes": ["nonsense"] * 8},
    "arg-source-missing": lambda a: {**a, "source": "/nonexistent/kernel.cpp"},
    "arg-workspace-negative": lambda a: {**a, "workspace": -1},
}


# --- sources and their mutants ---------------------------------------------------------------------------------

@dataclass
class Source:
    kind: str  # "task" (a bundled task's reference project) or "clean" (a clean-corpus simulator case)
    name: str
    root: Path  # the folder copied for a project, or the kernel file
    files: list[Path]  # the files mutated (kernel files of the project, or the file itself)


@dataclass
class Job:
    source: Source
    file: Path
    operator: str
    line: int  # 1-based
    text: str  # the mutated file

    def label(self) -> str:
        rel = self.file.relative_to(self.source.root) if self.file != self.source.root else Path(self.file.name)
        return f"{self.source.name}:{rel}:{self.line} {self.operator}"


_TASKS: dict[str, Any] = {}  # filled in the parent, read in the forked children


def _task_sources() -> list[Source]:
    from bench.suites import load_suite

    out = []
    for task in load_suite("bundled"):
        if task.solution and task.cases:
            _TASKS[task.name] = task
            root = Path(task.solution)
            files = sorted(p for p in (root / "op_kernel").rglob("*") if p.suffix in KERNEL_SUFFIXES)
            out.append(Source("task", task.name, root, files))
    return out


def _clean_cases() -> list[Any]:
    sys.path.insert(0, str(ROOT / "tests" / "rust_sim"))  # the cases are test data: inputs, launch, numpy reference
    from clean_cases import CASES
    from clean_cases_cube import CUBE_CASES
    from clean_cases_gm_tiling import GM_TILING_CASES

    return list(CASES) + list(GM_TILING_CASES) + list(CUBE_CASES)


def _clean_sources() -> list[Source]:
    out = []
    for case in _clean_cases():
        root = Path(case.source)
        files = ([root] if root.is_file() else
                 sorted(p for p in root.rglob("*") if p.suffix in KERNEL_SUFFIXES and "op_host" not in p.parts))
        out.append(Source("clean", case.name, root, files))
    return out


def _arg_jobs(sources: list[Source]) -> list[Job]:
    """Each clean case's launch with each bad argument (its source unchanged)."""
    return [Job(replace(src, kind="args"), src.files[0], name, 0, "") for src in sources if src.kind == "clean"
            for name in ARG_OPERATORS]


def jobs_of(sources: list[Source], seed: int) -> list[Job]:
    """Every source file's mutants: one site per engine operator (spread, as mutants.py) and one random site
    per textual operator."""
    from passes.mutate import OPERATORS, mutants_of

    rng = random.Random(seed)
    jobs = []
    for src in sources:
        for path in src.files:
            text = path.read_text(encoding="utf-8", errors="replace")
            jobs += [Job(src, path, m.operator, m.line, m.text) for m in mutants_of(text, list(OPERATORS), 1)]
            lines = text.split("\n")
            for name, sites_of in TEXT_OPERATORS.items():
                sites = sites_of(lines, rng)
                if sites:
                    i, new = rng.choice(sites)
                    edited = lines[:i] + ([new] if new else []) + lines[i + 1:]
                    jobs.append(Job(src, path, name, i + 1, "\n".join(edited)))
    return jobs


# --- one run, classified -----------------------------------------------------------------------------------------

def _located(file: str, line: int) -> bool:
    return bool(file) and line > 0


def _classify_findings(findings: list[tuple[str, str, str, str, int]]) -> tuple[str, str]:
    """(class, detail) from (code, severity, message, file, line) of a run's findings, or ("", "") if none."""
    if not findings:
        return "", ""
    for code, _, message, file, line in findings:
        if code == "ASC000":
            return "internal", f"{file}:{line}: {message}"
        if any(p in message for p in PANIC_TEXT):
            return "panic", message
    for code, severity, message, file, line in findings:
        if severity.lower() == "error" and not _located(file, line) and code not in WHOLE_RUN_CODES:
            return "unlocated", f"{code}: {message}"
    return "finding", "; ".join(sorted({f[0] for f in findings}))


def _run_task(job: Job, work: Path, budget: int, timeout: float) -> tuple[str, str]:
    from bench.harness.answers import Answer
    from bench.harness.evaluate import EvalOptions, evaluate_answer
    from bench.harness.verdict import INTERNAL, TIMEOUT, WRONG

    whole = _TASKS[job.source.name]
    task = replace(whole, cases=tuple(whole.cases[:1]))  # the first case: small shapes, one run
    folder = work / "answer"
    shutil.copytree(job.source.root, folder)
    (folder / job.file.relative_to(job.source.root)).write_text(job.text, encoding="utf-8")
    options = EvalOptions(draws=1, performance=False, instruction_budget=budget, time_budget_s=timeout * 0.8)
    verdict = evaluate_answer(task, Answer(task.name, "0", str(folder)), options)
    reason = verdict.reason
    if verdict.failure == INTERNAL:
        if any(p in reason for p in PANIC_TEXT):
            return "panic", reason
        return ("internal" if "ASC000" in reason else "traceback"), reason
    if verdict.failure == TIMEOUT:
        return "hang", reason
    findings = [(f.code, f.severity, f.message, f.file, f.line) for f in verdict.diagnostics]
    for case in verdict.cases:
        if any(p in case.reason for p in PANIC_TEXT):
            return "panic", case.reason
        findings += [(f.code, f.severity, f.message, f.file, f.line)
                     for f in list(case.static_findings) + list(case.sim_findings)]
    cls, detail = _classify_findings(findings)
    if cls:
        return cls, detail
    if verdict.failure == WRONG:
        return "ran", reason  # judged: an output outside tolerance
    if verdict.failure:
        return "message", f"{verdict.failure}: {reason}"
    return "ran", "correct" if verdict.correct else str(verdict.correct)


_CASES: dict[str, Any] = {}


def _run_clean(job: Job, work: Path, budget: int) -> tuple[str, str]:
    import numpy as np

    from passes.sim.launch import SimError, run

    case = _CASES[job.source.name]
    launch = case.make(case.shapes[0], np.random.default_rng(7))
    args = dict(block_dim=launch.block_dim, tiling=launch.tiling, tiling_key=launch.tiling_key,
                outputs=launch.outputs, budget=budget, timing=False, outputs_initialised=launch.outputs_initialised,
                tiling_data=launch.tiling_data, workspace=launch.workspace)
    if job.source.kind == "args":
        args = ARG_OPERATORS[job.operator]({**args, "source": str(case.source)})
        source: Any = args.pop("source")
    elif job.source.root.is_file():
        from frontend.pipeline import read_text

        source = read_text(job.text, name=str(job.file))  # its includes resolve beside the original
    else:
        source = work / job.source.root.name
        shutil.copytree(job.source.root, source)
        (source / job.file.relative_to(job.source.root)).write_text(job.text, encoding="utf-8")
        source = str(source)
    try:
        result = run(source, launch.inputs, launch.attrs, **args)
    except SimError as exc:
        return "message", f"SimError: {exc}"
    findings = [(d.code, str(getattr(d.severity, "value", d.severity)), d.message,
                 str(d.span.file) if d.span else "", d.span.line if d.span else 0) for d in result.findings]
    cls, detail = _classify_findings(findings)
    return (cls, detail) if cls else ("ran", "completed" if result.completed else "not completed")


def _child(job: Job, budget: int, timeout: float, conn: Any, stderr_path: str) -> None:
    """In the forked child: run the job, send (class, detail); stderr goes to a file the parent reads."""
    fd = os.open(stderr_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.dup2(fd, 2)
    with tempfile.TemporaryDirectory(prefix="simrob-") as tmp:
        try:
            if job.source.kind == "task":  # (kind "args": a clean case's launch, one argument made bad)
                out = _run_task(job, Path(tmp), budget, timeout)
            else:
                out = _run_clean(job, Path(tmp), budget)
        except Exception as exc:  # noqa: BLE001  (what is measured: an exception escaping the public entry)
            import traceback

            text = f"{type(exc).__name__}: {exc}"
            last = traceback.extract_tb(exc.__traceback__)[-1]
            where = f" at {Path(last.filename).name}:{last.lineno}"
            out = ("panic" if any(p in text for p in PANIC_TEXT) else "traceback", text[:300] + where)
    conn.send(out)
    conn.close()


def run_job(job: Job, budget: int, timeout: float) -> dict[str, Any]:
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    with tempfile.NamedTemporaryFile(prefix="simrob-err-", delete=False) as err:
        stderr_path = err.name
    start = time.monotonic()
    proc = ctx.Process(target=_child, args=(job, budget, timeout, child, stderr_path))
    proc.start()
    child.close()
    cls, detail = "hang", f"killed after {timeout:g} s"
    if parent.poll(timeout):
        try:
            cls, detail = parent.recv()
        except EOFError:
            pass
    proc.join(5)
    if proc.is_alive():
        proc.kill()
        proc.join()
    elif proc.exitcode and proc.exitcode < 0 and cls == "hang":
        cls, detail = "crash", f"signal {-proc.exitcode}"
    stderr = Path(stderr_path).read_text(errors="replace")
    os.unlink(stderr_path)
    if cls in FINE and any(p in stderr for p in PANIC_TEXT):
        cls, detail = "panic", "stderr: " + stderr.strip().splitlines()[-1][:300]
    return {"source": job.source.kind, "name": job.source.name, "file": str(job.file.relative_to(ROOT))
            if job.file.is_relative_to(ROOT) else str(job.file), "line": job.line, "operator": job.operator,
            "class": cls, "detail": detail[:400], "wall_s": round(time.monotonic() - start, 2)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sample", type=int, default=120, help="mutants run, drawn from all of them (0: all)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--budget", type=int, default=20_000_000, help="instructions per simulated run")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per mutant before it counts as a hang")
    ap.add_argument("--sources", default="tasks,clean")
    ap.add_argument("--operators", default="", help="comma-separated name prefixes (text-, drop-): only these")
    ap.add_argument("--json", type=Path, default=DEFAULT_JSON)
    ap.add_argument("--show", type=int, default=8, help="defects listed per class")
    args = ap.parse_args(argv)
    os.environ.setdefault("OMP_NUM_THREADS", "1")

    kinds = set(args.sources.split(","))
    sources = (_task_sources() if "tasks" in kinds else []) + (
        _clean_sources() if kinds & {"clean", "args"} else [])
    _CASES.update({c.name: c for c in (_clean_cases() if kinds & {"clean", "args"} else [])})
    all_jobs = (jobs_of([s for s in sources if s.kind == "task" or "clean" in kinds], args.seed)
                + (_arg_jobs(sources) if "args" in kinds else []))
    if args.operators:
        all_jobs = [j for j in all_jobs if j.operator.startswith(tuple(args.operators.split(",")))]
    jobs = (random.Random(args.seed).sample(all_jobs, args.sample)
            if args.sample and args.sample < len(all_jobs) else all_jobs)
    # warm the imports once in the parent: every forked child starts with them
    import bench.harness.evaluate  # noqa: F401
    import passes.sim.launch  # noqa: F401

    start = time.monotonic()
    results = []
    for n, job in enumerate(jobs, 1):
        results.append(run_job(job, args.budget, args.timeout))
        if n % 20 == 0:
            print(f"  {n} of {len(jobs)} run, {time.monotonic() - start:.0f} s", flush=True)
        if results[-1]["class"] in DEFECTS:
            print(f"  [{n}/{len(jobs)}] {results[-1]['class']}: {job.label()}: {results[-1]['detail'][:160]}",
                  flush=True)
    wall = time.monotonic() - start

    counts = Counter(r["class"] for r in results)
    by_source = {k: Counter(r["class"] for r in results if r["source"] == k) for k in ("task", "clean", "args")}
    print(f"\n{len(jobs)} mutants of {len(all_jobs)} (seed {args.seed}), {len(sources)} sources, {wall:.0f} s")
    print(f"{'class':<12}{'all':>6}{'tasks':>7}{'clean':>7}{'args':>7}")
    for cls in FINE + DEFECTS:
        print(f"{cls:<12}{counts[cls]:>6}{by_source['task'][cls]:>7}{by_source['clean'][cls]:>7}"
              f"{by_source['args'][cls]:>7}"
              + ("   (defect)" if cls in DEFECTS else ""))
    defects = [r for r in results if r["class"] in DEFECTS]
    print(f"defects: {len(defects)} of {len(results)}")
    for cls in DEFECTS:
        for r in [r for r in defects if r["class"] == cls][:args.show]:
            print(f"  {cls}: {r['file']}:{r['line']} {r['operator']}: {r['detail'][:200]}")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"seed": args.seed, "sample": len(jobs), "mutants": len(all_jobs),
                                     "budget": args.budget, "timeout_s": args.timeout, "wall_s": round(wall, 1),
                                     "counts": dict(counts), "results": results}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
