"""The summary table printed in the terminal (rich)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from bench.harness.metrics import Summary
from bench.harness.verdict import Verdict


def _pct(n: int, d: int) -> str:
    return f"{n} ({100 * n / d:.0f}%)" if d else "0"


def summary_table(summary: Summary, title: str = "benchmark") -> Table:
    table = Table(title=title, title_justify="left")
    for col in ("level", "answers", "extracted", "compiled", "correct", "faster", "not judged"):
        table.add_column(col, justify="right" if col != "level" else "left")
    for level, f in summary.funnel.items():
        style = "bold" if level == "all" else None
        table.add_row(level, str(f.answers), _pct(f.extracted, f.answers), _pct(f.compiled, f.answers),
                      _pct(f.correct, f.answers), _pct(f.faster, f.answers), str(f.not_judged), style=style)
    return table


def metrics_lines(summary: Summary) -> list[str]:
    lines = []
    # an answer not judged (a case over --max-elements, no simulator) is not correct in the correctness metrics: a
    # lower bound, said beside each figure so that "correct pass@1 0.0%" over answers none of which ran is not read
    # as every answer wrong
    unjudged = summary.funnel["all"].not_judged if "all" in summary.funnel else 0
    counted = f" ({unjudged} not judged, counted as not correct)" if unjudged else ""
    for label, values in summary.pass_at.items():
        if values:
            lines.append(f"{label} " + ", ".join(f"{k} {100 * v:.1f}%" for k, v in values.items())
                         + (counted if label == "correct" else ""))
    if summary.fast:
        lines.append("fast_p " + ", ".join(f"{k.removeprefix('fast_')}: {100 * v:.1f}%" for k, v in summary.fast.items())
                     + ("" if len(summary.fast) > 1 else " (no simulated times: fast_p for p > 0 not measured)")
                     + counted)
    if summary.score is not None:
        lines.append(f"score {summary.score:.3f} of {summary.score_max:.1f} (NPUKernelBench weights L1 0.2, L2 0.3, "
                     "L3 0.5, over the levels present)" + counted)
    if summary.failures:
        lines.append("stopped: " + ", ".join(f"{k} {n}" for k, n in summary.failures.items()))
    if summary.integrity:
        failing = {k: r["failed"] for k, r in summary.integrity.items() if r["failed"]}
        checked = max(r["checked"] for r in summary.integrity.values())
        lines.append(f"integrity checks ({checked} answers simulated): " + (", ".join(
            f"{k} failed by {n}" for k, n in failing.items()) if failing else "all passed")
            + (f"; {summary.unwritten_elements} output elements never written" if summary.unwritten_elements else ""))
    return lines


def failures_table(verdicts: Sequence[Verdict], limit: int = 20) -> Table | None:
    """The answers that failed a stage, with why (the first `limit`); those not judged are counted apart."""
    bad = [v for v in verdicts if failed(v)]
    if not bad:
        return None
    table = Table(title=f"answers that failed ({len(bad)}{f', first {limit}' if len(bad) > limit else ''})",
                  title_justify="left")
    for col in ("task", "sample", "stage", "checks failed", "why"):
        table.add_column(col, overflow="fold")
    for v in bad[:limit]:
        table.add_row(v.task, v.sample, v.failure or v.stage, failed_checks(v), v.reason)
    return table


def failed_checks(v: Verdict) -> str:
    return ", ".join(k for k, ok in v.checks.items() if not ok)


def failed(v: Verdict) -> bool:
    """An answer that failed a stage (not one merely not judged)."""
    return v.correct is False or bool(v.failure and v.failure != "not-evaluated")


def not_judged_line(verdicts: Sequence[Verdict]) -> str | None:
    unjudged = [v for v in verdicts if v.failure == "not-evaluated"]
    if not unjudged:
        return None
    return f"{len(unjudged)} answer{'s' * (len(unjudged) != 1)} not judged for correctness; first: {unjudged[0].task}: " \
           f"{unjudged[0].reason}"


def reduced_line(verdicts: Sequence[Verdict]) -> str | None:
    """How many answers were judged on shapes reduced from the benchmark's (--fit-shapes), and how they did."""
    reduced = [v for v in verdicts if v.reduced]
    if not reduced:
        return None
    correct = sum(1 for v in reduced if v.correct)
    return (f"{len(reduced)} answer{'s' * (len(reduced) != 1)} judged on shapes reduced from the benchmark's "
            f"(--fit-shapes; {correct} correct there): a verdict at other shapes than the benchmark's own; each "
            "case says what was reduced")


def notes_lines(verdicts: Sequence[Verdict]) -> list[str]:
    """Each distinct note of the verdicts (what the harness assumed: Verdict.notes) once, with how many it holds
    for."""
    counts: dict[str, int] = {}
    for v in verdicts:
        for note in v.notes:
            counts[note] = counts.get(note, 0) + 1
    return [f"note ({n} answer{'s' * (n != 1)}): {note}" for note, n in counts.items()]


def print_summary(summary: Summary, verdicts: Sequence[Verdict], title: str, console: Console | None = None,
                  failures: int = 20) -> None:
    out = console or Console()
    out.print(summary_table(summary, title))
    for line in metrics_lines(summary):
        out.print(line)
    for line in (not_judged_line(verdicts), reduced_line(verdicts), *notes_lines(verdicts)):
        if line:
            out.print(line, markup=False)
    table = failures_table(verdicts, failures) if failures else None
    if table is not None:
        out.print(table)
