"""Metrics over verdicts: the per-level funnel, unbiased pass@k, fast_p, NPUKernelBench's weighted score,
per-category rates.

- pass@k (Chen et al. 2021, unbiased): per task with n samples of which c pass, 1 - C(n-c, k) / C(n, k);
  averaged over the tasks with n >= k. Computed for compile and for correctness.
- fast_p: the share of answers that are correct and more than p times faster than the baseline (fast_0 is the
  correctness rate); over all answers, as KernelBench and MultiKernelBench report it.
- score: sum over levels of weight x (correct answers / answers) at that level, weights L1 0.2, L2 0.3, L3 0.5
  (NPUKernelBench's run_multi_test.py); levels with no answers add nothing, and `score_max` says what the
  present levels could reach.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from math import comb
from typing import Any

from bench.harness.verdict import Verdict
from bench.suites.model import LEVEL_WEIGHTS

PASS_KS = (1, 5, 10)
FAST_PS = (0.0, 0.5, 0.8, 1.0, 1.5, 2.0)


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k of one task with n samples, c of them passing (requires n >= k)."""
    if k <= 0 or n < k:
        raise ValueError(f"pass@{k} needs at least {k} samples (got {n})")
    if c < 0 or c > n:
        raise ValueError(f"c = {c} passing of n = {n} samples")
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


@dataclass
class Funnel:
    """Counts of answers that reached each stage."""

    answers: int = 0
    extracted: int = 0
    compiled: int = 0
    correct: int = 0
    faster: int = 0
    not_judged: int = 0  # compiled, but correctness could not be judged (no simulator, a case too large)

    def add(self, v: Verdict) -> None:
        self.answers += 1
        self.extracted += v.extracted
        self.compiled += v.compiled
        self.correct += v.correct is True
        self.faster += v.fast is True
        self.not_judged += v.compiled and v.correct is None

    def rates(self) -> dict[str, float]:
        n = self.answers or 1
        return {"extract": self.extracted / n, "compile": self.compiled / n, "correct": self.correct / n,
                "faster": self.faster / n}


@dataclass
class Summary:
    funnel: dict[str, Funnel] = field(default_factory=dict)  # "L1", "L2", "L3", "-" (no level), "all"
    pass_at: dict[str, dict[str, float]] = field(default_factory=dict)  # "compile"/"correct" -> "pass@k" -> value
    pass_tasks: dict[str, int] = field(default_factory=dict)  # "pass@k" -> tasks with n >= k
    fast: dict[str, float] = field(default_factory=dict)  # "fast_p" -> share of answers
    score: float | None = None
    score_max: float | None = None
    categories: dict[str, dict[str, Any]] = field(default_factory=dict)
    failures: dict[str, int] = field(default_factory=dict)  # failure kind -> answers
    speedups: list[float] = field(default_factory=list)
    # integrity: check -> {"checked": answers simulated with it, "failed": answers failing it}; and the output
    # elements never written, summed over the answers' worst draw per case
    integrity: dict[str, dict[str, int]] = field(default_factory=dict)
    unwritten_elements: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"funnel": {k: {**vars(f), "rates": f.rates()} for k, f in self.funnel.items()},
                "pass_at_k": self.pass_at, "pass_at_k_tasks": self.pass_tasks, "fast_p": self.fast,
                "score": self.score, "score_max": self.score_max, "categories": self.categories,
                "failures": self.failures, "speedups": self.speedups, "integrity": self.integrity,
                "unwritten_elements": self.unwritten_elements}


def level_name(level: int | None) -> str:
    return f"L{level}" if level is not None else "-"


def summarize(verdicts: Iterable[Verdict], ks: Sequence[int] = PASS_KS, ps: Sequence[float] = FAST_PS) -> Summary:
    """Every metric over `verdicts` (any mix of tasks, levels and samples)."""
    vs = list(verdicts)
    s = Summary()
    total = Funnel()
    by_level: dict[str, Funnel] = defaultdict(Funnel)
    by_task: dict[tuple[str, str, str | None], list[Verdict]] = defaultdict(list)
    by_cat: dict[str, Funnel] = defaultdict(Funnel)
    failures: dict[str, int] = defaultdict(int)
    for v in vs:
        total.add(v)
        by_level[level_name(v.level)].add(v)
        by_cat[v.category or "-"].add(v)
        by_task[(v.suite, v.task, v.case_filter)].append(v)
        if v.failure:
            failures[v.failure] += 1
        if v.speedup is not None and v.correct:
            s.speedups.append(v.speedup)
        for check, passed in v.checks.items():
            row = s.integrity.setdefault(check, {"checked": 0, "failed": 0})
            row["checked"] += 1
            row["failed"] += not passed
        s.unwritten_elements += sum(n for c in v.cases for n in c.unwritten.values())
    s.funnel = {k: by_level[k] for k in sorted(by_level)}
    s.funnel["all"] = total
    s.failures = dict(sorted(failures.items()))
    for label, ok in (("compile", lambda v: v.compiled), ("correct", lambda v: v.correct is True)):
        s.pass_at[label] = {}
        for k in ks:
            groups = [g for g in by_task.values() if len(g) >= k]
            if not groups:
                continue
            s.pass_at[label][f"pass@{k}"] = sum(pass_at_k(len(g), sum(1 for v in g if ok(v)), k)
                                                for g in groups) / len(groups)
            s.pass_tasks[f"pass@{k}"] = len(groups)
    n = len(vs) or 1
    timed = any(v.speedup is not None for v in vs)
    for p in ps:
        if p > 0 and not timed:
            continue  # no simulated times (no timing model, or nothing correct): fast_p for p > 0 is not measured
        s.fast[f"fast_{p:g}"] = sum(1 for v in vs if v.correct and (p == 0 or (v.speedup or 0.0) > p)) / n
    levels = [lv for lv in LEVEL_WEIGHTS if f"L{lv}" in by_level]
    if levels:
        s.score = sum(LEVEL_WEIGHTS[lv] * by_level[f"L{lv}"].correct / by_level[f"L{lv}"].answers for lv in levels)
        s.score_max = sum(LEVEL_WEIGHTS[lv] for lv in levels)
    s.categories = {c: {"answers": f.answers, "compiled": f.compiled, "correct": f.correct,
                        "compile_rate": f.compiled / f.answers, "correct_rate": f.correct / f.answers}
                    for c, f in sorted(by_cat.items())}
    return s
