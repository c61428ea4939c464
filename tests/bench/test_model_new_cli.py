"""`ascendir bench --suite multikernelbench --answers DIR` on answers whose ModelNew hands the op a setting of its
module (op(x, self.negative_slope)): the harness reads the forward with `ast` (bench/harness/model_task.py, never
run) and gives the op what the seeded reference Model holds, for the six-string form and for an op project folder
with model_src.py beside it. Before, only bench/perf's scripts did this (by patching the extract stage); the CLI
left such answers "not evaluated: ModelNew computes the op's arguments". A made-up checkout: no data needed."""

from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from bench.harness.stages.correctness import simulator_available
from cli.main import main

ANSWER = Path(__file__).resolve().parents[1] / "corpus" / "clean" / "answers" / "multikernelbench" / "leaky_relu.md"

# slope 0.25 from get_init_inputs: ModelNew's own default (0.01) would be wrong
REFERENCE = """import torch
import torch.nn.functional as F

class Model(torch.nn.Module):
    def __init__(self, negative_slope):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x):
        return F.leaky_relu(x, self.negative_slope)

def get_inputs():
    return [torch.randn(8, 256)]

def get_init_inputs():
    return [0.25]
"""

PROJECT_FILES = {"project_json_src": "leaky_relu_custom.json", "host_tiling_src": "op_host/leaky_relu_custom_tiling.h",
                 "host_operator_src": "op_host/leaky_relu_custom.cpp", "kernel_src": "op_kernel/leaky_relu_custom.cpp",
                 "model_src": "model_src.py"}


def _as_project(answer: str, folder: Path) -> None:
    """The six strings as an op project folder, ModelNew in model_src.py (as bench_kernelhive.py writes records)."""
    block = answer.split("```python", 1)[1].split("```", 1)[0]
    fields = {n.targets[0].id: n.value.value for n in ast.parse(block).body  # type: ignore[attr-defined]
              if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant)}
    for field, rel in PROJECT_FILES.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(fields[field], encoding="utf-8")


@pytest.mark.skipif(not simulator_available(), reason="the simulator extension is not built")
def test_the_cli_gives_the_op_what_model_new_hands_it(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    root = tmp_path / "mkb"
    (root / "reference" / "activation").mkdir(parents=True)
    (root / "reference" / "activation" / "leaky_relu.py").write_text(REFERENCE, encoding="utf-8")
    answers = tmp_path / "answers" / "leaky_relu"
    answers.mkdir(parents=True)
    text = ANSWER.read_text(encoding="utf-8")
    assert "custom_ops_lib.leaky_relu_custom(x, self.negative_slope)" in text
    shutil.copy(ANSWER, answers / "six.md")
    _as_project(text, answers / "project")
    # a forward the harness does not read (it computes with torch first): still not judged, and says why
    (answers / "computes.md").write_text(text.replace("leaky_relu_custom(x, self.negative_slope)",
                                                      "leaky_relu_custom(torch.tanh(x), self.negative_slope)"))
    report = tmp_path / "report"
    result = CliRunner().invoke(main, ["bench", "--suite", "multikernelbench", "--root", str(root), "--answers",
                                       str(tmp_path / "answers"), "--workers", "1", "--draws", "1",
                                       "--no-static-shapes", "--report", str(report)])
    assert result.exit_code == 0, result.output
    verdicts = {v["sample"]: v for v in map(json.loads, (report / "verdicts.jsonl").read_text().splitlines())}
    for sample in ("six", "project"):
        v = verdicts[sample]
        assert v["correct"] is True and v["forward_inputs"], (sample, v["failure"], v["reason"])
    assert verdicts["project"]["form"] == "project"
    v = verdicts["computes"]
    assert v["correct"] is None and not v["forward_inputs"] and "ModelNew computes the op's arguments" in v["reason"]
