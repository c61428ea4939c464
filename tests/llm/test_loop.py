"""The closed loop end to end on two tasks with the tiny model, through the CLI: samples, verdicts, pairs,
DPO, samples again, and a report of pass@k per level before and after."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cli.main import main


def test_the_loop_runs_end_to_end_on_two_tasks(tiny_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "loop"
    result = CliRunner().invoke(main, [
        "loop", "--model", str(tiny_dir), "--out", str(out), "--tasks", "relu,abs", "--k", "2", "--no-shot",
        "--max-new-tokens", "16", "--steps", "2", "--learning-rate", "1e-3", "--max-length", "1024",
        "--temperature", "1.0"])
    assert result.exit_code == 0, result.output
    assert "pass@k before and after training" in result.output and "compile pass@1" in result.output
    report = json.loads((out / "report.json").read_text())
    assert report["tasks"] == ["relu", "abs"] and report["k"] == 2
    for when in ("before", "after"):
        summary = report[when]
        assert summary["all"]["answers"] == 4 and "L1" in summary
        assert set(summary["all"]["pass_at_k"]) == {"compile", "correct"}
        assert sum(summary["all"]["rungs"].values()) == 4
    # a tiny random model writes no kernel: each task's reference solution is the chosen answer of its pairs
    pairs = [json.loads(line) for line in (out / "train" / "pairs.jsonl").read_text().splitlines()]
    assert report["pairs"] == len(pairs) == 4 and {p["origin"] for p in pairs} == {"reference"}
    assert "=== op_kernel/relu_custom.cpp ===" in next(p for p in pairs if p["task"] == "relu")["chosen"][0]["content"]
    summary = json.loads((out / "train" / "train_summary.json").read_text())
    assert summary["steps"] == 2 and summary["kind"] == "dpo"
    for round_ in ("round0", "round1"):
        verdicts = (out / round_ / "verdicts.jsonl").read_text().splitlines()
        samples = (out / round_ / "samples.jsonl").read_text().splitlines()
        assert len(verdicts) == 4 and len(samples) == 4
    assert (out / "passk.png").is_file()


def test_an_unknown_task_is_a_clear_error(tiny_dir: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["loop", "--model", str(tiny_dir), "--out", str(tmp_path), "--tasks", "relux"])
    assert result.exit_code == 2 and "no task 'relux'" in result.output
