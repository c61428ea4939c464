"""Checker throughput: kernels per second through read + preprocess + parse + lower + verify, warm.

    .venv/bin/python bench/perf/check.py [--repeat N] [--json OUT] [--stages] [DIR...]

The inputs are the TPipe-style kernels of the clean corpus (typical 100-200 line kernels; any folder can be
named instead). One warm-up pass builds the parser, loads the catalog and fills type caches; then every
input is checked `--repeat` times with `passes.verify.check_program(load(path))`, the whole path the
`ascendc-check` command takes, in this one process on one core: each time twice, with the lowered IR verified
before the rules (`verify_ir=True`) and without, alternating. Prints a table (per-input median ms each way,
lines) and the throughput over all inputs both ways (the headline is the checker's default), and writes JSON
(default bench/perf/results/check.json).
`--stages` adds a second pass that times loading, lowering and the rules apart (best run per input).
`--instructions` counts instead of timing: it runs the same warm loop under valgrind's callgrind twice, with
and without the measured passes, and reports the difference per kernel in instructions. Seconds depend on the
machine and on what else runs on it; the instruction count does not, so it compares commits across machines.

Goal printed beside the figure: at least 50 kernels per second on one core.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

DEFAULT_DIR = ROOT / "tests" / "corpus" / "clean" / "kernels" / "tpipe"
DEFAULT_JSON = ROOT / "bench" / "perf" / "results" / "check.json"
GOAL = 50.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="*", type=Path, default=[DEFAULT_DIR])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON)
    parser.add_argument("--stages", action="store_true",
                        help="also time load, lowering and rules apart (best of --repeat per input, summed)")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions per kernel under valgrind's callgrind instead of timing")
    parser.add_argument("--passes-only", type=int, default=None, help=argparse.SUPPRESS)  # callgrind's child
    args = parser.parse_args()
    if args.instructions:
        return _count_instructions(args)

    from frontend.pipeline import load
    from passes.verify import check_program, ir_verification_default

    default = ir_verification_default()
    inputs = _inputs(args.dirs)
    if not inputs:
        print("no .cpp/.asc inputs found", file=sys.stderr)
        return 2
    for path in inputs:  # warm-up: parser tables, catalog, caches
        check_program(load(str(path)))
    gc.freeze()  # as ascendc-check does once its long-lived tables are built
    if args.passes_only is not None:  # under callgrind: the measured work and nothing else
        for _ in range(args.passes_only):
            for path in inputs:
                check_program(load(str(path)))
        return 0
    rows = []
    # every check runs twice, with the IR verified before the rules and without, alternating so that both see
    # the same load on the machine; the headline is the checker's default
    total = {True: 0.0, False: 0.0}
    for path in inputs:
        times: dict[bool, list[float]] = {True: [], False: []}
        findings = 0
        for _ in range(args.repeat):
            for verify_ir in (True, False):
                t0 = time.perf_counter()
                diags = check_program(load(str(path)), verify_ir=verify_ir)
                times[verify_ir].append(time.perf_counter() - t0)
                findings = len(diags)
        lines = len(path.read_text(encoding="utf-8", errors="replace").splitlines())
        rows.append({"input": str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path),
                     "lines": lines, "median_ms": statistics.median(times[default]) * 1000,
                     "median_ms_verify_ir_on": statistics.median(times[True]) * 1000,
                     "median_ms_verify_ir_off": statistics.median(times[False]) * 1000, "findings": findings})
        for verify_ir in total:
            total[verify_ir] += sum(times[verify_ir])
    rates = {on: len(inputs) * args.repeat / total[on] for on in total}
    per_second = rates[default]
    mean_lines = statistics.mean(r["lines"] for r in rows)

    try:
        from rich.console import Console
        from rich.table import Table

        table = Table(title=f"ascendc-check throughput: {len(inputs)} kernels x {args.repeat} runs, warm, one core")
        for col in ("input", "lines", "median ms, IR verified", "median ms, not verified", "findings"):
            table.add_column(col, justify="left" if col == "input" else "right")
        for r in rows:
            table.add_row(r["input"], str(r["lines"]), f"{r['median_ms_verify_ir_on']:.1f}",
                          f"{r['median_ms_verify_ir_off']:.1f}", str(r["findings"]))
        Console().print(table)
    except ImportError:  # pragma: no cover
        for r in rows:
            print(f"{r['input']:60} {r['lines']:5} {r['median_ms_verify_ir_on']:8.1f} ms "
                  f"{r['median_ms_verify_ir_off']:8.1f} ms {r['findings']}")
    stages = _stage_times(inputs, args.repeat) if args.stages else None
    if stages is not None:
        print("per kernel (best of runs): " + ", ".join(f"{k} {v:.1f} ms" for k, v in stages.items()))
    verdict = "PASS" if per_second >= GOAL else "MISS"
    print(f"IR verification: {rates[True]:.1f} kernels/s with it, {rates[False]:.1f} without "
          f"({100 * (rates[False] / rates[True] - 1):+.1f}% time; on by default: {default})")
    print(f"goal: at least {GOAL:.0f} kernels per second on one core")
    print(f"{verdict}: {per_second:.1f} kernels/s (mean {mean_lines:.0f} lines per kernel, "
          f"{1000 / per_second:.1f} ms each, parse + lower + verify)")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"kernels_per_second": per_second, "goal": GOAL, "verdict": verdict,
                                     "kernels_per_second_verify_ir_on": rates[True],
                                     "kernels_per_second_verify_ir_off": rates[False], "verify_ir_default": default,
                                     "repeat": args.repeat, "mean_lines": mean_lines, "inputs": rows,
                                     **({"stages_ms": stages} if stages is not None else {})}, indent=2))
    print(f"wrote {args.json}")
    return 0


def _inputs(dirs: list[Path]) -> list[Path]:
    return sorted(p for d in dirs for p in (d.rglob("*") if d.is_dir() else [d]) if p.suffix in (".cpp", ".asc"))


def _count_instructions(args: argparse.Namespace) -> int:
    """Instructions per kernel check: callgrind totals with `--repeat` passes less those with none (start-up,
    imports and the warm-up pass are in both)."""
    import shutil
    import subprocess
    import tempfile

    if shutil.which("valgrind") is None:
        print("--instructions needs valgrind (Debian's valgrind package)", file=sys.stderr)
        return 2
    inputs = _inputs(args.dirs)
    if not inputs:
        print("no .cpp/.asc inputs found", file=sys.stderr)
        return 2
    child = [sys.executable, str(Path(__file__).resolve()), "--passes-only"]
    # one run outside valgrind first: a stale parser or catalog cache would be rebuilt in the first counted run
    # only, and that rebuild would be taken for the measured passes' cost
    subprocess.run([*child, "0", *map(str, args.dirs)], check=True, capture_output=True)
    totals = {}
    with tempfile.TemporaryDirectory() as tmp:
        for passes in (0, args.repeat):
            out = Path(tmp) / f"callgrind.{passes}"
            cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *child, str(passes),
                   *map(str, args.dirs)]
            print(f"callgrind, {passes} measured passes over {len(inputs)} kernels (a few minutes) ...", flush=True)
            done = subprocess.run(cmd, capture_output=True, text=True)
            if done.returncode != 0:
                print(done.stderr[-2000:], file=sys.stderr)
                return 2
            summary = next((line for line in out.read_text().splitlines() if line.startswith("summary:")), None)
            if summary is None:
                print(f"no summary line in {out}", file=sys.stderr)
                return 2
            totals[passes] = int(summary.split()[1])
    per_kernel = (totals[args.repeat] - totals[0]) / (args.repeat * len(inputs))
    print(f"{per_kernel / 1e6:.1f} million instructions per kernel check "
          f"({len(inputs)} kernels x {args.repeat} passes, warm; start-up and warm-up excluded)")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"instructions_per_kernel": per_kernel, "repeat": args.repeat,
                                     "kernels": len(inputs), "callgrind_totals": totals}, indent=2))
    print(f"wrote {args.json}")
    return 0


def _stage_times(inputs: list[Path], repeat: int) -> dict[str, float]:
    """Mean per kernel of each stage's best time over `repeat` runs: load (read, preprocess, parse), lower, verify
    the IR, rules."""
    from ascendir.lower import LoweringOptions, lower_program
    from ascendir.verify import verify_ir
    from frontend.pipeline import load
    from passes.verify import verify

    totals = {"load": 0.0, "lower": 0.0, "verify IR": 0.0, "rules": 0.0}
    for path in inputs:
        best = {k: float("inf") for k in totals}
        for _ in range(repeat):
            t0 = time.perf_counter()
            program = load(str(path))
            t1 = time.perf_counter()
            lowered = lower_program(program, LoweringOptions(chip="910B2"))
            t2 = time.perf_counter()
            verify_ir(lowered.module)
            t3 = time.perf_counter()
            verify(program, lowered.module, "910B2")
            t4 = time.perf_counter()
            for k, dt in (("load", t1 - t0), ("lower", t2 - t1), ("verify IR", t3 - t2), ("rules", t4 - t3)):
                best[k] = min(best[k], dt)
        for k in totals:
            totals[k] += best[k]
    return {k: v / len(inputs) * 1000 for k, v in totals.items()}


if __name__ == "__main__":
    sys.exit(main())
