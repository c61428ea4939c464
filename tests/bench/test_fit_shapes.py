"""`ascendir bench --suite multikernelbench --fit-shapes` (bench/suites/fit_shapes.py): a reference program whose
case draws more input elements than --max-elements runs with its module-level size constants halved until it fits,
and every result says so. Today's MultiKernelBench programs draw up to 2^31 elements (4096 x 393216 for an
activation), so without this most of the checkout is 'not evaluated'. A made-up checkout and answer: no data needed.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bench.harness import EvalOptions
from bench.harness.answers import Answer, answer_key
from bench.harness.evaluate import evaluate_answer
from bench.suites import load_suite
from bench.suites.fit_shapes import Fit, NoFit, fit_constants, module_constants
from bench.suites.multikernelbench import load_tasks

ANSWER = Path(__file__).resolve().parents[1] / "corpus" / "clean" / "answers" / "multikernelbench" / "hardsigmoid.py"

# the benchmark's style: sizes as module-level constants read by get_inputs
REFERENCE = """import torch

class Model(torch.nn.Module):
    def forward(self, x):
        return torch.nn.functional.hardsigmoid(x)

batch_size = 64
dim = 4096

def get_inputs():
    return [torch.randn(batch_size, dim) * 4]

def get_init_inputs():
    return []
"""

LIMIT = 1 << 15  # 64 x 4096 = 2^18 input elements: over it


def _checkout(root: Path, text: str = REFERENCE, name: str = "hardsigmoid") -> Path:
    (root / "reference" / "activation").mkdir(parents=True)
    (root / "reference" / "activation" / f"{name}.py").write_text(text, encoding="utf-8")
    return root


def test_the_largest_constant_is_halved_until_the_case_fits() -> None:
    fit = fit_constants(REFERENCE, "hardsigmoid.py", LIMIT)
    assert isinstance(fit, Fit)
    assert dict(fit.constants) == {"dim": 512} and dict(fit.original) == {"dim": 4096}
    assert (fit.elements_before, fit.elements) == (64 * 4096, 64 * 512)
    assert fit.inputs == (((64, 512), "float32"),)
    assert fit.describe() == ("reduced with --fit-shapes (262,144 -> 32,768 input elements): dim 4096 -> 512; "
                              "inputs [64, 512]:float32")
    assert fit_constants(REFERENCE, "hardsigmoid.py", 1 << 18) is None  # under the limit: unchanged


def test_alignment_axes_and_kernel_sizes_are_kept() -> None:
    # 48 = 3 x 16 may not become 24 (its factor 16 would be lost); odd sizes, axes and strides never change;
    # a constant get_inputs does not read (out_features) is not touched
    text = REFERENCE.replace("batch_size = 64\ndim = 4096", "batch_size = 48\ndim = 4096\nkernel_size = 3\n"
                             "reduce_dim = 1\nout_features = 8192")
    fit = fit_constants(text, "t.py", 48 * 64)
    assert isinstance(fit, Fit) and dict(fit.constants) == {"dim": 64}
    fit = fit_constants(text, "t.py", 48 * 16)  # dim stops at 32 (its factor up to 2^5), batch at 48
    assert isinstance(fit, NoFit)
    assert fit.reason.endswith("1,536, over 768 (dim 4096 -> 32)")


def test_constants_written_as_expressions_chains_and_tuples() -> None:
    text = ("import torch\nM = 1024 * 2\nh = w = 128\na, b = 256, 3\nc = 8\nc += 1\n"
            "def get_inputs():\n    return [torch.rand(M, h, w, a, b)]\n")
    assert module_constants(__import__("ast").parse(text)) == {"M": 2048, "h": 128, "w": 128, "a": 256, "b": 3}
    fit = fit_constants(text, "t.py", 2048 * 128 * 128 * 256 * 3 // 64)
    assert isinstance(fit, Fit)
    # the largest first (M 2048 -> 128, then a 256 -> 128), ties in file order (M, not h or w)
    assert dict(fit.constants) == {"M": 64, "a": 128}
    assert fit.inputs == (((64, 128, 128, 128, 3), "float32"),)


def test_the_reference_runs_with_the_reduced_constants(tmp_path: Path) -> None:
    (plain,) = load_tasks(_checkout(tmp_path))
    assert plain.input_elements(plain.cases[0]) == 64 * 4096 and not plain.cases[0].reduced
    (task,) = load_tasks(tmp_path, LIMIT)
    case = task.cases[0]
    assert case.reduced.startswith("reduced with --fit-shapes") and task.input_elements(case) == 64 * 512
    inputs = task.make_inputs(case, 7)
    assert inputs.values["x"].shape == (64, 512)
    expected = task.reference(case, inputs)["y"]
    assert np.allclose(expected, np.clip(inputs.values["x"] / 6 + 0.5, 0, 1), atol=1e-6)
    # the plain task still draws the benchmark's shape (the reduced module is a different one)
    assert plain.make_inputs(plain.cases[0], 7).values["x"].shape == (64, 4096)
    assert task.variant and not plain.variant
    answer = Answer(task.name, "0", str(ANSWER))
    assert answer_key(task.suite, answer, task.variant) != answer_key(plain.suite, answer, plain.variant)


def test_an_unfit_case_says_why(tmp_path: Path) -> None:
    # odd sizes (here literals inside get_inputs) are never halved: nothing to halve
    text = REFERENCE.replace("torch.randn(batch_size, dim)", "torch.randn(65, 4095)")
    (task,) = load_tasks(_checkout(tmp_path, text), LIMIT)
    assert not task.cases[0].reduced
    assert "(no size can be halved: odd sizes" in task.cases[0].not_reduced
    verdict = evaluate_answer(task, Answer(task.name, "0", str(ANSWER)), EvalOptions(draws=1, max_elements=LIMIT))
    assert verdict.failure == "not-evaluated" and not verdict.reduced
    assert "--fit-shapes: no size constant can be halved" in verdict.cases[0].reason


# the benchmark's other styles: a tuple constant spliced into the shape (cumsum_exclusive), sizes written inside
# get_inputs with a broadcast partner (logic_and_broadcast): equal literals are one dimension
TUPLE_AND_LITERALS = """import torch

class Model(torch.nn.Module):
    def forward(self, x, y, z):
        return x.sum() + (y * z).sum()

batch_size = 64
input_shape = (4096,)

def get_inputs():
    return [torch.rand(batch_size, *input_shape), torch.rand(128, 512), torch.rand(1, 512)]

def get_init_inputs():
    return []
"""


def test_tuple_constants_and_literals_in_get_inputs_are_halved(tmp_path: Path) -> None:
    """Before, only int constants were halved: this program (64 x 4096 + 128 x 512 + 512 elements) stayed over
    the limit ('no module-level size constant can be halved' once batch_size reached 32)."""
    fit = fit_constants(TUPLE_AND_LITERALS, "t.py", 1 << 14)
    assert isinstance(fit, Fit), fit
    # the largest first; the two 512s (y's columns and z's broadcast row) change together
    assert dict(fit.constants) == {"input_shape[0]": 64, "get_inputs():128": 64, "get_inputs():512": 128}
    assert fit.inputs == (((64, 64), "float32"), ((64, 128), "float32"), ((1, 128), "float32"))
    assert fit.describe().endswith("input_shape[0] 4096 -> 64, get_inputs() literal 128 -> 64, get_inputs() "
                                   "literal 512 -> 128; inputs [64, 64]:float32, [64, 128]:float32, [1, 128]:float32")
    root = tmp_path / "mkb"
    (root / "reference" / "math").mkdir(parents=True)
    (root / "reference" / "math" / "mixed.py").write_text(TUPLE_AND_LITERALS, encoding="utf-8")
    (task,) = load_tasks(root, 1 << 14)
    case = task.cases[0]
    assert case.reduced and task.input_elements(case) == 64 * 64 + 64 * 128 + 128
    pytest.importorskip("torch")
    inputs = task.make_inputs(case, 3)  # the reference program itself runs with the reduced sizes
    assert [v.shape for v in inputs.values.values()] == [(64, 64), (64, 128), (1, 128)]
    x, y, z = inputs.values.values()
    expected = task.reference(case, inputs)["y"]
    assert np.allclose(expected, x.sum() + (y * z).sum(), rtol=1e-4)


def test_fit_shapes_is_for_multikernelbench_only(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="multikernelbench suite only"):
        load_suite("npukernelbench", tmp_path, LIMIT)


def _evaluate(tmp_path: Path, answer: Path, fit: bool) -> dict:
    tasks = load_suite("multikernelbench", _checkout(tmp_path), LIMIT if fit else None)
    verdict = evaluate_answer(tasks[0], Answer(tasks[0].name, "0", str(answer)),
                              EvalOptions(draws=1, max_elements=LIMIT, performance=False))
    return json.loads(json.dumps(verdict.to_json()))


def test_an_answer_reading_its_shapes_is_judged_on_the_reduced_case(tmp_path: Path) -> None:
    pytest.importorskip("rust_sim._sim", reason="the simulator extension is not built")
    row = _evaluate(tmp_path / "plain", ANSWER, fit=False)
    assert row["failure"] == "not-evaluated" and "over the harness's limit" in row["reason"]
    row = _evaluate(tmp_path / "fit", ANSWER, fit=True)
    assert row["correct"] is True and row["reduced"] is True
    assert row["cases"][0]["reduced"].endswith("dim 4096 -> 512; inputs [64, 512]:float32")


def test_an_answer_hard_coding_the_benchmarks_shape_fails_honestly(tmp_path: Path) -> None:
    pytest.importorskip("rust_sim._sim", reason="the simulator extension is not built")
    text = ANSWER.read_text(encoding="utf-8")
    shape_read = "context->GetInputShape(0)->GetOriginShape().GetShapeSize()"
    assert shape_read in text
    hard = tmp_path / "hardsigmoid.py"
    hard.write_text(text.replace(shape_read, "64 * 4096"), encoding="utf-8")
    row = _evaluate(tmp_path / "fit", hard, fit=True)
    assert row["correct"] is False and row["reduced"] is True
    assert "(reduced with --fit-shapes" in row["reason"]
