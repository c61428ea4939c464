"""Running many answers: the pool and serial executors agree, the time budget holds (inside a job and from
outside), results resume after a kill, and the Ray executor gives the pool's verdicts."""

from __future__ import annotations

import importlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.harness import Answer, EvalOptions
from bench.harness import executors
from bench.harness.executors import PoolExecutor, SerialExecutor
from bench.harness.results import ResultStore
from bench.harness.run import make_jobs, run_jobs
from bench.suites import find_task, load_suite

evaluate_module = importlib.import_module("bench.harness.evaluate")  # the module, not the function it exports
ROOT = Path(__file__).resolve().parents[2]
TASKS = load_suite("bundled")
FAST = EvalOptions(static_shapes=False)


def some_answers(tmp_path: Path) -> list[Answer]:
    (tmp_path / "empty.md").write_text("nothing here")
    (tmp_path / "bad.md").write_text("<kernel_impl>\n```cpp\nextern \"C\" __global__ __aicore__ void add_custom("
                                     "GM_ADDR x) { nope(); }\n```\n</kernel_impl>\n")
    add = find_task(TASKS, "add")
    return [Answer("sqrt", "0", str(tmp_path / "empty.md")), Answer("add", "1", str(tmp_path / "bad.md")),
            Answer("add", "ref", add.solution), Answer("relu", "0", str(tmp_path / "empty.md"))]


def test_pool_and_serial_give_the_same_verdicts(tmp_path: Path) -> None:
    jobs = make_jobs(TASKS, some_answers(tmp_path), FAST)
    serial = run_jobs(jobs, None, SerialExecutor())
    pool = run_jobs(jobs, None, PoolExecutor(2))
    assert [v.comparable() for v in serial] == [v.comparable() for v in pool]
    assert [v.failure for v in serial] == ["format", "compile", serial[2].failure, "format"]
    assert serial[2].compiled


def test_time_budget_stops_a_stage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # plumbing test: a test double stands in for the compile stage, one that takes too long
    def slow_compile(task, extracted):  # noqa: ANN001, ANN202
        time.sleep(30)

    monkeypatch.setattr(evaluate_module, "compile_answer", slow_compile)
    add = find_task(TASKS, "add")
    jobs = make_jobs(TASKS, [Answer("add", "ref", add.solution)], EvalOptions(time_budget_s=0.5))
    start = time.monotonic()
    v, = run_jobs(jobs, None, PoolExecutor(1))
    assert time.monotonic() - start < 20
    assert (v.failure, v.stage) == ("timeout", "compile") and "time budget (0.5 s)" in v.reason


def test_a_job_that_ignores_its_budget_is_ended(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # plumbing test: a test double for the compile stage that ignores the timer signal, as a native call might
    def stuck_compile(task, extracted):  # noqa: ANN001, ANN202
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        time.sleep(60)

    monkeypatch.setattr(evaluate_module, "compile_answer", stuck_compile)
    monkeypatch.setattr(executors, "GRACE_S", 1.0)
    add = find_task(TASKS, "add")
    answers = [Answer("add", "ref", add.solution), Answer("sqrt", "0", str(some_answers(tmp_path)[0].path))]
    jobs = make_jobs(TASKS, answers, EvalOptions(time_budget_s=0.5))
    start = time.monotonic()
    stuck, after = run_jobs(jobs, None, PoolExecutor(1))
    assert time.monotonic() - start < 30
    assert stuck.failure == "timeout" and "worker did not stop" in stuck.reason
    assert after.failure == "format"  # the replacement worker went on with the next answer


def test_results_file_drops_a_line_cut_mid_write(tmp_path: Path) -> None:
    jobs = make_jobs(TASKS, some_answers(tmp_path)[:2], FAST)
    path = tmp_path / "r.jsonl"
    store = ResultStore(path)
    first = run_jobs(jobs, store, SerialExecutor())
    store.close()
    with open(path, "a") as fh:
        fh.write('{"suite": "bundled", "task": "cut')  # killed while writing a third verdict
    again = ResultStore(path)
    assert len(again) == 2 and path.read_text().count("\n") == 2
    assert [v.comparable() for v in again.select([j.key for j in jobs])] == [v.comparable() for v in first]


def test_kill_and_resume_loses_nothing_and_runs_nothing_twice(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    names = ["sqrt", "add", "relu", "exp", "abs", "neg", "log", "tanh"]
    cmd = [sys.executable, "-m", "cli.bench", *[a for n in names for a in ("--task", n)], "--workers", "1",
           "--no-static-shapes",
           "--results", str(results)]
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if results.exists() and results.read_text().count("\n") >= 3:  # the options line and two verdicts
            break
        time.sleep(0.05)
    assert proc.poll() is None, "the run finished before it could be interrupted"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    before = [json.loads(line) for line in results.read_text().splitlines(keepends=True) if line.endswith("\n")]
    assert "results_options" in before.pop(0)  # the options line (bench/harness/results.py)
    assert 2 <= len(before) < len(names)
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert "resuming from" in done.stdout
    after = [json.loads(line) for line in results.read_text().splitlines()][1:]
    keys = [v["key"] for v in after]
    assert len(keys) == len(set(keys)) == len(names)  # nothing lost, nothing run twice
    assert after[:len(before)] == before  # what was finished is kept as it was
    assert sorted(v["task"] for v in after) == sorted(names)


def test_ray_executor_gives_the_pools_verdicts(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    from bench.harness.ray_executor import RayExecutor

    jobs = make_jobs(TASKS, some_answers(tmp_path), FAST)
    pool = run_jobs(jobs, None, PoolExecutor(2))
    ray_executor = RayExecutor(None, 2)  # a local Ray instance, started here and shut down after
    try:
        on_ray = run_jobs(jobs, None, ray_executor)
    finally:
        ray_executor.close()
    assert [v.comparable() for v in on_ray] == [v.comparable() for v in pool]
