"""The simulator's timing model as Python sees it: the chip's timing tables handed to rust_sim, and what it
reports (cycles, microseconds, busy cycles per pipe, the bounding pipe, HBM use, the Chrome trace) put on a
SimResult. The model itself is Rust (rust_sim/src/timing/; rust_sim/PROGRAM.md, "The timing model").
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ascendir.chips import Chip
    from passes.sim.launch import SimResult

DEFAULT_TRACE_EVENTS = 2_000_000  # a trace keeps at most this many events unless told otherwise


def run_options(chip: Chip, timing: bool, trace: bool | int) -> dict[str, Any]:
    """The keyword arguments of rust_sim._sim.run that time a launch (and trace it) on `chip`."""
    if not timing and not trace:
        return {}
    options: dict[str, Any] = {"timing": chip.timing_tables()}
    if trace:
        options["trace"] = DEFAULT_TRACE_EVENTS if trace is True else max(int(trace), 1)
    return options


def fill_timing(result: SimResult, raw: dict[str, Any]) -> SimResult:
    """Copies the timing model's report from a raw run (rust_sim._sim.run's dict) onto `result`."""
    report = raw.get("timing")
    if report:
        result.cycles = int(report["cycles"])
        result.microseconds = float(report["microseconds"])
        result.pipes = dict(report["pipes"])
        result.bound = str(report["bound"])
        result.timing = dict(report)
    text = raw.get("trace")
    if text:
        result.trace_json = text
        result.trace = json.loads(text)["traceEvents"]
    return result


def write_trace(result: SimResult, path: str | os.PathLike[str]) -> None:
    """Writes the run's trace as a Chrome trace JSON file (Perfetto, chrome://tracing); ValueError if the run
    recorded none."""
    if result.trace_json is None:
        raise ValueError("this run recorded no trace (run it with trace=True)")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(result.trace_json)


def summary(result: SimResult) -> str:
    """One line: the launch's time, the pipe that bounds it, and how busy the HBM was."""
    if result.cycles is None or result.timing is None:
        return "not timed"
    t = result.timing
    busy = (result.pipes or {}).get(result.bound or "", {})
    line = (f"{result.cycles:,} cycles ({result.microseconds:.2f} us at {t['clock_mhz']:.0f} MHz); "
            f"bound by {result.bound} ({100 * float(busy.get('utilization', 0.0)):.0f}% busy); "
            f"HBM {100 * float(t['hbm_utilization']):.0f}% of its bandwidth")
    if int(t["waves"]) > 1:
        line += f"; {t['waves']} waves over {t['cores']} cores"
    # calls of APIs with no timing class (rust_sim/src/timing/cost.rs) are timed by a guess: name them
    apis = [(str(a), int(n)) for a, n in t.get("unmodelled_apis") or []]
    guessed = sum(n for _, n in apis)
    if int(t["unmodelled"]) > guessed:
        line += f"; {int(t['unmodelled']) - guessed} instructions without a cost model"
    if guessed:
        line += (f"; {guessed} calls of APIs without a cost model: "
                 + ", ".join(f"{a} ({n})" for a, n in apis))
    return line
