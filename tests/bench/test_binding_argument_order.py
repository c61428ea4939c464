"""The op's inputs named through the binding: a binding whose parameters carry the op's inputs in another order
(NPUKernelBench's ForeachPowScalarAndTensor binds `(x, scalar)`; the op's inputs are `(scalar, x)`) gets each of
ModelNew's arguments under the input its parameter names. Before, position decided and the tensor list reached
the `scalar` input. The bindings here are written for the tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.suites.binding import argument_order, read_binding

NPUKERNELBENCH = Path("/work/ext/NPUKernelBench")


def binding(params: str) -> str:
    return (f"std::vector<at::Tensor> op_api({params})\n{{\n    EXEC_NPU_CMD(aclnnOp, scalar, x, out);\n"
            "    return out;\n}\nPYBIND11_MODULE(kernel_gen_ops, m) {\n    m.def(\"op\", &op_api, \"\");\n}\n")


def test_parameters_in_another_order_are_named() -> None:
    b = read_binding(binding("std::vector<at::Tensor> &x, at::Tensor scalar"))
    assert b is not None
    assert argument_order(b, 2, ["scalar", "x"]) == [1, 0]


def test_parameters_in_op_order_or_unnamed_keep_their_positions() -> None:
    in_order = read_binding(binding("at::Tensor scalar, std::vector<at::Tensor> &x"))
    other_names = read_binding(binding("std::vector<at::Tensor> &tensors, at::Tensor s"))
    assert in_order is not None and other_names is not None
    assert argument_order(in_order, 2, ["scalar", "x"]) is None
    assert argument_order(other_names, 2, ["scalar", "x"]) is None
    # a Ref / Optional suffix is the same input
    ref = read_binding(binding("at::Tensor &gradRef, at::Tensor varOptional"))
    assert ref is not None and argument_order(ref, 2, ["var", "grad"]) == [1, 0]


@pytest.mark.skipif(not NPUKERNELBENCH.is_dir(), reason=f"no NPUKernelBench checkout at {NPUKERNELBENCH}")
def test_foreach_pow_scalar_and_tensor_gets_its_scalar_and_its_list() -> None:
    from bench.suites.npukernelbench import read_task

    task = read_task(NPUKERNELBENCH / "tasks/level2/Foreach/ForeachPowScalarAndTensor")
    drawn = task.make_inputs(task.cases[1], 0)
    assert drawn.values["scalar"].shape == ()
    assert [a.shape for a in drawn.values["x"]] == [(32, 768, 10), (16, 256, 5)]


CONDITIONAL_RETURN = """\
std::vector<at::Tensor> op_api(at::Tensor x, double scale, bool withStats, bool withMore)
{
    at::Tensor y = torch::empty_like(x);
    at::Tensor stats = torch::empty({1}, x.options());
    at::Tensor more = torch::empty({1}, x.options());
    EXEC_NPU_CMD(aclnnOp, x, scale, withStats, y, stats, more);
    std::vector<at::Tensor> result = {y};
    if (withStats) {
        result.push_back(stats);
    }
    if (!withMore) {
        return result;
    }
    result.push_back(more);
    return result;
}
PYBIND11_MODULE(kernel_gen_ops, m) { m.def("op", &op_api, ""); }
"""


def test_outputs_returned_under_a_flag_are_counted_per_call() -> None:
    """NPUKernelBench compares zip(Model's outputs, the binding's): a binding that returns its zloss outputs
    only when asked (CrossEntropyLoss) has them compared only then."""
    from bench.suites.binding import returned_count

    text = CONDITIONAL_RETURN.replace("    if (!withMore) {\n        return result;\n    }\n", "")
    assert returned_count(text, {"withStats": False, "withMore": False}) == 2
    assert returned_count(text, {"withStats": True, "withMore": False}) == 3
    # a flag whose value is not known, or a return inside a branch: not counted (None)
    assert returned_count(text, {}) is None
    assert returned_count(CONDITIONAL_RETURN, {"withStats": True, "withMore": True}) is None


@pytest.mark.skipif(not NPUKERNELBENCH.is_dir(), reason=f"no NPUKernelBench checkout at {NPUKERNELBENCH}")
def test_cross_entropy_loss_compares_its_zloss_outputs_only_when_returned() -> None:
    from bench.suites.npukernelbench import read_task

    task = read_task(NPUKERNELBENCH / "tasks/level2/Loss/CrossEntropyLoss")
    case = task.cases[0]
    drawn = task.make_inputs(case, 0)
    # every output keeps its buffer (the kernel needs one), the two the binding does not return are not judged
    assert list(task.reference(case, drawn)) == ["loss", "log_prob", "zloss", "lse_for_zloss"]
    assert task.uncompared(case, drawn) == ("zloss", "lse_for_zloss")
