"""The main job as a test: every bundled reference solution through every stage, on every case and both input
draws, on the simulator (what `ascendir bench` runs). Issue 30: "CI runs every bundled reference solution on every
case: all correct", so a reference the harness does not judge (a case over --max-elements, an API the simulator does
not model) fails the test as a wrong one does, named with its reason. This is the one slow test of tests/bench
(about two minutes on two cores)."""

from __future__ import annotations

import pytest

from bench.harness import EvalOptions, reference_answers
from bench.harness.executors import PoolExecutor
from bench.harness.run import make_jobs, run_jobs
from bench.harness.stages.correctness import simulator_available
from bench.suites import load_suite


@pytest.mark.skipif(not simulator_available(), reason="the simulator (passes.sim) is not available")
def test_every_reference_solution_passes_every_case(capsys: pytest.CaptureFixture[str]) -> None:
    tasks = load_suite("bundled")
    jobs = make_jobs(tasks, reference_answers(tasks), EvalOptions(static_shapes=False))
    verdicts = run_jobs(jobs, None, PoolExecutor(2))
    assert len(verdicts) == len(tasks)
    failed = [f"{v.task}: {v.failure}: {v.reason}" for v in verdicts if v.failure and v.failure != "not-evaluated"]
    assert not failed, "\n".join(failed)
    for v in verdicts:
        if v.correct:
            assert all(c.status == "pass" for c in v.cases) and v.checks and all(v.checks.values())
            assert v.speedup is None or v.speedup == pytest.approx(1.0)  # a reference is its own baseline
    unjudged = [f"{v.task}: {v.reason}" for v in verdicts if v.correct is None]
    with capsys.disabled():
        print(f"\n{sum(v.correct is True for v in verdicts)} of {len(verdicts)} reference solutions correct on every "
              f"case; not judged: {len(unjudged)}" + "".join(f"\n  {line}" for line in unjudged))
    assert not unjudged, "references not judged:\n" + "\n".join(unjudged)
