"""How many seeded bugs ascendc-check finds in real kernels: mutation testing of the rule catalog.

    .venv/bin/python bench/perf/mutants.py /path/to/kernels [--sample N] [--per-file 2] [--jobs 2]
                                           [--operators drop-free,double-free] [--json OUT] [--misses 5]

`realworld.py` measures recall on the bugs that models made in one benchmark; this measures it on bugs put
into kernels that vendors ship, the kind of held-out buggy kernel the rules must not be tuned to. Every
kernel file under the folder that checks clean (no error, within the time limit) gets, one at a time, one
small edit that makes it wrong in a way the documentation or the CPU-debug mode rules out: the operators of
the mutation engine, `passes/mutate` (queue protocol, memory and alignment, API misuse, synchronisation,
tiling; each imitates a root cause of the real failure records). Some of them (the tail of a split dropped,
a loop one tile too long, a DataCopyPad length in elements) are only provable with the task's shapes or by
running the kernel: without shapes, their misses here are expected.
The mutant
counts as found when the checker reports an error (code, line) the original did not have, or a warning of
the rule family expected to find it (InitBuffer twice, ASC212, is a warning); the table also
says how many of those are in the expected rule family and within three lines of the edit. Only edits on
lines the lowering of the original reaches are counted (an edit in code preprocessed away, in a template
never instantiated or in a function no kernel calls changes nothing the checker sees); the others are
listed as "not lowered", with the edits that leave the program correct (a `using namespace AscendC` that an
included header also has).

With `--projects`, op projects (op_host/ + op_kernel/) are mutated instead, with edits that break the
agreement between host and kernel: SetBlockDim deleted, REGISTER_TILING_DATA_CLASS naming another operator,
a tiling field misspelt on either side, the host's set_X of a field the kernel reads deleted.

Some edits cannot be proven wrong from the file alone (a dropped WaitFlag whose SetFlag sits in a callee
the checker cannot see, a dropped FreeTensor in code that never runs twice): misses are listed per operator
to read, not all of them are rule gaps. The edits are textual and line-based, so they only apply to lines
that hold exactly one such statement.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.perf.real_kernels import Timeout, kernel_files, on_alarm, project_dirs, sample
from passes.mutate import (  # noqa: E402,F401  (Mutant, Operator: the names this script always exported)
    OPERATORS,
    PROJECT_OPERATORS,
    Mutant,
    Operator,
    ProjectOperator,
    mutants_of,
)

DEFAULT_JSON = ROOT / "bench" / "perf" / "results" / "mutants.json"
NEAR_LINES = 3


def _checked(bundle: Callable[[], object], chip: str | None, timeout: int) -> list | None:  # type: ignore[type-arg]
    """The errors and warnings of checking the input `bundle()` reads within `timeout` seconds (for `chip`, or
    the one ascendc-check picks for it), or None on a timeout or a crash (either leaves the file or project
    out)."""
    from passes.verify import check_program, load_for_check

    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(timeout)
    try:
        program, target = load_for_check(bundle(), chip)  # type: ignore[arg-type]
        diags = check_program(program, chip=target)
    except (Timeout, Exception):  # noqa: BLE001
        return None
    finally:
        signal.alarm(0)
    return [d for d in diags if d.is_error or d.severity.name == "WARNING"]


def _errors(path: str, text: str, chip: str | None, timeout: int) -> set[tuple[str, int, bool]] | None:
    """(code, line in `path`, is an error) of every error and warning on `text` checked as `path`."""
    from frontend.pipeline import read_text

    diags = _checked(lambda: read_text(text, name=path), chip, timeout)
    if diags is None:
        return None
    return {(d.code, d.span.line if d.span and str(d.span.file) == path else 0, d.is_error) for d in diags}


def _lowered_lines(path: str, text: str, chip: str | None) -> set[int]:
    """The lines of `path` that some op of the lowered original carries: code the checker sees. A site
    elsewhere is preprocessed away (`#if __NPU_ARCH__ == 3510`), in a template never instantiated, or in a
    function the kernel never calls."""
    from xdsl.dialects.builtin import FileLineColLoc

    from ascendir.lower import LoweringOptions, lower_program
    from frontend.pipeline import read_text
    from passes.verify import load_for_check

    program, target = load_for_check(read_text(text, name=path), chip)
    module = lower_program(program, LoweringOptions(chip=target)).module
    lines = set()
    for op in module.walk():
        loc = op.location
        if isinstance(loc, FileLineColLoc) and loc.filename.data == path:
            lines.add(loc.line.data)
    return lines


def _run_file(job: tuple[str, str, int, int, tuple[str, ...]]) -> dict[str, object]:
    path, chip, timeout, per_file, names = job
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    base = _errors(path, text, chip, timeout)
    if base is None:
        return {"path": path, "status": "timeout"}
    if any(is_error for _, _, is_error in base):
        return {"path": path, "status": "not-clean"}
    live = _lowered_lines(path, text, chip)
    operators = [op for op in OPERATORS if op.name in names]
    results = []
    needs_live = {op.name: op.needs_live for op in operators}
    still_correct = {op.name: op.still_correct for op in operators}
    family = {op.name: op.family for op in operators}
    for mutant in mutants_of(text, operators, per_file):
        if needs_live[mutant.operator] and mutant.line not in live:
            results.append({"operator": mutant.operator, "line": mutant.line, "errors": None, "live": False})
            continue
        check = still_correct[mutant.operator]
        if check is not None:
            from frontend.pipeline import load_text
            if check(load_text(mutant.text, name=path)):
                results.append({"operator": mutant.operator, "line": mutant.line, "errors": None, "live": False})
                continue
        found = _errors(path, mutant.text, chip, timeout)
        # new errors, and new warnings of the rules expected to find this edit (ASC212 is a warning)
        new = None if found is None else sorted(
            (code, line) for code, line, is_error in found - base if is_error or code.startswith(family[mutant.operator]))
        results.append({"operator": mutant.operator, "line": mutant.line, "errors": new, "live": True})
    return {"path": path, "status": "clean", "mutants": results}


def _project_diagnostics(folder: str, chip: str | None, timeout: int) -> set[tuple[str, str, int, bool]] | None:
    """(code, file relative to `folder`, line, is an error) of every error and warning on the project."""
    from frontend.readers import read_input

    diags = _checked(lambda: read_input(folder), chip, timeout)
    if diags is None:
        return None
    return {(d.code, os.path.relpath(str(d.span.file), folder) if d.span else "", d.span.line if d.span else 0,
             d.is_error) for d in diags}


def _run_project(job: tuple[str, str, int, int, tuple[str, ...]]) -> dict[str, object]:
    """Checks a copy of the project, then each mutant of it in that copy (one file changed at a time)."""
    import shutil
    import tempfile

    path, chip, timeout, per_file, names = job
    with tempfile.TemporaryDirectory(prefix="mutants-") as tmp:
        copy = os.path.join(tmp, os.path.basename(path))
        shutil.copytree(path, copy, ignore=shutil.ignore_patterns("tests", "examples", "docs", "*.md", "*.json5"))
        sources = {}
        for dirpath, _, filenames in os.walk(copy):
            for name in filenames:
                if name.endswith((".cpp", ".h", ".hpp", ".cc", ".asc")):
                    full = os.path.join(dirpath, name)
                    sources[os.path.relpath(full, copy)] = Path(full).read_text(encoding="utf-8", errors="replace")
        base = _project_diagnostics(copy, chip, timeout)
        if base is None:
            return {"path": path, "status": "timeout"}
        if any(is_error for *_, is_error in base):
            return {"path": path, "status": "not-clean"}
        files = {rel: text.split("\n") for rel, text in sources.items()}
        results = []
        for op in PROJECT_OPERATORS:
            if op.name not in names:
                continue
            sites = list(op.sites(files))
            if len(sites) > per_file:
                step = len(sites) / per_file
                sites = [sites[int(k * step)] for k in range(per_file)]
            for rel, line, new_lines in sites:
                target = os.path.join(copy, rel)
                Path(target).write_text("\n".join(new_lines), encoding="utf-8")
                try:
                    found = _project_diagnostics(copy, chip, timeout)
                finally:
                    Path(target).write_text(sources[rel], encoding="utf-8")
                new = None if found is None else sorted(
                    (code, f"{where}:{ln}") for code, where, ln, is_error in found - base
                    if is_error or code.startswith(op.family))
                results.append({"operator": op.name, "line": f"{rel}:{line + 1}", "errors": new, "live": True})
    return {"path": path, "status": "clean", "mutants": results}


def _near(where: int | str, edit: int | str) -> bool:
    """Whether a finding's line is within NEAR_LINES of the edit (`file:line` strings for projects)."""
    if isinstance(where, str) and isinstance(edit, str):
        (wf, _, wl), (ef, _, el) = where.rpartition(":"), edit.rpartition(":")
        return wf == ef and wl.isdigit() and el.isdigit() and abs(int(wl) - int(el)) <= NEAR_LINES
    return isinstance(where, int) and isinstance(edit, int) and abs(where - edit) <= NEAR_LINES


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("roots", type=Path, nargs="+")
    ap.add_argument("--chip", default=None,
                    help="check every file for this chip (default: as ascendc-check picks it per input)")
    ap.add_argument("--sample", type=int, default=0, help="only this many kernel files per root, fixed by hash")
    ap.add_argument("--per-file", type=int, default=2, help="mutants per operator and file")
    ap.add_argument("--operators", default="", help="comma-separated operator names (default: all)")
    ap.add_argument("--timeout", type=int, default=20, help="seconds per check")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", type=Path, default=DEFAULT_JSON)
    ap.add_argument("--misses", type=int, default=5, help="misses listed per operator")
    ap.add_argument("--projects", action="store_true",
                    help="mutate op projects (folders with op_host/ and op_kernel/) with host/kernel edits instead")
    args = ap.parse_args()

    operators: list[Operator] | list[ProjectOperator] = PROJECT_OPERATORS if args.projects else OPERATORS
    names = tuple(n.strip() for n in args.operators.split(",") if n.strip()) or tuple(op.name for op in operators)
    unknown = set(names) - {op.name for op in operators}
    if unknown:
        print(f"mutants: unknown operator(s) {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    files: list[Path] = []
    for root in args.roots:
        if not root.exists():
            print(f"mutants: '{root}' does not exist", file=sys.stderr)
            return 2
        if args.projects:
            found = project_dirs(root) if root.is_dir() else []
        else:
            found = kernel_files(root) if root.is_dir() else [root]
        files += sample(found, root, args.sample) if args.sample and root.is_dir() else found

    from multiprocessing import Pool

    from rich.console import Console
    from rich.table import Table

    started = time.perf_counter()
    jobs = [(str(p.resolve()), args.chip, args.timeout, args.per_file, names) for p in files]
    with Pool(args.jobs) as pool:
        results = list(pool.imap_unordered(_run_project if args.projects else _run_file, jobs, chunksize=1))
    seconds = time.perf_counter() - started

    by_status = defaultdict(int)
    stats: dict[str, dict[str, int]] = {op.name: defaultdict(int) for op in operators if op.name in names}
    misses: dict[str, list[str]] = defaultdict(list)
    family = {op.name: op.family for op in operators}
    for result in sorted(results, key=lambda r: str(r["path"])):
        by_status[str(result["status"])] += 1
        for m in result.get("mutants", []):  # type: ignore[union-attr]
            row = stats[m["operator"]]
            if not m["live"]:
                row["not_lowered"] += 1
                continue
            if m["errors"] is None:
                row["timeout"] += 1
                continue
            row["mutants"] += 1
            new = [tuple(e) for e in m["errors"]]
            if new:
                row["found"] += 1
                if any(code.startswith(family[m["operator"]]) for code, _ in new):
                    row["in_family"] += 1
                if any(_near(where, m["line"]) for _, where in new):
                    row["near"] += 1
            else:
                misses[m["operator"]].append(f"{result['path']}:{m['line']}")

    console = Console(width=max(Console().width, 110))
    what = "op projects" if args.projects else "kernel files"
    table = Table(title=f"seeded bugs found, {by_status['clean']} clean {what}, chip {args.chip or 'per input'}")
    for column in ("operator", "mutants", "found", "share", "in family", "near the edit", "not lowered",
                   "timeouts"):
        table.add_column(column, justify="left" if column == "operator" else "right")
    total = defaultdict(int)
    for name, row in stats.items():
        for key, value in row.items():
            total[key] += value
        share = f"{row['found'] / row['mutants']:.0%}" if row["mutants"] else "-"
        table.add_row(name, str(row["mutants"]), str(row["found"]), share, str(row["in_family"]),
                      str(row["near"]), str(row["not_lowered"]), str(row["timeout"]))
    share = f"{total['found'] / total['mutants']:.0%}" if total["mutants"] else "-"
    table.add_row("all", str(total["mutants"]), str(total["found"]), share, str(total["in_family"]),
                  str(total["near"]), str(total["not_lowered"]), str(total["timeout"]))
    console.print(table)
    for name, listed in misses.items():
        for miss in listed[:args.misses]:
            console.print(f"  missed {name}: {miss}", highlight=False, soft_wrap=True)
    console.print(f"files: {len(files)}; clean {by_status['clean']}, with errors {by_status['not-clean']}, "
                  f"timeouts {by_status['timeout']}   [{seconds:.0f} s]", highlight=False)

    report = {"roots": [str(r) for r in args.roots], "chip": args.chip, "files": len(files),
              "clean_files": by_status["clean"], "seconds": round(seconds, 1),
              "operators": {name: dict(row) for name, row in stats.items()},
              "all": dict(total), "misses": {k: v for k, v in misses.items()},
              "mutants": [{"path": r["path"], "operator": m["operator"], "line": m["line"], "live": m["live"],
                           "errors": m["errors"]} for r in results for m in r.get("mutants", [])]}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=1))
    console.print(f"wrote {args.json}", highlight=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
