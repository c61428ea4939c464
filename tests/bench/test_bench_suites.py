"""The suite readers: the bundled format (on task folders made here), tolerances, NPUKernelBench's CSV typing,
and the public checkouts when they are present (their references run on CPU torch)."""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import numpy as np
import pytest

from bench.suites import Tolerance, find_task, load_suite
from bench.suites.bundled import TaskFormatError, default_draw, snake_case
from bench.suites.npukernelbench import read_cases

NPUKERNELBENCH = Path("/work/ext/NPUKernelBench")
MULTIKERNELBENCH = Path("/work/ext/MultiKernelBench")

TASK_TOML = '''
name = "scale"
level = 1
category = "math"
op_type = "ScaleCustom"
description = "y = x * alpha"

[[inputs]]
name = "x"
dtypes = ["float16", "float32"]

[[inputs]]
name = "idx"
dtypes = ["int32"]

[[outputs]]
name = "y"
dtypes = ["float16", "float32"]

[[attrs]]
name = "alpha"
type = "float"
default = 2.0

[[cases]]
id = "small"
dtype = "float32"
dtypes = { idx = "int32" }
shapes = { x = [3, 5], idx = [4] }

[[cases]]
id = "half"
dtype = "float16"
shapes = { x = [7], idx = [2] }
attrs = { alpha = 0.5 }

[tolerance]
float16 = { atol = 1e-3, rtol = 1e-3 }
float32 = { atol = 1e-4, rtol = 1e-4 }
'''

REFERENCE = '''
import numpy as np

def reference(inputs, attrs):
    return {"y": (inputs["x"].astype(np.float64) * attrs["alpha"]).astype(inputs["x"].dtype)}
'''


def make_suite(root: Path, toml: str = TASK_TOML, reference: str = REFERENCE) -> Path:
    folder = root / "level1" / "math" / "scale"
    (folder / "solution" / "op_kernel").mkdir(parents=True)
    (folder / "task.toml").write_text(toml)
    (folder / "reference.py").write_text(reference)
    (root / "level1" / "math" / "_draft").mkdir()  # folders starting with _ are not tasks
    return root


def test_bundled_reader_reads_the_contract(tmp_path: Path) -> None:
    tasks = load_suite("bundled", make_suite(tmp_path))
    assert [t.name for t in tasks] == ["scale"]
    t = tasks[0]
    assert (t.level, t.category, t.op_type, t.kernel_name) == (1, "math", "ScaleCustom", "scale_custom")
    assert [d.name for d in t.inputs] == ["x", "idx"] and [d.name for d in t.outputs] == ["y"]
    assert t.solution is not None and t.chip == "910B2"
    small, half = t.cases
    assert small.dtypes == {"x": "float32", "idx": "int32"} and small.shapes == {"x": (3, 5), "idx": (4,)}
    assert half.dtypes == {"x": "float16", "idx": "float16"}
    assert t.attr_values(small) == {"alpha": 2.0} and t.attr_values(half) == {"alpha": 0.5}
    assert t.input_elements(small) == 19


def test_bundled_inputs_reference_and_compare(tmp_path: Path) -> None:
    t = load_suite("bundled", make_suite(tmp_path))[0]
    case = t.cases[0]
    a, b = t.make_inputs(case, 7), t.make_inputs(case, 7)
    assert np.array_equal(a.values["x"], b.values["x"])  # a seed fixes the draw
    assert not np.array_equal(a.values["x"], t.make_inputs(case, 8).values["x"])
    assert a.values["x"].dtype == np.float32 and a.values["idx"].dtype == np.int32
    assert a.values["x"].min() >= -1 and a.values["x"].max() < 1
    assert a.values["idx"].min() >= -100 and a.values["idx"].max() < 100
    expected = t.reference(case, a)
    assert np.allclose(expected["y"], a.values["x"] * 2.0)
    assert t.compare(case, expected, expected)["y"].ok
    wrong = {"y": expected["y"] + 1e-2}
    result = t.compare(case, expected, wrong)["y"]
    assert not result.ok and result.mismatched == 15 and "15 of 15" in result.reason
    assert t.compare(case, expected, {})["y"].reason == "output missing"


@pytest.mark.parametrize(("toml_edit", "message"), [
    (("name = \"scale\"", "name = \"other\""), "differs from the folder name"),
    (("level = 1\n", ""), "'level' is missing"),
    (("shapes = { x = [3, 5], idx = [4] }", "shapes = { z = [3] }"), "shapes name no input: z"),
    (("[tolerance]\n", "[tolerance]\nmode = \"fuzzy\"\n"), "tolerance mode 'fuzzy'"),
    (("category = \"math\"", "category = \"math\"\ninplace = []"), None),
])
def test_bundled_reader_names_what_is_wrong(tmp_path: Path, toml_edit: tuple[str, str], message: str | None) -> None:
    toml = TASK_TOML.replace(*toml_edit)
    root = make_suite(tmp_path, toml)
    if message is None:
        assert load_suite("bundled", root)
        return
    with pytest.raises(TaskFormatError, match=message):
        load_suite("bundled", root)


def test_default_draws_follow_the_readme() -> None:
    rng = np.random.default_rng(0)
    assert default_draw((1000,), "int8", rng).min() >= -10
    assert default_draw((1000,), "uint8", rng).max() < 10
    assert default_draw((10,), "bool", rng).dtype == np.bool_
    assert default_draw((10,), "float16", rng).dtype == np.float16
    assert snake_case("AddLayerNormCustom") == "add_layer_norm_custom"


def test_tolerance_modes() -> None:
    exp = np.array([1.0, 100.0, 0.0, np.inf, np.nan], dtype=np.float32)
    elementwise = Tolerance({"float32": (1e-3, 1e-3)})
    assert elementwise.compare(exp, exp.copy(), "float32").ok  # inf == inf, NaN where NaN
    # 100.05: |d| = 0.05 > atol but |d|/|ref| = 5e-4 < rtol: passes; 0 -> 0.01 fails both
    near = np.array([1.0, 100.05, 0.01, np.inf, np.nan], dtype=np.float32)
    c = elementwise.compare(exp, near, "float32")
    assert not c.ok and c.mismatched == 1 and c.first_bad == 2
    assert not elementwise.compare(exp, np.array([1, 100, 0, 1, np.nan], np.float32), "float32").ok
    assert not elementwise.compare(np.ones(3), np.array([1, np.nan, 1]), "float32").ok
    norm = Tolerance({"float16": (0.0, 1 / 512)}, "norm")
    assert norm.compare(np.array([0.0, 1000.0]), np.array([0.0019, 1001.9]), "float16").ok
    assert not norm.compare(np.array([0.0]), np.array([0.0021]), "float16").ok
    allclose = Tolerance({}, "allclose", (1e-4, 1e-4))
    assert allclose.compare(np.array([1.0]), np.array([1.00019]), "float32").ok
    assert not allclose.compare(np.array([1.0]), np.array([1.00021]), "float32").ok
    ints = Tolerance()
    assert not ints.compare(np.array([1, 2], np.int32), np.array([1, 3], np.int32), "int32").ok
    shape = ints.compare(np.zeros((2, 3)), np.zeros(5), "float32")
    assert not shape.ok and "shape" in shape.reason
    # 0-d results (Isamax's index, a norm) against a one-element output buffer
    assert ints.compare(np.array(7, np.int32), np.array([7], np.int32), "int32").ok
    assert not ints.compare(np.array(7, np.int64), np.array(8, np.int64), "int64").ok
    assert not elementwise.compare(np.array(2.0, np.float32), np.array([2.5], np.float32), "float32").ok


def test_csv_is_typed_as_pandas_and_preprocess_dataframe_type_it(tmp_path: Path) -> None:
    csv = tmp_path / "test_cases.csv"
    csv.write_text("case_id;shape;dtype;start;scale;flag;eps\n"
                   "0;[48, 128];float16;1;2.0;True;\n"
                   "1;[7];float32;2.5;3.0;False;1e-5\n")
    rows = read_cases(csv)
    assert rows[0]["case_id"] == 0 and rows[0]["shape"] == "[48, 128]" and rows[0]["dtype"] == "float16"
    assert rows[0]["start"] == 1.0 and rows[1]["start"] == 2.5  # a float column stays float
    assert rows[0]["scale"] == 2 and isinstance(rows[0]["scale"], int)  # all integral: int
    assert rows[0]["flag"] == 1 and rows[1]["flag"] == 0  # bool is numeric: made 1/0
    assert math.isnan(rows[0]["eps"]) and rows[1]["eps"] == 1e-5


needs_npukernelbench = pytest.mark.skipif(not NPUKERNELBENCH.is_dir(), reason="no NPUKernelBench checkout at "
                                          f"{NPUKERNELBENCH}")
needs_multikernelbench = pytest.mark.skipif(not MULTIKERNELBENCH.is_dir(), reason="no MultiKernelBench checkout at "
                                            f"{MULTIKERNELBENCH}")


@needs_npukernelbench
def test_npukernelbench_tasks_and_torch_reference() -> None:
    pytest.importorskip("torch")
    tasks = load_suite("npukernelbench", NPUKERNELBENCH)
    assert len(tasks) == 157
    assert {lv: sum(t.level == lv for t in tasks) for lv in (1, 2, 3)} == {1: 37, 2: 102, 3: 18}
    t = find_task(tasks, "AddCustom")
    assert t.kernel_name == "add_custom" and t.chip == "910_93" and t.kernel_only_host
    assert [d.name for d in t.inputs] and t.solution and t.solution.endswith("answer/0")
    case = t.cases[0]
    inputs = t.make_inputs(case, 1)
    expected = t.reference(case, inputs)
    (name, value), = expected.items()
    x, y = list(inputs.values.values())[:2]
    assert np.allclose(value.astype(np.float32), x.astype(np.float32) + y.astype(np.float32), atol=1e-2)
    assert t.compare(case, expected, expected)[name].ok
    assert "48 AIV" in t.shown() or "48 AIV (vector)" in t.shown()


@needs_multikernelbench
def test_multikernelbench_tasks_and_torch_reference() -> None:
    pytest.importorskip("torch")
    tasks = load_suite("multikernelbench", MULTIKERNELBENCH)
    assert len(tasks) >= 285
    relu = find_task(tasks, "relu")
    assert (relu.op_type, relu.kernel_name, relu.category) == ("ReluCustom", "relu_custom", "activation")
    assert relu.input_elements(relu.cases[0]) == 4096 * 393216  # read with ast, nothing drawn
    adam = find_task(tasks, "adam")
    inputs = adam.make_inputs(adam.cases[0], 0)
    assert list(inputs.values) == ["param", "grad", "m", "v"]
    expected = adam.reference(adam.cases[0], inputs)
    assert adam.compare(adam.cases[0], expected, expected)["y"].ok
    bad = {"y": expected["y"][:1]}
    assert "shape mismatch" in adam.compare(adam.cases[0], expected, bad)["y"].reason


@needs_npukernelbench
def test_npukernelbench_op_arguments_come_from_modelnew() -> None:
    # GeluGrad's ModelNew computes y = gelu(x) and hands the op (dy, x, y); the reference Model takes (dy, x)
    torch = pytest.importorskip("torch")
    t = find_task(load_suite("npukernelbench", NPUKERNELBENCH), "GeluGrad")
    inputs = t.make_inputs(t.cases[0], 3)
    assert list(inputs.values) == ["dy", "x", "y"] and inputs.reference is not None
    assert list(inputs.reference.values) == ["dy", "x"]
    gelu = torch.nn.functional.gelu(torch.from_numpy(inputs.values["x"])).numpy()
    assert np.allclose(inputs.values["y"], gelu)
    expected = t.reference(t.cases[0], inputs)
    assert t.compare(t.cases[0], expected, expected)["z"].ok
