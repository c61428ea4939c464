"""Simulator speed: the wall time to simulate a kernel beside numpy computing the same result, with the timing
model off and on (issues 28 and 29).

    .venv/bin/python bench/perf/sim.py [--repeat 3] [--case add16m|softmax] [--json OUT]

Cases: (a) a 16M-element fp16 elementwise add on 48 cores (tests/corpus/clean/projects/add_custom) and (b) a row
softmax over 4096 x 4096 fp32 (tests/corpus/clean/projects/softmax_custom), each on the same inputs numpy gets.
Per case, the best of --repeat runs of: numpy; the Rust simulation (`rust_sim._sim.run`: every core's
instructions, the dynamic checks, and with timing the timing model's log, replays and report); and the whole
`passes.sim.run` (source read, lowered and built into a program, outputs allocated, diagnostics made).
Ratios are simulation / numpy (goal: at most 3, timing on too); instr/s is simulated instructions per second of
the Rust simulation with timing on (thousands, as Accel-Sim reports). The simulated time and the pipe that
bounds it come from the timed run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import rust_sim._sim as _sim  # noqa: E402
from passes.sim import run  # noqa: E402


def _add16m() -> tuple[str, list[np.ndarray], Callable[[], np.ndarray], str]:
    n = 16 * 1024 * 1024
    rng = np.random.default_rng(0)
    x, y = rng.uniform(-1, 1, n).astype(np.float16), rng.uniform(-1, 1, n).astype(np.float16)
    return str(ROOT / "tests/corpus/clean/projects/add_custom"), [x, y], lambda: x + y, "z"


def _softmax() -> tuple[str, list[np.ndarray], Callable[[], np.ndarray], str]:
    x = np.random.default_rng(0).uniform(-1, 1, (4096, 4096)).astype(np.float32)

    def reference() -> np.ndarray:
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    return str(ROOT / "tests/corpus/clean/projects/softmax_custom"), [x], reference, ""


CASES = {"add16m": ("16M fp16 add, 48 cores", _add16m), "softmax": ("softmax 4096x4096 fp32", _softmax)}


class RustClock:
    """Times the calls into the Rust simulation that passes.sim.run makes."""

    def __init__(self) -> None:
        self.seconds: list[float] = []
        self._run = _sim.run

    def __enter__(self) -> RustClock:
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return self._run(*args, **kwargs)
            finally:
                self.seconds.append(time.perf_counter() - start)

        _sim.run = timed
        return self

    def __exit__(self, *exc: object) -> None:
        _sim.run = self._run


def best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times, value = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - start)
    return min(times), value


def measure(key: str, repeat: int) -> dict[str, Any]:
    title, make = CASES[key]
    source, inputs, reference, out_name = make()
    numpy_s, expected = best(reference, repeat)
    run(source, [a[: min(a.shape[0], 64)] for a in inputs])  # warm: read and lower the source once
    row: dict[str, Any] = {"case": key, "title": title, "numpy_s": numpy_s}
    for timing in (False, True):
        with RustClock() as clock:
            e2e, result = best(lambda: run(source, inputs, timing=timing), repeat)
        got = result.outputs[out_name or next(iter(result.outputs))]
        row[f"ok_{timing}"] = bool(result.completed) and bool(np.allclose(got, expected, rtol=1e-3, atol=1e-5))
        suffix = "timed" if timing else "untimed"
        row[f"sim_{suffix}_s"] = min(clock.seconds)
        row[f"run_{suffix}_s"] = e2e
        row[f"ratio_{suffix}"] = min(clock.seconds) / numpy_s
        row["instructions"] = result.instructions
        row["block_dim"] = result.block_dim
        if timing:
            row["kinstr_per_s"] = result.instructions / min(clock.seconds) / 1e3
            row["cycles"] = result.cycles
            row["microseconds"] = result.microseconds
            row["bound"] = result.bound
            row["findings"] = sorted({d.code for d in result.errors})
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--case", action="append", choices=sorted(CASES), help="a case to run (default: all)")
    ap.add_argument("--json", type=Path, default=Path(__file__).parent / "results" / "sim.json")
    args = ap.parse_args()
    rows = [measure(key, args.repeat) for key in (args.case or list(CASES))]
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"simulation vs numpy, best of {args.repeat} (ratio goal <= 3)")
    for col in ("case", "numpy ms", "sim ms", "ratio", "sim+timing ms", "ratio", "kinstr/s", "run() ms",
                "simulated us", "bound", "correct"):
        table.add_column(col, justify="left" if col in ("case", "bound") else "right")
    for r in rows:
        table.add_row(r["title"], f"{1e3 * r['numpy_s']:.0f}", f"{1e3 * r['sim_untimed_s']:.0f}",
                      f"{r['ratio_untimed']:.2f}", f"{1e3 * r['sim_timed_s']:.0f}", f"{r['ratio_timed']:.2f}",
                      f"{r['kinstr_per_s']:,.0f}", f"{1e3 * r['run_timed_s']:.0f}", f"{r['microseconds']:.1f}",
                      str(r["bound"]), "yes" if r["ok_True"] and r["ok_False"] else "NO")
    Console(width=200).print(table)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(rows, indent=2))
    print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
