"""bench/perf/sim_attempts.py: the second count of sim_realworld.py's attempts table (a simulator error at a line
the attempt's fix removed or changed, the final judged here without it)."""

from __future__ import annotations

from types import SimpleNamespace

from bench.perf.sim_attempts import at_fixed_lines, caught_at_defect, error_findings, removed_lines

DIFF = """--- error_idx_2
+++ correct_idx_5
@@ -26,3 +26,3 @@
         CopyIn(outer);
-        AscendC::CumSum<float, kConfig>(yLocal, lastRowLocal, xLocal, info);
+        for (uint32_t i = 0; i < n; ++i) { acc += xLocal.GetValue(i); }
         CopyOut(outer);
"""
CUMSUM = "AscendC::CumSum<float, kConfig>(yLocal, lastRowLocal, xLocal, info);"


def test_removed_lines_are_the_attempts_side_of_the_diff() -> None:
    assert removed_lines(DIFF) == {CUMSUM}
    assert removed_lines(None) == set()


def test_error_findings_read_the_source_line(tmp_path) -> None:
    src = tmp_path / "k.py"
    src.write_text("a\n    " + CUMSUM + "\n", encoding="utf-8")
    finding = SimpleNamespace(code="ASC951", severity="error", file=str(src), line=2)
    budget = SimpleNamespace(code="ASC957", severity="error", file=str(src), line=2)
    warning = SimpleNamespace(code="ASC964", severity="warning", file=str(src), line=1)
    verdict = SimpleNamespace(cases=[SimpleNamespace(sim_findings=[finding, budget, warning, finding])])
    assert error_findings(verdict) == [["ASC951", CUMSUM]]


def test_caught_only_at_a_changed_line_with_the_final_judged_without_it() -> None:
    at_fix = at_fixed_lines([["ASC951", CUMSUM], ["ASC951", "CopyOut(outer);"]], DIFF)
    assert at_fix == [["ASC951", CUMSUM]]
    attempt = {"stage": "correctness", "at_fix": at_fix}
    assert caught_at_defect(attempt, {"judged": True, "findings": []}) == ["ASC951", CUMSUM]
    # the final not run to its comparison (a host tiling that stops, no runnable answer): no claim
    assert caught_at_defect(attempt, {"judged": False, "findings": []}) is None
    assert caught_at_defect(attempt, None) is None
    # the final reports the same error at a line of the same text: the finding says nothing about the fix
    assert caught_at_defect(attempt, {"judged": True, "findings": [["ASC951", CUMSUM]]}) is None
    # a finding at a line the fix kept
    kept = {"stage": "correctness", "at_fix": at_fixed_lines([["ASC951", "CopyOut(outer);"]], DIFF)}
    assert caught_at_defect(kept, {"judged": True, "findings": []}) is None
