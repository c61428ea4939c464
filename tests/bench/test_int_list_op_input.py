"""A list of integers ModelNew passes where the op declares one integer tensor input (NPUKernelBench
LayerNormV4: `tuple(self.normalized_shape_list)` for Input("normalized_shape") DT_INT32, an at::IntArrayRef the
binding hands on as an aclIntArray and the answer's l0op layer makes a tensor with ConvertToTensor) keeps the op's
arguments coming from ModelNew. Before, such a list made the task fall back to the drawn forward inputs: the
host got x alone ('reads input 1 but only 1 inputs were given') and gamma, beta and epsilon never reached it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bench.suites.aclnn_arguments import as_op_inputs

NPUKERNELBENCH = Path("/work/ext/NPUKernelBench")


@pytest.mark.skipif(not NPUKERNELBENCH.is_dir(), reason=f"no NPUKernelBench checkout at {NPUKERNELBENCH}")
def test_layer_norm_v4_gets_its_normalized_shape_gamma_beta_and_epsilon() -> None:
    from bench.suites.npukernelbench import read_task

    task = read_task(NPUKERNELBENCH / "tasks/level2/Norm/LayerNormV4")
    case = task.cases[0]  # x [128, 256], normalized_shape [256], gamma and beta present
    drawn = task.make_inputs(case, 0)
    assert list(drawn.values) == ["x", "normalized_shape", "gamma", "beta"]
    assert list(drawn.values["normalized_shape"]) == [256]
    assert drawn.values["gamma"].shape == (256,) and drawn.values["beta"].shape == (256,)
    assert drawn.attrs == (pytest.approx(1e-5),)
    op = as_op_inputs(drawn, task.inputs)
    shape = op.values["normalized_shape"]
    assert isinstance(shape, np.ndarray) and shape.dtype == np.int32 and shape.tolist() == [256]
