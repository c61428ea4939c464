"""A host tiling that calls `context->SetNeedAtomic(true)` has the runtime initialise the outputs before the
launch (asc-devkit OpParamDef/InitValue.md: an output's InitValue takes effect only with SetNeedAtomic(true)):
a kernel that accumulates into its output and leaves elements no input names (ops-nn embedding_dense_grad_v2's
rows no index names) then reads zeros there. The launch starts such outputs as zeros that count as written; an
op that does not set it keeps the finding for an unwritten output (ASC961)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

HOST = """
#include "register/op_def_registry.h"
namespace optiling {
struct PairSumTilingData { uint32_t n; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    PairSumTilingData *t = context->GetTilingData<PairSumTilingData>();
    t->n = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    context->SetBlockDim(1);
    NEED_ATOMIC
    return ge::GRAPH_SUCCESS;
}
}
namespace ops {
class PairSum : public OpDef {
public:
    explicit PairSum(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).InitValue(0);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(PairSum);
}
"""

# y[2j] accumulates x[2j] and x[2j + 1]; y's odd elements are never written
KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
struct PairSumTilingData { uint32_t n; };
extern "C" __global__ __aicore__ void pair_sum(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(PairSumTilingData, td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x);
    yGm.SetGlobalBuffer((__gm__ float *)y);
    for (uint32_t i = 0; i < td.n; i++) {
        uint32_t j = i / 2 * 2;
        yGm.SetValue(j, yGm.GetValue(j) + xGm.GetValue(i));
    }
}
"""


def _op(tmp_path: Path, need_atomic: str) -> Path:
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_kernel").mkdir()
    (tmp_path / "op_host" / "pair_sum.cpp").write_text(HOST.replace("NEED_ATOMIC", need_atomic))
    (tmp_path / "op_kernel" / "pair_sum.cpp").write_text(KERNEL)
    return tmp_path


def test_need_atomic_outputs_start_as_zeros(tmp_path: Path) -> None:
    x = np.arange(1, 17, dtype=np.float32)
    # the caller's array holds other values: the runtime's fill comes first
    result = run(_op(tmp_path, "context->SetNeedAtomic(true);"), [x],
                 outputs={"y": np.full(16, 7.0, dtype=np.float32)})
    assert result.ok and not [d for d in result.findings if d.is_error], [str(d) for d in result.findings]
    expected = np.zeros(16, dtype=np.float32)
    expected[0::2] = x[0::2] + x[1::2]
    assert np.array_equal(result.outputs["y"], expected)


@pytest.mark.parametrize("need_atomic", ["", "context->SetNeedAtomic(false);"])
def test_without_need_atomic_unwritten_outputs_are_findings(tmp_path: Path, need_atomic: str) -> None:
    x = np.arange(1, 17, dtype=np.float32)
    result = run(_op(tmp_path, need_atomic), [x], outputs={"y": np.zeros(16, dtype=np.float32)})
    codes = {d.code for d in result.findings if d.is_error}
    assert codes & {"ASC952", "ASC961"}, [str(d) for d in result.findings]
