"""An answer's own aclnn and l0op layers replayed around its kernel (bench/harness/aclnn_replay.py): a self-written
op project whose aclnn layer moves the op's dim last with l0op::Transpose, launches the kernel through its l0op
function, transposes the result back and casts it, replayed with a numpy kernel; and a layer calling an l0op
operator the replay does not model, which falls back with the reason and the line."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from bench.harness import aclnn_replay as R
from bench.harness import tensor_ops as T
from bench.harness.stages.correctness import poisoned, simulator_available
from bench.suites.model import Inputs

OPDEF = """
#include "register/op_def_registry.h"
namespace ops {
class RunSum : public OpDef {
public:
  explicit RunSum(const char* name) : OpDef(name)
  {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Attr("dim").AttrType(OPTIONAL).Int(-1);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(RunSum);
}
"""

L0OP = """
#include "opdev/op_executor.h"
namespace l0op {
OP_TYPE_REGISTER(RunSum);
const aclTensor *RunSum(const aclTensor *x, int64_t dim, aclOpExecutor *executor) {
  L0_DFX(RunSum, x, dim);
  op::Shape outShape = x->GetStorageShape();
  auto out = executor->AllocTensor(outShape, x->GetDataType(), x->GetStorageFormat());
  ADD_TO_LAUNCHER_LIST_AICORE(RunSum, OP_INPUT(x), OP_OUTPUT(out), OP_ATTR(dim));
  return out;
}
}
"""

ACLNN = """
#include "aclnn_kernels/transpose.h"
using namespace op;

static bool CheckParams(const aclTensor *self, int64_t dim, const aclTensor *out) {
  OP_CHECK_NULL(self, return false);
  OP_CHECK_DTYPE_NOT_MATCH(out, op::DataType::DT_FLOAT, return false);
  OP_CHECK_MAX_DIM(self, 8, return false);
  return true;
}

static aclIntArray *SwapLast(int64_t dimNum, int64_t dim, aclOpExecutor *executor) {
  std::vector<int64_t> perm(dimNum, 0);
  for (int64_t i = 0; i < dimNum; i++) {
    perm[i] = i;
  }
  std::swap(perm[dim], perm[dimNum - 1]);
  return executor->AllocIntArray(perm.data(), dimNum);
}

aclnnStatus aclnnRunSumGetWorkspaceSize(const aclTensor *self, int64_t dim, aclTensor *out,
                                        uint64_t *workspaceSize, aclOpExecutor **executor) {
  L2_DFX_PHASE_1(aclnnRunSum, DFX_IN(self, dim), DFX_OUT(out));
  auto uniqueExecutor = CREATE_EXECUTOR();
  CHECK_RET(CheckParams(self, dim, out), ACLNN_ERR_PARAM_INVALID);
  auto selfContiguous = l0op::Contiguous(self, uniqueExecutor.get());
  CHECK_RET(selfContiguous != nullptr, ACLNN_ERR_INNER_NULLPTR);
  int64_t dimNum = static_cast<int64_t>(selfContiguous->GetViewShape().GetDimNum());
  if (dim < 0) {
    dim += dimNum;
  }
  const aclTensor *result = nullptr;
  if (dim != dimNum - 1) {
    aclIntArray *axes = SwapLast(dimNum, dim, uniqueExecutor.get());
    auto moved = l0op::Transpose(selfContiguous, axes, uniqueExecutor.get());
    auto summed = l0op::RunSum(moved, dimNum - 1, uniqueExecutor.get());
    result = const_cast<aclTensor *>(l0op::Transpose(summed, axes, uniqueExecutor.get()));
  } else {
    result = l0op::RunSum(selfContiguous, dim, uniqueExecutor.get());
  }
  auto widened = l0op::Cast(result, op::DataType::DT_FLOAT, uniqueExecutor.get());
  auto copied = l0op::ViewCopy(widened, out, uniqueExecutor.get());
  CHECK_RET(copied != nullptr, ACLNN_ERR_INNER_NULLPTR);
  *workspaceSize = uniqueExecutor->GetWorkspaceSize();
  uniqueExecutor.ReleaseTo(executor);
  return ACLNN_SUCCESS;
}
"""

BINDING = """
#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"
at::Tensor custom_pybind_api(at::Tensor &x, int64_t dim)
{
    at::Tensor out = torch::empty(x.sizes(), x.options().dtype(torch::kFloat32));
    EXEC_NPU_CMD(aclnnCustomOp, x, dim, out);
    return out;
}
PYBIND11_MODULE(kernel_gen_ops, m) {
    m.def("custom_pybind_api", &custom_pybind_api, "");
}
"""

KERNEL = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void run_sum(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {}
"""


def _project(tmp_path: Path, aclnn: str = ACLNN) -> object:
    from frontend.pipeline import load

    root = tmp_path / "answer"
    (root / "op_host").mkdir(parents=True)
    (root / "op_kernel").mkdir()
    (root / "op_host" / "run_sum_def.cpp").write_text(OPDEF)
    (root / "op_host" / "run_sum_l0.cpp").write_text(L0OP)
    (root / "op_host" / "aclnn_run_sum.cpp").write_text(aclnn)
    (root / "op_kernel" / "run_sum.cpp").write_text(KERNEL)
    return load(str(root))


def _numpy_kernel(calls: list) -> object:
    """The kernel as numpy: a running sum along the last axis (the axis the kernel works on), in float16."""
    def launch(ins: list, attrs: list, outs: list) -> None:
        calls.append(([t.shape for t in ins], list(attrs)))
        outs[0].data[...] = np.cumsum(ins[0].data.astype(np.float32), axis=-1).astype(np.float16)
    return launch


def _replay(program: object, calls: list) -> R.AclnnReplay:
    return R.AclnnReplay(program, "RunSum", R.Layer(program), _numpy_kernel(calls),
                         lambda shape, dtype: poisoned(shape, np.dtype(dtype), 7), "910B2")


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_the_layer_moves_the_dim_last_launches_and_moves_it_back(tmp_path: Path, dim: int) -> None:
    program = _project(tmp_path)
    calls: list = []
    replay = _replay(program, calls)
    x = np.random.default_rng(0).uniform(-1, 1, (6, 10)).astype(np.float16)
    out = T.Tensor(poisoned((6, 10), np.dtype(np.float32), 7), "float32")
    fn, unit = R.Layer(program).entry("aclnnRunSumGetWorkspaceSize")
    status = replay.call(fn, unit, [T.make(x, "float16"), dim, out, R.OutParam(), R.OutParam()])
    assert status == 0
    expected = np.cumsum(x.astype(np.float32), axis=dim).astype(np.float16).astype(np.float32)
    np.testing.assert_array_equal(out.data, expected)
    assert out.kernel
    # the kernel got the tensor with the dim moved last, and that axis as its attribute
    moved = (10, 6) if dim == 0 else (6, 10)
    assert calls == [([moved], [1])]


def test_a_failing_check_is_the_answers_status(tmp_path: Path) -> None:
    program = _project(tmp_path)
    replay = _replay(program, [])
    fn, unit = R.Layer(program).entry("aclnnRunSumGetWorkspaceSize")
    half_out = T.Tensor(np.zeros((2, 3), np.float16), "float16")  # CheckParams wants a float output
    status = replay.call(fn, unit, [T.make(np.ones((2, 3), np.float16), "float16"), 1, half_out,
                                    R.OutParam(), R.OutParam()])
    assert status == R._STATUS["ACLNN_ERR_PARAM_INVALID"]


@pytest.mark.skipif(not simulator_available(), reason="the simulator extension is not built")
def test_an_operator_outside_the_set_falls_back_with_its_line(tmp_path: Path) -> None:
    aclnn = ACLNN.replace("auto moved = l0op::Transpose(selfContiguous, axes, uniqueExecutor.get());",
                          "auto moved = l0op::Sort(selfContiguous, axes, uniqueExecutor.get());")
    program = _project(tmp_path, aclnn)
    (tmp_path / "validation").mkdir()
    (tmp_path / "validation" / "pybind.cpp").write_text(BINDING)
    task = SimpleNamespace(path=str(tmp_path), op_type="RunSum")
    x = np.ones((4, 8), np.float16)
    drawn = Inputs({"x": x}, {"x": "float16"})
    inputs = Inputs({"x": x}, {"x": "float16"}, attrs=(0,), reference=drawn)
    run, why = R.simulate_aclnn(task, program, "910B2", inputs, {"y": np.zeros((4, 8), np.float32)}, 7, None)
    line = aclnn.splitlines().index(next(s for s in aclnn.splitlines() if "l0op::Sort" in s)) + 1
    assert run is None
    assert why == f"the aclnn replay does not model l0op::Sort at line {line} of aclnn_run_sum.cpp"


def test_an_answer_without_its_own_layer_is_left_to_the_direct_launch(tmp_path: Path) -> None:
    program = _project(tmp_path, "// no aclnn entry here\n")
    (tmp_path / "validation").mkdir()
    (tmp_path / "validation" / "pybind.cpp").write_text(BINDING)
    task = SimpleNamespace(path=str(tmp_path), op_type="RunSum")
    inputs = Inputs({"x": np.ones((2, 2), np.float16)}, {"x": "float16"})
    assert R.simulate_aclnn(task, program, "910B2", inputs, {}, 7, None) == (None, "")
