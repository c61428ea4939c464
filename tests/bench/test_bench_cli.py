"""`ascendir bench` from the command line, and the report folder it writes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from bench.harness.metrics import summarize
from bench.harness.verdict import Verdict
from bench.report import write_report
from bench.suites import find_task, load_suite
from cli.main import main

TASKS = load_suite("bundled")


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["bench", *args])
    return result.exit_code, result.output


def test_list_and_show() -> None:
    code, out = run("--list")
    assert code == 0 and "sqrt" in out and "sqrt_custom" in out and f"{len(TASKS)} tasks" in out
    code, out = run("--task", "sqrt", "--show")
    assert code == 0
    sqrt = find_task(TASKS, "sqrt")
    assert sqrt.description.strip().splitlines()[0] in out
    assert f"Test case {sqrt.cases[0].id}" in out and "48 AIV" in out and "sqrt_custom" in out
    code, out = run("--task", "sqrt", "--show", "--case", sqrt.cases[-1].id)
    assert code == 0 and f"Test case {sqrt.cases[-1].id}" in out


def test_chip_setting() -> None:
    # the bundled suite's chip is 910B2 (48 vector cores); --chip runs (and shows) the tasks on another one
    code, out = run("--task", "sqrt", "--show", "--chip", "910B3")
    assert code == 0 and "40 AIV" in out and "48 AIV" not in out
    code, out = run("--task", "sqrt", "--show", "--chip", "910Z")
    assert code == 2 and "--chip" in out


def test_usage_errors() -> None:
    code, out = run("--task", "sqrtt", "--show")
    assert code == 2 and "no task 'sqrtt'; did you mean sqrt" in out
    code, out = run("--suite", "npukernelbench")
    assert code == 2 and "needs --root" in out
    code, out = run("--show")
    assert code == 2 and "exactly one --task" in out


def test_answers_folder_report_and_exit_code(tmp_path: Path) -> None:
    answers = tmp_path / "answers"
    (answers / "sqrt").mkdir(parents=True)
    (answers / "sqrt" / "0.md").write_text("I give up.")
    shutil.copytree(find_task(TASKS, "sqrt").solution, answers / "sqrt" / "1")
    (answers / "nonesuch.md").write_text("x")
    report = tmp_path / "report"
    code, out = run("--answers", str(answers), "--workers", "1", "--no-static-shapes", "--report", str(report))
    assert code == 0, out
    assert "skipped nonesuch.md" in out and "answers that failed" in out and "no answer in a known format" in out
    summary = json.loads((report / "summary.json").read_text())
    assert summary["funnel"]["all"]["answers"] == 2 and summary["funnel"]["all"]["compiled"] == 1
    assert summary["pass_at_k"]["compile"]["pass@1"] == 0.5
    verdicts = [json.loads(line) for line in (report / "verdicts.jsonl").read_text().splitlines()]
    assert sorted(v["sample"] for v in verdicts) == ["0", "1"]
    md = (report / "summary.md").read_text()
    assert "| L1 | 2 | 1 | 1 |" in md and "| sqrt | 0 | format |" in md
    for name in ("funnel.png", "speedup.png", "categories.png"):
        assert (report / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_report_with_speedups(tmp_path: Path) -> None:
    vs = []
    for i, (speedup, level, cat) in enumerate([(1.5, 1, "math"), (0.7, 2, "norm"), (3.0, 3, "matmul")]):
        v = Verdict("bundled", f"t{i}", "0", "-", level, cat, key=str(i), extracted=True, compiled=True, correct=True,
                    speedup=speedup, fast=speedup > 1)
        vs.append(v)
    vs[1].correct, vs[1].failure, vs[1].reason = False, "wrong", "case c0: output elements no core wrote (y: 5 of 8)"
    vs[1].checks = {"outputs_written": False, "within_tolerance": True}
    vs[0].checks = {"outputs_written": True, "within_tolerance": True}
    paths = write_report(tmp_path, summarize(vs), vs, "three answers")
    assert {p.name for p in paths} == {"summary.json", "verdicts.jsonl", "summary.md", "funnel.png", "speedup.png",
                                       "categories.png"}
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["fast_p"]["fast_1"] == 2 / 3 and summary["score"] == pytest.approx(0.2 + 0.5)
    assert summary["integrity"]["outputs_written"] == {"checked": 2, "failed": 1}
    md = (tmp_path / "summary.md").read_text()
    assert "| outputs_written | 2 | 1 |" in md and "| within_tolerance | 2 | 0 |" in md
    assert "| t1 | 0 | wrong | outputs_written | case c0: output elements no core wrote" in md
