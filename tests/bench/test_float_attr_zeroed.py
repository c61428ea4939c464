"""ASC812 in the harness: a binding that hands a float attribute to EXEC_NPU_CMD as a C++ float builds, and the op
reads 0 there (the float's bits fill only the low half of the double the aclnn entry takes). The harness runs the
answer with 0 instead of failing its compile stage, so the verdict is the device's: wrong where the kernel uses the
attribute, correct where it ignores it (KernelHive's convtranspose2d_softmax_biasadd_scaling_sigmoid final, which
passed on hardware with its scale hard-coded in the kernel). The corpus's ASC812 LeakyRelu answer against a
made-up MultiKernelBench reference: no data needed."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.harness import Answer
from bench.harness.evaluate import EvalOptions, evaluate_answer
from bench.harness.stages.correctness import simulator_available
from bench.suites.multikernelbench import read_task

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
NARROWED = CORPUS / "rules" / "project" / "exec_npu_cmd_float_attr.md"  # float slope = ...; EXEC_NPU_CMD(..., slope)

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


def _task(tmp_path: Path):
    program = tmp_path / "reference" / "activation" / "leaky_relu.py"
    program.parent.mkdir(parents=True)
    program.write_text(REFERENCE, encoding="utf-8")
    return read_task(program)


def _run(tmp_path: Path, text: str, name: str, replay: bool):
    """The verdict on the answer `text`, ModelNew's `self.negative_slope` read by the harness (model_task.py)."""
    path = tmp_path / name / "leaky_relu.md"
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    task = _task(tmp_path / name)
    options = EvalOptions(draws=1, performance=False, replay_binding=replay)
    verdict = evaluate_answer(task, Answer(task.name, name, str(path)), options)
    assert verdict.forward_inputs  # the op got the reference Model's negative_slope
    return verdict


@pytest.mark.skipif(not simulator_available(), reason="the simulator extension is not built")
@pytest.mark.parametrize("replay", [False, True], ids=["direct", "binding-replay"])
def test_a_float_attribute_passed_as_float_reads_zero(tmp_path: Path, replay: bool) -> None:
    pytest.importorskip("torch")
    text = NARROWED.read_text(encoding="utf-8")
    v = _run(tmp_path, text, "narrowed", replay)
    # it builds (ASC812 stays a finding), and LeakyRelu with slope 0 zeroes the negatives: wrong, as on the device
    assert v.compiled and v.failure == "wrong", (v.failure, v.reason)
    assert any(d.code == "ASC812" for d in v.diagnostics)
    # the same binding, the kernel's slope hard-coded: the attribute is never used, and the answer passes
    ignored = text.replace("this->slope = negativeSlope;", "this->slope = 0.25f;")
    assert ignored != text
    v = _run(tmp_path, ignored, "ignored", replay)
    assert v.correct is True, (v.failure, v.reason)


def test_the_message_and_the_rule_page_say_what_the_device_and_the_harness_do() -> None:
    """ASC812 said the kernel reads 'garbage' while the harness ran such answers with the attribute 0 (488fc19): the
    message, its note and the rule page now say the same thing, 0 on the device and in the harness."""
    from frontend.pipeline import read_input
    from passes.verify import RULES, check_program, load_for_check
    from passes.verify.project_binding import zeroed_attribute

    page = RULES["ASC812"].why
    assert "0 as a float" in page and "`ascendir bench`" in page and "give the op 0 for that attribute" in page
    found = [d for d in check_program(load_for_check(read_input(str(NARROWED)))[0]) if d.code == "ASC812"]
    assert len(found) == 1
    d = found[0]
    text = " ".join([d.message, *(n.message for n in d.notes)])
    assert "reads 'negative_slope' as 0" in d.message and "garbage" not in text
    assert "the benchmark harness runs the answer so, as the device does" in text
    assert zeroed_attribute(d) == 0  # the note the harness reads the attribute's index from
