"""Outputs the framework fills before the launch: NPUKernelBench's binding makes GroupedMatmulSliceK's result with
`torch::empty(...)` then `result.fill_(0.0f)`, and the kernel skips a group whose k is 0, leaving its rows at 0 on
the device. The binding's fill is read (bench/suites/binding.initial_fills) and the simulator's output buffer
starts with that value instead of the poison pattern, so those elements are neither "no core wrote" nor NaN.
The bindings and the answer here are written for the tests (the bundled `add` with its kernel call removed)."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from bench.harness import Answer, EvalOptions, evaluate
from bench.harness.stages.correctness import simulator_available
from bench.suites import find_task, load_suite
from bench.suites.binding import initial_fills

SOURCE = Path(__file__).resolve().parents[2] / "bench" / "tasks" / "level1" / "math" / "add"
NPUKERNELBENCH = Path("/work/ext/NPUKernelBench")


def binding(body: str) -> str:
    return f"""#include <torch/extension.h>
at::Tensor op_api(at::Tensor &a, at::Tensor &b)
{{
{body}
}}
PYBIND11_MODULE(kernel_gen_ops, m) {{ m.def("op_api", &op_api, ""); }}
"""


@pytest.mark.parametrize(("body", "expected"), [
    ("at::Tensor r = torch::empty({4}, a.options());\n r.fill_(0.0f);\n EXEC_NPU_CMD(aclnnOp, a, b, r);", {"y": 0.0}),
    ("at::Tensor r = at::zeros_like(a);\n EXEC_NPU_CMD(aclnnOp, a, b, r);", {"y": 0.0}),
    ("auto r = torch::ones({4}, a.options());\n EXEC_NPU_CMD(aclnnOp, a, b, r);", {"y": 1.0}),
    ("auto r = at::full({4}, -2.5, a.options());\n EXEC_NPU_CMD(aclnnOp, a, b, r);", {"y": -2.5}),
    ("auto r = at::empty_like(a);\n r.zero_();\n EXEC_NPU_CMD(aclnnOp, a, b, r);", {"y": 0.0}),
    # not filled: empty memory, a fill after the launch, a value that is not a literal, a fill made anew
    ("auto r = at::empty_like(a);\n EXEC_NPU_CMD(aclnnOp, a, b, r);", {}),
    ("auto r = at::empty_like(a);\n EXEC_NPU_CMD(aclnnOp, a, b, r);\n r.fill_(0);", {}),
    ("auto r = at::empty_like(a);\n r.fill_(alpha);\n EXEC_NPU_CMD(aclnnOp, a, b, r);", {}),
    ("auto r = at::zeros_like(a);\n r = at::empty_like(a);\n EXEC_NPU_CMD(aclnnOp, a, b, r);", {}),
])
def test_fills_before_the_launch_are_read(body: str, expected: dict[str, float]) -> None:
    assert initial_fills(binding(body + "\n return r;"), ["y"]) == expected


def test_the_fill_goes_to_the_output_at_its_place_among_the_launch_arguments() -> None:
    body = ("auto y = at::empty_like(a);\n auto s = at::zeros({1}, a.options());\n"
            " EXEC_NPU_CMD(aclnnOp, a, b, y, s);\n return y;")
    assert initial_fills(binding(body), ["y", "scale"]) == {"scale": 0.0}


@pytest.mark.skipif(not NPUKERNELBENCH.is_dir(), reason=f"no NPUKernelBench checkout at {NPUKERNELBENCH}")
def test_npukernelbench_grouped_matmul_output_is_zero_filled() -> None:
    from bench.suites.npukernelbench import read_task

    task = read_task(NPUKERNELBENCH / "tasks" / "level3" / "GMM" / "GroupedMatmulSliceK")
    assert [(o.name, o.initial) for o in task.outputs] == [("c", 0.0)]


ONE_CASE = '''
[[cases]]
id = "zero"
dtype = "float32"
shapes = { x1 = [64], x2 = [64] }
'''


@pytest.mark.skipif(not simulator_available(), reason="the simulator (passes.sim) is not available")
def test_elements_no_core_writes_keep_the_fill(tmp_path: Path) -> None:
    """An answer that writes nothing: with the output declared zero-filled, no element is 'unwritten' (the values
    are 0, which x1 + x2 is not, so it is still wrong); without the fill, outputs_written fails as before."""
    folder = tmp_path / "suite" / "level1" / "math" / "add"
    shutil.copytree(SOURCE, folder)
    with open(folder / "task.toml", "a") as fh:
        fh.write(ONE_CASE)
    task = find_task(load_suite("bundled", tmp_path / "suite"), "add")
    answer = tmp_path / "writes_nothing"
    shutil.copytree(task.solution, answer)
    kernel = answer / "op_kernel" / "add_custom.cpp"
    text = kernel.read_text()
    assert "    op.Process();\n" in text
    kernel.write_text(text.replace("    op.Process();\n", ""))
    options = EvalOptions(static_shapes=False, instruction_budget=5_000_000, performance=False)
    filled = dataclasses.replace(task, outputs=tuple(dataclasses.replace(o, initial=0.0) for o in task.outputs))
    v, = evaluate(filled, [Answer("add", "nothing", str(answer), "zero")], options)
    assert v.checks["outputs_written"] is True and v.checks["within_tolerance"] is False, v.reason
    assert not [f for f in v.cases[0].sim_findings if f.code == "ASC961"]
    v, = evaluate(task, [Answer("add", "nothing", str(answer), "zero")], options)
    assert v.checks["outputs_written"] is False and "no core wrote" in v.reason


@pytest.mark.skipif(not simulator_available(), reason="the simulator (passes.sim) is not available")
def test_the_fill_holds_when_the_kernel_names_the_output_otherwise(tmp_path: Path) -> None:
    """The simulator names an unwritten output by the kernel's parameter (NPUKernelBench
    GroupedMatmulSliceKPerTokenDequant's op output 'c' is the kernel's 'd'): the fill still covers it."""
    folder = tmp_path / "suite" / "level1" / "math" / "add"
    shutil.copytree(SOURCE, folder)
    with open(folder / "task.toml", "a") as fh:
        fh.write(ONE_CASE)
    task = find_task(load_suite("bundled", tmp_path / "suite"), "add")
    answer = tmp_path / "writes_nothing_to_out"
    shutil.copytree(task.solution, answer)
    kernel = answer / "op_kernel" / "add_custom.cpp"
    text = kernel.read_text()
    for old, new in (("    op.Process();\n", ""),
                     ("GM_ADDR x2, GM_ADDR y, GM_ADDR workspace", "GM_ADDR x2, GM_ADDR out, GM_ADDR workspace"),
                     ("op.Init(x1, x2, y, tilingData);", "op.Init(x1, x2, out, tilingData);")):
        assert old in text
        text = text.replace(old, new)
    kernel.write_text(text)
    options = EvalOptions(static_shapes=False, instruction_budget=5_000_000, performance=False)
    filled = dataclasses.replace(task, outputs=tuple(dataclasses.replace(o, initial=0.0) for o in task.outputs))
    v, = evaluate(filled, [Answer("add", "nothing", str(answer), "zero")], options)
    assert v.checks["outputs_written"] is True and v.checks["within_tolerance"] is False, v.reason
    assert not [f for f in v.cases[0].sim_findings if f.code == "ASC961"]
