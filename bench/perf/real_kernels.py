"""Errors ascendc-check reports on a folder of real, presumably correct, AscendC kernels (kept outside the repo).

    .venv/bin/python bench/perf/real_kernels.py /path/to/kernels [--chip CHIP] [--json OUT] [--timeout 20]
                                                [--codes ASC402,ASC509] [--examples 3] [--sample N] [--salt S]

Every .cpp/.asc file under the folder that defines a kernel (`__aicore__` appears in it) is checked the way
`ascendc-check FILE` checks a single source, and every error is counted, per code, once per source line (a
template instantiated four times is one line). Vendor samples and shipped operators compile and run, so an
error on them is either a real defect of theirs or a false alarm of ours: this is the precision side of
`realworld.py`, which measures recall on known failures. Files are checked one by one, each with a time
limit; a crash or a timeout is listed, never fatal.

Expect some errors that are not ours to fix: a file checked out of its project misses sibling headers, so
the lowering keeps quiet about undeclared names but a call to an unknown AscendC API is still reported;
each input is checked for the chip ascendc-check picks for it (sources in arch35 folders, or including
headers from one, for the 950PR) unless `--chip` names one for all. The table shows, per
code, the distinct lines, the files and repositories they fall in, and a few examples to read. With
`--projects`, each op project (a folder with op_host/ and op_kernel/) is checked as a whole, host and
kernel together, as `ascendc-check FOLDER` checks it: the precision side of the project rules.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import signal
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

DEFAULT_JSON = ROOT / "bench" / "perf" / "results" / "real_kernels.json"


class Timeout(BaseException):
    """The per-file time limit (a BaseException: the checker turns an Exception inside a rule into ASC000)."""


def on_alarm(signum: int, frame: object) -> None:
    raise Timeout


def kernel_files(root: Path) -> list[Path]:
    """The .cpp/.asc files under `root` that define a kernel."""
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "_")))
        for name in sorted(filenames):
            if name.endswith((".cpp", ".asc")):
                path = Path(dirpath) / name
                if "__aicore__" in path.read_text(encoding="utf-8", errors="replace"):
                    found.append(path)
    return found


def project_dirs(root: Path) -> list[Path]:
    """Op projects under `root`: folders with op_host/ and op_kernel/ (unit-test trees left out)."""
    found = []
    for host in sorted(root.rglob("op_host")):
        project = host.parent
        if host.is_dir() and (project / "op_kernel").is_dir() and "tests" not in project.relative_to(root).parts:
            found.append(project)
    return found


def sample(files: list[Path], root: Path, count: int, salt: str = "") -> list[Path]:
    """`count` of `files`, the same ones on every run and machine: those whose relative path hashes lowest.

    A `salt` draws another fixed choice: the default sample is what rules were tuned on, a salted one
    stands in for the held-out kernels nobody looked at."""
    def key(path: Path) -> str:
        return hashlib.sha1((salt + path.relative_to(root).as_posix()).encode()).hexdigest()
    return sorted(sorted(files, key=key)[:count])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root", type=Path)
    ap.add_argument("--chip", default=None,
                    help="check every file for this chip (default: as ascendc-check picks it per input)")
    ap.add_argument("--json", type=Path, default=DEFAULT_JSON)
    ap.add_argument("--timeout", type=int, default=20, help="seconds per file")
    ap.add_argument("--codes", default="", help="only these codes (comma-separated prefixes)")
    ap.add_argument("--examples", type=int, default=3, help="examples listed per code")
    ap.add_argument("--sample", type=int, default=0,
                    help="check only this many kernel files, a fixed choice by a hash of their paths")
    ap.add_argument("--salt", default="",
                    help="prefix hashed with each path: another fixed sample, unseen while rules were written")
    ap.add_argument("--projects", action="store_true",
                    help="check op projects (folders with op_host/ and op_kernel/) as a whole instead of files")
    args = ap.parse_args()
    if not args.root.is_dir():
        print(f"real_kernels: '{args.root}' is not a folder", file=sys.stderr)
        return 2

    from rich.console import Console
    from rich.table import Table

    from frontend.readers import read_input
    from passes.verify import check_program, load_for_check

    wanted = tuple(c.strip() for c in args.codes.split(",") if c.strip())
    files = project_dirs(args.root) if args.projects else kernel_files(args.root)
    if args.sample:
        files = sample(files, args.root, args.sample, args.salt)
    lines_by_code: dict[str, set[tuple[str, int]]] = defaultdict(set)
    files_by_code: dict[str, set[str]] = defaultdict(set)
    examples: dict[str, list[str]] = defaultdict(list)
    clean = 0
    crashes: list[str] = []
    timeouts: list[str] = []
    signal.signal(signal.SIGALRM, on_alarm)
    started = time.perf_counter()
    for path in files:
        rel = str(path.relative_to(args.root))
        signal.alarm(args.timeout)
        try:
            program, chip = load_for_check(read_input(str(path)), args.chip)
            diags = check_program(program, chip=chip)
        except Timeout:
            timeouts.append(rel)
            continue
        except Exception as exc:  # noqa: BLE001 - a crash of ours is a finding, listed with the others
            crashes.append(f"{rel}: {type(exc).__name__}: {exc}")
            continue
        finally:
            signal.alarm(0)
        errors = [d for d in diags if d.is_error and (not wanted or d.code.startswith(wanted))]
        if not errors:
            clean += 1
        for d in errors:
            where = (str(d.span.file) if d.span else rel, d.span.line if d.span else 0)
            if where in lines_by_code[d.code]:
                continue
            lines_by_code[d.code].add(where)
            files_by_code[d.code].add(rel)
            if len(examples[d.code]) < args.examples:
                shown = os.path.relpath(where[0], args.root) if os.path.isabs(where[0]) else where[0]
                # a header's line names the kernel file that reached it, to check it again on its own
                via = f"   (checking {rel})" if shown != rel else ""
                examples[d.code].append(f"{shown}:{where[1]}: {d.message}{via}")
    seconds = time.perf_counter() - started

    def repo(rel: str) -> str:
        return rel.split(os.sep, 1)[0]

    console = Console()
    what = "op projects" if args.projects else "kernel files"
    table = Table(title=f"errors on {len(files)} {what} under {args.root}, chip {args.chip or 'per input'}")
    for column in ("code", "lines", "files", "repositories"):
        table.add_column(column, justify="left" if column == "code" else "right")
    rows = sorted(lines_by_code, key=lambda c: -len(lines_by_code[c]))
    for code in rows:
        table.add_row(code, str(len(lines_by_code[code])), str(len(files_by_code[code])),
                      str(len({repo(f) for f in files_by_code[code]})))
    console.print(table)
    for code in rows:
        for example in examples[code]:
            console.print(f"  {code}  {example}", highlight=False, soft_wrap=True)
    console.print(f"files without an error: {clean} of {len(files)}; crashes: {len(crashes)}; "
                  f"timeouts: {len(timeouts)}   [{seconds:.0f} s]", highlight=False)
    for crash in crashes:
        console.print(f"  crash: {crash}", highlight=False, soft_wrap=True)

    report: dict[str, Any] = {
        "root": str(args.root), "chip": args.chip, "files": len(files), "files_without_error": clean,
        "seconds": round(seconds, 1), "crashes": crashes, "timeouts": timeouts,
        "errors": {code: {"lines": len(lines_by_code[code]), "files": len(files_by_code[code]),
                          "examples": examples[code]} for code in rows},
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=1))
    console.print(f"wrote {args.json}", highlight=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
