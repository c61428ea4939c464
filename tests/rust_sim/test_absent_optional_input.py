"""An optional input the launch gives no tensor is nullptr to the kernel, as aclnn passes it (ops-transformer
moe_gating_top_k_softmax's `finished`: `if (finished != nullptr) { ... copy it in ... }`). Before, the lowering took
every kernel pointer as non-null, so the kernel read its absent input (ASC950, a GM buffer of 0 bytes)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim.launch import run

HOST = """
#include "register/op_def_registry.h"
namespace optiling {
struct OptTilingData { uint32_t n; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    OptTilingData *t = context->GetTilingData<OptTilingData>();
    t->n = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    context->SetBlockDim(1);
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
namespace ops {
class OptOp : public OpDef {
public:
    explicit OptOp(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(OptOp);
}
"""

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
struct OptTilingData { uint32_t n; };
extern "C" __global__ __aicore__ void opt_op(GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(OptTilingData, td, tiling);
    GlobalTensor<float> xGm, bGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x);
    yGm.SetGlobalBuffer((__gm__ float *)y);
    bool hasBias = bias != nullptr;
    if (hasBias) {
        bGm.SetGlobalBuffer((__gm__ float *)bias);
    }
    for (uint32_t i = 0; i < td.n; i++) {
        float v = xGm.GetValue(i) * 2.0f;
        if (hasBias) {
            v = v + bGm.GetValue(i);
        }
        yGm.SetValue(i, v);
    }
}
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("opt")
    (root / "op_host").mkdir()
    (root / "op_kernel").mkdir()
    (root / "op_host" / "opt_op.cpp").write_text(HOST)
    (root / "op_kernel" / "opt_op.cpp").write_text(KERNEL)
    return root


def test_an_absent_optional_input_is_nullptr(project: Path) -> None:
    x = np.arange(8, dtype=np.float32)
    result = run(project, {"x": x}, outputs={"y": np.zeros(8, dtype=np.float32)})
    assert result.ok, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], 2 * x)


def test_a_given_optional_input_is_read(project: Path) -> None:
    x, bias = np.arange(8, dtype=np.float32), np.full(8, 0.5, dtype=np.float32)
    result = run(project, {"x": x, "bias": bias}, outputs={"y": np.zeros(8, dtype=np.float32)})
    assert result.ok, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], 2 * x + 0.5)
