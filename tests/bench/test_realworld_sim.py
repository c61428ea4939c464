"""realworld_sim.simulate_misses (the simulator's half of bench/perf/realworld.py's recall) runs a record's
failing and passing versions through the op binding, as the device does: a binding that converts an argument
before EXEC_NPU_CMD (masked_fill#0's `mask.contiguous().to(at::kFloat)`) hands the op what its json declares.
Before, the op was handed the reference's bool tensor and both versions stopped at "the op json supports no
inputs of dtypes (float32, bool)": not evaluated. A made-up reference and record: no data needed."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bench.harness.stages.correctness import simulator_available

ANSWER = Path(__file__).resolve().parents[1] / "corpus" / "clean" / "answers" / "multikernelbench" / "mse_loss.md"

# the second input is a bool mask; the op (float predictions, float targets) gets it as floats from the binding
REFERENCE = """import torch

class Model(torch.nn.Module):
    def forward(self, predictions, mask):
        return torch.mean((predictions - mask.float()) ** 2)

def get_inputs():
    return [torch.randn(8, 256), torch.randint(0, 2, (8, 256), dtype=torch.bool)]

def get_init_inputs():
    return []
"""


def _answer(kernel_sub: str) -> str:
    """mse_loss's six strings as the Python file a record holds, its binding converting the mask to float."""
    block = ANSWER.read_text(encoding="utf-8").split("```python", 1)[1].split("```", 1)[0]
    fields = {n.targets[0].id: n.value.value for n in ast.parse(block).body  # type: ignore[attr-defined]
              if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant)}
    bind = fields["python_bind_src"]
    call = "EXEC_NPU_CMD(aclnnMseLossCustom, predictions, targets, result);"
    assert call in bind
    fields["python_bind_src"] = bind.replace(call, "at::Tensor targetsFloat = targets.contiguous().to(at::kFloat);\n"
                                             "    EXEC_NPU_CMD(aclnnMseLossCustom, predictions, targetsFloat, result);")
    assert "Sub(d, p, t, n);" in fields["kernel_src"]
    fields["kernel_src"] = fields["kernel_src"].replace("Sub(d, p, t, n);", kernel_sub)
    return "\n".join(f"{k} = {v!r}" for k, v in fields.items()) + "\n"


@pytest.mark.skipif(not simulator_available(), reason="the simulator extension is not built")
def test_a_binding_converting_a_bool_input_is_replayed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("torch")
    import bench.perf.realworld_sim as realworld_sim

    references = tmp_path / "mkb" / "reference"
    (references / "loss").mkdir(parents=True)
    (references / "loss" / "mse_loss.py").write_text(REFERENCE, encoding="utf-8")
    monkeypatch.setattr(realworld_sim, "WORK", tmp_path / "answers")
    record = {"id": "mse_loss#0", "op": "mse_loss",
              "files_before": {"mse_loss.py": _answer("Add(d, p, t, n);")},  # the bug: + for -
              "files_after": {"mse_loss.py": _answer("Sub(d, p, t, n);")}}
    # a final whose six strings come from a file outside the record (exec of another answer): nothing to run, said
    elsewhere = {"id": "mse_loss#1", "op": "mse_loss", "files_before": record["files_before"],
                 "files_after": {"mse_loss.py": "from pathlib import Path\n_scope = {}\n"
                                                "exec(Path('/elsewhere/add.py').read_text(), _scope)\n"
                                                "kernel_src = _scope['kernel_src']\n"}}
    outcomes = realworld_sim.simulate_misses([record, elsewhere], references, None, 1 << 20, 1, 300.0)
    outcome = outcomes["mse_loss#0"]
    assert "supports no inputs" not in outcome.why, outcome.why
    assert outcome.why.endswith("passing: correct"), outcome.why
    assert outcome.caught, outcome.why
    assert not outcomes["mse_loss#1"].caught
    assert outcomes["mse_loss#1"].why.endswith("passing: " + realworld_sim.NO_ANSWER), outcomes["mse_loss#1"].why


def _verdict(correct: bool | None, failure: str = "", stage: str = "correctness", **checks: bool) -> object:
    from bench.harness.verdict import Verdict

    v = Verdict("multikernelbench", "t", "s", "p", None, "c", None, "k")
    v.correct, v.failure, v.stage, v.checks = correct, failure, stage, dict(checks)
    return v


def test_only_a_failure_of_the_failing_versions_own_counts() -> None:
    from bench.perf.realworld_sim import caught

    final = _verdict(True)
    assert caught(_verdict(False, "wrong"), final)
    assert caught(_verdict(False, "runtime", no_dynamic_findings=False), final)
    assert not caught(_verdict(False, "wrong"), _verdict(False, "wrong"))  # fails both: says nothing of the bug
    assert not caught(_verdict(False, "wrong"), None)  # no passing version run
    # our limits, not the device's: the failing version may only do more work than its fix
    assert not caught(_verdict(False, "timeout"), final)
    assert not caught(_verdict(False, "runtime", within_budget=False), final)
    assert not caught(_verdict(False, "compile", stage="compile"), final)  # the static check's, not the simulator's
    assert not caught(_verdict(None, "not-evaluated"), final)
