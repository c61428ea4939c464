"""The report folder (`ascendir bench --report DIR`):

    summary.json     every metric (funnel per level, pass@k, fast_p, score, categories, failures)
    verdicts.jsonl   every verdict
    summary.md       the same as markdown: the funnel table, the metrics, the answers that did not pass
    funnel.png       answers / compiled / correct / faster per level
    speedup.png      the distribution of speedups of the correct answers
    categories.png   compile and correctness rates per category
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path

from bench.harness.metrics import Summary
from bench.harness.results import finite
from bench.harness.verdict import Verdict
from bench.report.table import failed, failed_checks, metrics_lines, not_judged_line, notes_lines, reduced_line

PLOTS = ("funnel.png", "speedup.png", "categories.png")


def write_report(folder: str | Path, summary: Summary, verdicts: Sequence[Verdict], title: str,
                 plots: bool = True) -> list[Path]:
    """Write the report files; returns their paths."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    path = out / "summary.json"
    path.write_text(json.dumps(finite({"title": title, **summary.to_json()}), indent=2, sort_keys=True) + "\n")
    written.append(path)
    path = out / "verdicts.jsonl"
    with open(path, "w", encoding="utf-8") as fh:
        for v in verdicts:
            fh.write(json.dumps(finite(v.to_json()), sort_keys=True) + "\n")
    written.append(path)
    path = out / "summary.md"
    path.write_text(markdown(summary, verdicts, title))
    written.append(path)
    if plots:
        written += write_plots(out, summary)
    return written


def markdown(summary: Summary, verdicts: Sequence[Verdict], title: str) -> str:
    lines = [f"# {title}", "", "| level | answers | extracted | compiled | correct | faster | not judged |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for level, f in summary.funnel.items():
        lines.append(f"| {level} | {f.answers} | {f.extracted} | {f.compiled} | {f.correct} | {f.faster} | "
                     f"{f.not_judged} |")
    lines += [""] + [f"- {line}" for line in metrics_lines(summary)]
    if summary.categories:
        lines += ["", "| category | answers | compiled | correct |", "|---|---:|---:|---:|"]
        for cat, c in summary.categories.items():
            lines.append(f"| {cat} | {c['answers']} | {c['compiled']} | {c['correct']} |")
    if summary.integrity:
        lines += ["", "| integrity check | answers checked | failed |", "|---|---:|---:|"]
        for check, row in summary.integrity.items():
            lines.append(f"| {check} | {row['checked']} | {row['failed']} |")
        lines.append(f"\nOutput elements never written (summed over answers and cases): {summary.unwritten_elements}")
    for line in (not_judged_line(verdicts), reduced_line(verdicts), *notes_lines(verdicts)):
        if line:
            lines += ["", line]
    bad = [v for v in verdicts if failed(v)]
    if bad:
        lines += ["", f"## Answers that failed ({len(bad)})", "", "| task | sample | stopped | checks failed | why |",
                  "|---|---|---|---|---|"]
        for v in bad:
            why = v.reason.replace("|", "\\|").replace("\n", " ")
            lines.append(f"| {v.task} | {v.sample} | {v.failure or v.stage} | {failed_checks(v)} | {why} |")
    return "\n".join(lines) + "\n"


def write_plots(out: Path, summary: Summary) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    levels = [k for k in summary.funnel if k != "all"] or ["all"]
    stages = ("answers", "compiled", "correct", "faster")
    fig, ax = plt.subplots(figsize=(7, 4))
    width = 0.8 / len(stages)
    for i, stage in enumerate(stages):
        values = [getattr(summary.funnel[lv], stage) for lv in levels]
        ax.bar([x + i * width for x in range(len(levels))], values, width, label=stage)
    ax.set_xticks([x + width * (len(stages) - 1) / 2 for x in range(len(levels))], levels)
    ax.set_ylabel("answers")
    ax.set_title("funnel per level")
    ax.legend()
    fig.tight_layout()
    written.append(_save(fig, out / "funnel.png"))
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 4))
    speedups = [s for s in summary.speedups if s > 0 and math.isfinite(s)]
    if speedups:
        logs = [math.log2(s) for s in speedups]
        ax.hist(logs, bins=min(30, max(5, len(logs) // 2)))
        ax.axvline(0.0, color="black", linewidth=1)
        ax.set_xlabel("log2(speedup over the baseline)")
    else:
        ax.text(0.5, 0.5, "no correct answer with a measured speedup", ha="center", va="center",
                transform=ax.transAxes)
    ax.set_ylabel("answers")
    ax.set_title("speedup distribution (correct answers)")
    fig.tight_layout()
    written.append(_save(fig, out / "speedup.png"))
    plt.close(fig)

    cats = list(summary.categories)
    fig, ax = plt.subplots(figsize=(max(6, 0.5 * len(cats) + 2), 4))
    if cats:
        xs = range(len(cats))
        ax.bar([x - 0.2 for x in xs], [100 * summary.categories[c]["compile_rate"] for c in cats], 0.4, label="compiled")
        ax.bar([x + 0.2 for x in xs], [100 * summary.categories[c]["correct_rate"] for c in cats], 0.4, label="correct")
        ax.set_xticks(list(xs), cats, rotation=45, ha="right")
        ax.legend()
    ax.set_ylabel("% of answers")
    ax.set_ylim(0, 100)
    ax.set_title("pass rates per category")
    fig.tight_layout()
    written.append(_save(fig, out / "categories.png"))
    plt.close(fig)
    return written


def _save(fig: object, path: Path) -> Path:
    fig.savefig(path, dpi=100)  # type: ignore[attr-defined]
    return path
