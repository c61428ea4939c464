"""IR validity on real kernels: the AscendIR lowered from each input verifies, and its text form round-trips.

    .venv/bin/python bench/perf/ir_validity.py ROOT [--json OUT] [--timeout 300] [--projects] [--sample N]
                                              [--salt S] [--match TEXT] [--chip CHIP] [--no-round-trip]

ROOT is an NPUKernelBench checkout (its reference answers, `tasks/level*/<Cat>/<Op>/answer/0/`, are the inputs),
or any folder of real kernels: its .cpp/.asc files that define a kernel, or with `--projects` its op projects
(folders with op_host/ and op_kernel/); `--sample N` and `--salt S` draw the fixed samples real_kernels.py
draws. Each input is read and preprocessed as `ascendc-check` reads it (`load_for_check`, the chip it picks
unless `--chip`). An input *parses* when the frontend reports no syntax error (ASC001), unreadable input
(ASC010) or internal error (ASC000). Each one that parses is then:

- lowered once per DTYPE_<NAME> guess the checker makes (float; half and int32_t when some macro is bound by
  no op json), and every module verified with `ascendir.verify.verify_ir` (each op's dialect constraints,
  and that every operand is in scope). It *verifies* when every module does;
- printed (the float guess's module) with and without source locations, parsed back and printed again
  (`ascendir.text`). It *round-trips* when both second prints equal the first.

The table gives both figures as a share of the inputs that parse (the goal is all of them), and lists every
input that fails with the first failure. An exception or a timeout counts as a failure of the stage it
happened in (the limit is CPU time, `--timeout`). JSON goes to bench/perf/results/ir_validity.json by default.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
import traceback
from itertools import zip_longest
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from real_kernels import kernel_files, project_dirs, sample  # noqa: E402

DEFAULT_JSON = ROOT / "bench" / "perf" / "results" / "ir_validity.json"
PARSE_ERRORS = ("ASC000", "ASC001", "ASC010")


class _Timeout(BaseException):
    """The per-input time limit (a BaseException, so no `except Exception` inside the toolchain takes it)."""


def _on_alarm(signum: int, frame: object) -> None:
    raise _Timeout


def inputs(root: Path, projects: bool) -> list[Path]:
    """NPUKernelBench's reference answers when `root` is its checkout, else the kernel files or op projects."""
    answers = sorted(p for p in root.glob("tasks/level*/*/*/answer/0") if p.is_dir())
    if answers:
        return answers
    return project_dirs(root) if projects else kernel_files(root)


def check_input(path: Path, chip: str | None, round_trip: bool) -> dict[str, Any]:
    """The stages one input passes: parses, lowers (kernels), verifies, round-trips; the first failure."""
    from ascendir.lower import LoweringOptions, guessed_dtypes, lower_program, unbound_dtype_macros
    from ascendir.text import parse_ir, print_ir
    from ascendir.verify import verify_ir
    from frontend.readers import read_input
    from passes.verify import load_for_check

    row: dict[str, Any] = {"parses": False, "verifies": None, "round_trips": None, "kernels": 0, "ops": 0}
    program, target = load_for_check(read_input(str(path)), chip)
    row["chip"] = target
    errors = [d for d in program.diagnostics if d.is_error and d.code in PARSE_ERRORS]
    if errors:
        row["failure"] = f"[{errors[0].code}] {errors[0].message}"
        return row
    row["parses"] = True
    guesses = [("float", guessed_dtypes(program.bundle, "float"))]
    unbound = unbound_dtype_macros(program)
    if unbound:
        for guess in ("half", "int32_t"):
            guesses.append((guess, {**dict.fromkeys(unbound, guess), **guessed_dtypes(program.bundle, guess)}))
    first = None
    row["verifies"] = False
    for guess, dtypes in guesses:
        lowered = lower_program(program, LoweringOptions(chip=target, dtypes=dtypes))
        internal = [d for d in lowered.diagnostics if d.code == "ASC000"]
        if internal:
            row["failure"] = f"lowering ({guess}): {internal[0].message}"
            return row
        failures = verify_ir(lowered.module)
        if failures:
            row["failure"] = f"verify ({guess}, {len(failures)} ops): {failures[0]}"
            return row
        if first is None:
            first = lowered
    assert first is not None
    row["verifies"] = True
    row["kernels"] = len(first.kernels)
    row["ops"] = sum(1 for _ in first.module.walk())
    if not round_trip:
        return row
    row["round_trips"] = False
    for debuginfo in (False, True):
        text = print_ir(first.module, debuginfo=debuginfo)
        try:
            again = print_ir(parse_ir(text, str(path)), debuginfo=debuginfo)
        except Exception as exc:  # noqa: BLE001 - a text that does not parse back is the failure measured
            row["failure"] = f"round trip ({'with' if debuginfo else 'without'} locations): " + \
                             " ".join(str(exc).split())[:400]
            return row
        if again != text:
            pairs = list(zip_longest(text.splitlines(), again.splitlines(), fillvalue="<none>"))
            line, (before, after) = next((i, p) for i, p in enumerate(pairs) if p[0] != p[1])
            row["failure"] = (f"round trip ({'with' if debuginfo else 'without'} locations): line {line + 1} "
                              f"was '{before.strip()[:160]}', printed again '{after.strip()[:160]}'")
            return row
    row["round_trips"] = True
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root", type=Path)
    ap.add_argument("--json", type=Path, default=DEFAULT_JSON)
    ap.add_argument("--timeout", type=int, default=300, help="CPU seconds per input (a shared machine's wall time "
                                                              "would depend on what else runs)")
    ap.add_argument("--match", action="append", default=[], help="only inputs whose path holds this text "
                                                                  "(repeatable)")
    ap.add_argument("--chip", default=None, help="lower every input for this chip (default: as ascendc-check picks)")
    ap.add_argument("--projects", action="store_true", help="op projects instead of kernel files (not for "
                                                            "NPUKernelBench, whose answers are projects)")
    ap.add_argument("--sample", type=int, default=0, help="only this many inputs, a fixed choice by path hash")
    ap.add_argument("--salt", default="", help="prefix hashed with each path: another fixed sample")
    ap.add_argument("--no-round-trip", dest="round_trip", action="store_false", help="skip the text round trip")
    args = ap.parse_args()
    if not args.root.is_dir():
        print(f"ir_validity: '{args.root}' is not a folder", file=sys.stderr)
        return 2

    from rich.console import Console
    from rich.table import Table

    found = inputs(args.root, args.projects)
    if args.sample:
        found = sample(found, args.root, args.sample, args.salt)
    if args.match:
        found = [p for p in found if any(m in p.relative_to(args.root).as_posix() for m in args.match)]
    signal.signal(signal.SIGVTALRM, _on_alarm)
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    for path in found:
        rel = path.relative_to(args.root).as_posix()
        t0 = time.perf_counter()
        signal.setitimer(signal.ITIMER_VIRTUAL, args.timeout)
        try:
            row = check_input(path, args.chip, args.round_trip)
        except _Timeout:
            row = {"parses": None, "failure": f"timeout after {args.timeout} CPU seconds"}
        except Exception as exc:  # noqa: BLE001 - a crash is a finding, listed with the rest
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            row = {"parses": None, "failure": f"crash: {type(exc).__name__}: {exc} "
                                              f"({Path(frame.filename).name}:{frame.lineno})"}
        finally:
            signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        row["input"] = rel
        row["seconds"] = round(time.perf_counter() - t0, 2)
        rows.append(row)
    seconds = time.perf_counter() - started

    parsed = [r for r in rows if r.get("parses")]
    # an input that timed out or crashed before its parse was judged counts as parsed and failed, not as left out
    undecided = [r for r in rows if r.get("parses") is None]
    judged = len(parsed) + len(undecided)
    verifying = sum(1 for r in parsed if r.get("verifies"))
    round_tripping = sum(1 for r in parsed if r.get("round_trips"))

    def share(n: int) -> str:
        return f"{n} of {judged} = {100 * n / judged:.1f}%" if judged else "-"

    console = Console()
    table = Table(title=f"IR validity on {len(rows)} inputs under {args.root}")
    table.add_column("stage")
    table.add_column("inputs", justify="right")
    table.add_row("inputs", str(len(rows)))
    table.add_row("parse (no ASC001/ASC010/ASC000)", str(len(parsed)))
    table.add_row("crash or timeout before parse judged", str(len(undecided)))
    table.add_row("verifies, every dtype guess (of what parses)", share(verifying))
    if args.round_trip:
        table.add_row("round-trips, with and without locations (of what parses)", share(round_tripping))
    table.add_row("kernels lowered / ops (float guess)",
                  f"{sum(r.get('kernels', 0) for r in parsed)} / {sum(r.get('ops', 0) for r in parsed)}")
    console.print(table)
    failing = [r for r in rows if r.get("parses") is not False and "failure" in r]
    for r in failing:
        console.print(f"  {r['input']}: {r['failure']}", highlight=False, soft_wrap=True)
    not_parsed = [r for r in rows if r.get("parses") is False]
    if not_parsed:
        console.print(f"not parsed ({len(not_parsed)}): " + ", ".join(r["input"] for r in not_parsed),
                      highlight=False, soft_wrap=True)
    console.print(f"[{seconds:.0f} s]", highlight=False)

    report = {
        "root": str(args.root), "chip": args.chip, "inputs": len(rows), "parsed": len(parsed),
        "undecided": len(undecided), "verifies": verifying,
        "round_trips": round_tripping if args.round_trip else None,
        "verify_rate": verifying / judged if judged else None,
        "round_trip_rate": round_tripping / judged if judged and args.round_trip else None,
        "seconds": round(seconds, 1), "rows": rows,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=1))
    console.print(f"wrote {args.json}", highlight=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
