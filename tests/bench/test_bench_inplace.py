"""In-place tasks (issue 31): which inputs an NPUKernelBench op updates in place, read from its op description and
its Python binding (bench/suites/binding.py), so that the input check accepts their writes while it still fails
an answer that writes into the input of an op that is not in place. The bindings here are written for the tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.suites.binding import in_place, read_binding

NPUKERNELBENCH = Path("/work/ext/NPUKernelBench")
needs_npukernelbench = pytest.mark.skipif(not NPUKERNELBENCH.is_dir(),
                                          reason=f"no NPUKernelBench checkout at {NPUKERNELBENCH}")


def binding(signature: str, body: str, name: str = "op_api") -> str:
    return f"""#include <torch/extension.h>
// a helper the module does not bind
at::Tensor helper(at::Tensor t) {{ return t; }}
{signature}
{{
{body}
}}
PYBIND11_MODULE(kernel_gen_ops, m) {{
    m.def("{name}", &op_api, "");  /* the bound function */
}}
"""


RETURNS_ITS_INPUT = binding("at::Tensor op_api(at::Tensor &self, double alpha)",
                            "    EXEC_NPU_CMD(aclnnOp, self, alpha);\n    return self;")
RETURNS_NEW_TENSORS = binding("std::vector<at::Tensor> op_api(at::Tensor x, at::Tensor scale)",
                              "    at::Tensor y = torch::empty_like(x);\n    auto stats = torch::empty({1}, x.options());\n"
                              "    EXEC_NPU_CMD(aclnnOp, x, scale, y, stats);\n    return {y, stats};")


def test_a_binding_that_returns_its_parameter_updates_that_input_in_place() -> None:
    b = read_binding(RETURNS_ITS_INPUT)
    assert b is not None and b.params == ["self", "alpha"] and b.tensor_params == ["self"]
    assert b.returned == ["self"]
    # 'self' is no input name: it stands for the op's first tensor input
    assert in_place(RETURNS_ITS_INPUT, ["x"], []) == (["x"], ["x"])


def test_a_binding_that_returns_new_tensors_updates_nothing() -> None:
    """The clean twin: outputs made with empty/empty_like (from the inputs' shapes) are not the inputs."""
    assert read_binding(RETURNS_NEW_TENSORS).returned == [None, None]
    assert in_place(RETURNS_NEW_TENSORS, ["x", "scale"], ["y", "stats"]) == ([], [None, None])


def test_a_returned_list_keeps_its_order_and_the_longer_branch() -> None:
    text = binding("std::vector<at::Tensor> op_api(at::Tensor &var_ref, at::Tensor &m_ref, at::Tensor grad, "
                   "c10::optional<at::Tensor> normOptional, bool keep)",
                   "    at::Tensor rstd = torch::empty_like(grad);\n"
                   "    std::vector<at::Tensor> result;\n"
                   "    if (keep) {\n        result = {var_ref, rstd, m_ref, normOptional.value()};\n    } else {\n"
                   "        result = {var_ref};\n    }\n    return result;")
    inplace, returned = in_place(text, ["var", "m", "grad", "norm"], [])
    assert inplace == ["var", "m"]  # by name, less the _ref suffix; a call's result is not followed
    assert returned == ["var", None, "m", None]


def test_a_tensor_list_returned_through_a_loop_is_updated_in_place() -> None:
    text = binding("std::vector<at::Tensor> op_api(std::vector<at::Tensor> &xs, at::Tensor flag)",
                   "    std::vector<at::Tensor> fresh;\n"
                   "    for (const auto &t : xs) { fresh.push_back(torch::empty_like(t)); }\n"
                   "    at::TensorList list = at::TensorList(xs);\n    EXEC_NPU_CMD(aclnnOp, list, flag);\n"
                   "    std::vector<at::Tensor> out;\n    for (const auto &t : list) out.emplace_back(t);\n"
                   "    out.emplace_back(flag);\n    return out;")
    assert in_place(text, ["x", "found"], []) == (["x", "found"], ["x", "found"])


def test_an_output_named_after_an_input_is_a_ref() -> None:
    """The op description alone: Output("var") beside Input("var"), with or without a binding."""
    assert in_place("", ["var", "indices", "updates"], ["var"]) == (["var"], [])
    assert in_place(RETURNS_NEW_TENSORS, ["x", "scale"], ["x", "stats"])[0] == ["x"]


def test_a_binding_that_cannot_be_read_declares_nothing() -> None:
    assert read_binding("int main() { return 0; }") is None
    assert in_place("PYBIND11_MODULE(m, m) { m.def(\"f\", &missing); }", ["x"], ["y"]) == ([], [])


@needs_npukernelbench
def test_npukernelbench_in_place_tasks_are_recognised() -> None:
    from bench.suites import find_task, load_suite

    tasks = load_suite("npukernelbench", NPUKERNELBENCH)
    for task in tasks:
        assert set(task.inplace) <= {d.name for d in task.inputs}, task.name
        assert all(o.aliases in task.inplace for o in task.outputs if o.aliases), task.name
    # the Inplace* ops (outputs named after their inputs, or no outputs of their own), optimisers, BLAS scal
    assert find_task(tasks, "InplaceAddRmsNorm").inplace == ("x1", "x2")
    softmax = find_task(tasks, "InplaceAttnSoftmax")
    assert softmax.inplace == ("x",) and [(o.name, o.aliases) for o in softmax.outputs] == [("x", "x")]
    assert find_task(tasks, "ScatterList").inplace == ("var",)
    assert find_task(tasks, "Sscal").outputs[0].aliases == "x"
    assert set(find_task(tasks, "ApplyAdamWV2").inplace) >= {"var", "m", "v"}
    # ops that return new tensors update nothing
    for name in ("AddCustom", "Gelu", "RmsNorm", "MseLoss"):
        assert find_task(tasks, name).inplace == (), name
    assert sum(1 for t in tasks if t.inplace) >= 12


@pytest.fixture(scope="module")
def npukernelbench_tasks() -> list:
    from bench.suites import load_suite

    return load_suite("npukernelbench", NPUKERNELBENCH)


def _evaluate(task, path: str):  # type: ignore[no-untyped-def]
    from bench.harness import Answer, EvalOptions, evaluate

    v, = evaluate(task, [Answer(task.name, "answer", path, task.cases[0].id)],
                  EvalOptions(static_shapes=False, performance=False))
    return v


@needs_npukernelbench
def test_an_in_place_tasks_reference_answer_is_not_failed_by_the_input_check(npukernelbench_tasks: list) -> None:
    """Sscal (x = alpha * x: the op has no output, its binding returns x) writes into x: accepted, x read back."""
    from bench.harness.stages.correctness import simulator_available
    from bench.suites import find_task

    if not simulator_available():
        pytest.skip("the simulator is not available")
    task = find_task(npukernelbench_tasks, "Sscal")
    v = _evaluate(task, task.solution)
    assert v.checks.get("inputs_unchanged") is True, v.reason
    assert v.correct is True, v.reason
    assert not [f for c in v.cases for f in c.sim_findings if f.code == "ASC963"]


@needs_npukernelbench
def test_an_answer_writing_into_the_input_of_an_op_that_is_not_in_place_fails(npukernelbench_tasks: list,
                                                                               tmp_path: Path) -> None:
    """The trigger: AddCustom's reference answer, made to store its result into x as well, fails inputs_unchanged
    at that line; the reference itself passes the check."""
    import shutil

    from bench.harness.stages.correctness import simulator_available
    from bench.suites import find_task

    if not simulator_available():
        pytest.skip("the simulator is not available")
    task = find_task(npukernelbench_tasks, "AddCustom")
    assert task.inplace == ()
    assert _evaluate(task, task.solution).checks.get("inputs_unchanged") is True
    folder = tmp_path / "answer"
    shutil.copytree(task.solution, folder)
    kernel = folder / "op_kernel" / "add_custom.cpp"
    lines = kernel.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if "DataCopy(zGm[" in line)
    lines.insert(at + 1, lines[at].replace("zGm[", "xGm["))
    kernel.write_text("\n".join(lines) + "\n")
    v = _evaluate(task, str(folder))
    assert v.correct is False and v.checks["inputs_unchanged"] is False
    assert f"add_custom.cpp:{at + 2}:" in v.reason and "[ASC963]" in v.reason and "input 'x'" in v.reason, v.reason
