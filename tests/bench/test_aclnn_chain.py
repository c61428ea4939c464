"""An answer that ships its own aclnn and l0op layers (NPUKernelBench's MseLossGradV2) hands the binding's
arguments to the kernel in the order its ADD_TO_LAUNCHER_LIST_AICORE(..., OP_INPUT(...)) names them, which the
harness follows (bench/suites/aclnn_chain.py). Before, ModelNew's arguments reached the op's inputs by position:
dout went to predict, predict to label, label to dout, and the values were off by up to 12.4. The C++ here is
written for the tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.suites.aclnn_chain import op_input_order

NPUKERNELBENCH = Path("/work/ext/NPUKernelBench")

BINDING = """\
std::vector<at::Tensor> scaled_diff(at::Tensor grad, at::Tensor a, at::Tensor b, std::string mode)
{
    at::Tensor out = torch::empty_like(grad);
    int64_t modeInt = mode == "sum" ? 1 : 0;
    EXEC_NPU_CMD(aclnnScaledDiff, grad, a, b, modeInt, out);
    return {out};
}
PYBIND11_MODULE(kernel_gen_ops, m) { m.def("scaled_diff", &scaled_diff, ""); }
"""

ACLNN = """\
aclnnStatus aclnnScaledDiffGetWorkspaceSize(const aclTensor *grad, const aclTensor *a, const aclTensor *b,
                                            int64_t mode, aclTensor *out, uint64_t *workspaceSize,
                                            aclOpExecutor **executor)
{
    auto gradContiguous = l0op::Contiguous(grad, uniqueExecutor.get());
    auto aContiguous = l0op::Contiguous(a, uniqueExecutor.get());
    auto result = l0op::ScaledDiff(gradContiguous, aContiguous, b, mode, uniqueExecutor.get(), out);
    return ACLNN_SUCCESS;
}
"""

L0OP = """\
namespace l0op {
const aclTensor *ScaledDiff(const aclTensor *grad, const aclTensor *a, const aclTensor *b, int64_t mode,
                            aclOpExecutor *executor, const aclTensor *out)
{
    auto ret = ADD_TO_LAUNCHER_LIST_AICORE(ScaledDiff, OP_INPUT(a, b, grad), OP_OUTPUT(out), OP_ATTR(mode));
    return out;
}
}
"""


def test_the_launch_order_is_followed_back_to_the_binding() -> None:
    # the op's inputs (a, b, grad) are the binding's parameters 1, 2 and 0
    assert op_input_order(BINDING, [ACLNN, L0OP], 3) == [1, 2, 0]


def test_no_layer_of_its_own_or_the_same_order_changes_nothing() -> None:
    assert op_input_order(BINDING, [], 3) is None
    same = L0OP.replace("OP_INPUT(a, b, grad)", "OP_INPUT(grad, a, b)")
    assert op_input_order(BINDING, [ACLNN, same], 3) is None
    assert op_input_order(BINDING, [ACLNN, L0OP], 2) is None  # the op has another number of inputs


@pytest.mark.skipif(not NPUKERNELBENCH.is_dir(), reason=f"no NPUKernelBench checkout at {NPUKERNELBENCH}")
def test_mse_loss_grad_v2_gets_predict_label_and_dout() -> None:
    from bench.suites.npukernelbench import read_task
    from frontend.pipeline import load

    task = read_task(NPUKERNELBENCH / "tasks/level2/Loss/MseLossGradV2")
    drawn = task.make_inputs(task.cases[0], 0)
    program = load(str(NPUKERNELBENCH / "tasks/level2/Loss/MseLossGradV2/answer/0"))
    given = task.answer_inputs(program, drawn)
    names = ["predict", "label", "dout"]
    # ModelNew calls mse_loss_grad(dout, predict, label): drawn positionally, then put where the answer's
    # aclnn layer sends them
    assert list(given.values) == names
    assert given.values["predict"] is drawn.values["label"]
    assert given.values["label"] is drawn.values["dout"]
    assert given.values["dout"] is drawn.values["predict"]
