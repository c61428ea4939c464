"""Metrics against values computed by hand: pass@k, the funnel, fast_p, the weighted score, categories."""

from math import comb

import pytest

from bench.harness.metrics import pass_at_k, summarize
from bench.harness.verdict import Verdict


def verdict(task: str, sample: str, level: int | None = 1, category: str = "math", *, compiled: bool = True,
            correct: bool | None = True, speedup: float | None = None) -> Verdict:
    v = Verdict("bundled", task, sample, f"{task}/{sample}", level, category, key=f"{task}#{sample}")
    v.extracted = True
    v.compiled = compiled
    v.correct = correct if compiled else False
    if not compiled:
        v.failure = "compile"
    elif correct is None:
        v.failure = "not-evaluated"
    elif not correct:
        v.failure = "wrong"
    v.speedup = speedup
    v.fast = bool(correct and speedup is not None and speedup > 1.0)
    return v


@pytest.mark.parametrize(("n", "c", "k", "expected"), [
    (10, 3, 1, 0.3),
    (10, 3, 5, 1 - comb(7, 5) / comb(10, 5)),  # 1 - 21/252
    (10, 3, 10, 1.0),  # fewer than k failures: some draw of k always holds a pass
    (5, 0, 1, 0.0),
    (5, 5, 5, 1.0),
    (1, 1, 1, 1.0),
    (20, 1, 10, 0.5),
])
def test_pass_at_k_known_values(n: int, c: int, k: int, expected: float) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(expected)


def test_pass_at_k_needs_enough_samples() -> None:
    with pytest.raises(ValueError, match="at least 5 samples"):
        pass_at_k(3, 1, 5)
    with pytest.raises(ValueError):
        pass_at_k(3, 4, 1)


def test_funnel_counts_per_level_and_overall() -> None:
    vs = [verdict("a", "0", 1), verdict("a", "1", 1, correct=False), verdict("b", "0", 2, compiled=False),
          verdict("c", "0", 3, speedup=1.5), verdict("c", "1", 3, correct=None)]
    s = summarize(vs)
    assert (s.funnel["L1"].answers, s.funnel["L1"].compiled, s.funnel["L1"].correct) == (2, 2, 1)
    assert (s.funnel["L2"].answers, s.funnel["L2"].compiled, s.funnel["L2"].correct) == (1, 0, 0)
    f3 = s.funnel["L3"]
    assert (f3.answers, f3.compiled, f3.correct, f3.faster, f3.not_judged) == (2, 2, 1, 1, 1)
    total = s.funnel["all"]
    assert (total.answers, total.extracted, total.compiled, total.correct, total.faster) == (5, 5, 4, 2, 1)
    assert s.failures == {"compile": 1, "not-evaluated": 1, "wrong": 1}


def test_pass_at_k_over_tasks_uses_only_tasks_with_enough_samples() -> None:
    # task a: 10 samples, 3 correct; task b: 10 samples, none compiled; task c: 2 samples (only in pass@1)
    vs = [verdict("a", str(i), correct=i < 3) for i in range(10)]
    vs += [verdict("b", str(i), compiled=False) for i in range(10)]
    vs += [verdict("c", "0"), verdict("c", "1", correct=False)]
    s = summarize(vs)
    assert s.pass_at["correct"]["pass@1"] == pytest.approx((0.3 + 0.0 + 0.5) / 3)
    assert s.pass_at["correct"]["pass@5"] == pytest.approx((1 - comb(7, 5) / comb(10, 5) + 0.0) / 2)
    assert s.pass_at["compile"]["pass@10"] == pytest.approx((1.0 + 0.0) / 2)
    assert s.pass_tasks == {"pass@1": 3, "pass@5": 2, "pass@10": 2}


def test_fast_p_and_weighted_score() -> None:
    vs = [verdict("a", "0", 1, speedup=2.5), verdict("a", "1", 1, speedup=0.9), verdict("b", "0", 2, correct=False),
          verdict("b", "1", 2, speedup=1.2), verdict("c", "0", 3, compiled=False), verdict("c", "1", 3, speedup=1.0)]
    s = summarize(vs)
    assert s.fast["fast_0"] == pytest.approx(4 / 6)  # the correctness rate
    assert s.fast["fast_1"] == pytest.approx(2 / 6)  # more than 1x: 2.5 and 1.2
    assert s.fast["fast_2"] == pytest.approx(1 / 6)
    assert s.fast["fast_0.8"] == pytest.approx(4 / 6)
    assert s.score == pytest.approx(0.2 * 2 / 2 + 0.3 * 1 / 2 + 0.5 * 1 / 2)
    assert s.score_max == pytest.approx(1.0)
    assert sorted(s.speedups) == [0.9, 1.0, 1.2, 2.5]


def test_score_over_present_levels_only_and_categories() -> None:
    s = summarize([verdict("a", "0", 1, "math"), verdict("b", "0", 1, "activation", correct=False)])
    assert s.score == pytest.approx(0.1)
    assert s.score_max == pytest.approx(0.2)
    assert s.categories["math"]["correct_rate"] == 1.0
    assert s.categories["activation"] == {"answers": 1, "compiled": 1, "correct": 0, "compile_rate": 1.0,
                                          "correct_rate": 0.0}
    assert summarize([verdict("x", "0", None)]).score is None


def test_fast_p_beyond_zero_needs_simulated_times() -> None:
    s = summarize([verdict("a", "0"), verdict("a", "1", correct=False)])
    assert s.fast == {"fast_0": 0.5}  # no speedups measured: fast_p for p > 0 is not reported as 0


def test_integrity_counts() -> None:
    from bench.harness.verdict import CaseResult

    good, bad = verdict("a", "0"), verdict("a", "1", correct=False)
    good.checks = {"outputs_written": True, "inputs_unchanged": True}
    bad.checks = {"outputs_written": False, "inputs_unchanged": True}
    bad.cases = [CaseResult("c0", "fail", unwritten={"y": 7}), CaseResult("c1", "fail", unwritten={"y": 3})]
    s = summarize([good, bad, verdict("b", "0", compiled=False)])
    assert s.integrity == {"outputs_written": {"checked": 2, "failed": 1}, "inputs_unchanged": {"checked": 2, "failed": 0}}
    assert s.unwritten_elements == 10


def test_correctness_lines_say_how_many_answers_were_not_judged() -> None:
    from bench.report.table import metrics_lines

    # nothing judged (MultiKernelBench's references over --max-elements): 0% correct is a lower bound, said so
    lines = metrics_lines(summarize([verdict("a", "0", correct=None), verdict("b", "0", correct=None)]))
    correct = next(line for line in lines if line.startswith("correct pass@1"))
    assert correct == "correct pass@1 0.0% (2 not judged, counted as not correct)"
    assert all("counted as not correct" in line for line in lines if line.startswith(("fast_p", "score")))
    assert not any("counted" in line for line in lines if line.startswith("compile pass@1"))
    # every answer judged: the lines are as before
    assert not any("not judged" in line for line in metrics_lines(summarize([verdict("a", "0")])))
