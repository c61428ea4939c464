"""A kernel's workspace parameter named as vendor kernels name its GM address (ops-nn mat_mul_v3's `GM_ADDR
workspaceGM`) is the workspace the host asks for (GetWorkspaceSizes), not a tensor: read as a tensor it was a
0-byte buffer, and the kernel's first write into it was out of bounds (ASC950)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

HOST = """
#include "register/op_def_registry.h"
namespace optiling {
struct WsTilingData { uint32_t n; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    WsTilingData *t = context->GetTilingData<WsTilingData>();
    t->n = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    context->SetBlockDim(1);
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = t->n * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
}
namespace ops {
class WsOp : public OpDef {
public:
    explicit WsOp(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(WsOp);
}
"""

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
struct WsTilingData { uint32_t n; };
extern "C" __global__ __aicore__ void ws_op(GM_ADDR x, GM_ADDR y, GM_ADDR WORKSPACE, GM_ADDR tilingGM)
{
    GET_TILING_DATA_WITH_STRUCT(WsTilingData, td, tilingGM);
    GlobalTensor<float> xGm, yGm, wsGm;
    xGm.SetGlobalBuffer((__gm__ float *)x);
    yGm.SetGlobalBuffer((__gm__ float *)y);
    wsGm.SetGlobalBuffer((__gm__ float *)WORKSPACE);
    for (uint32_t i = 0; i < td.n; i++) {
        wsGm.SetValue(i, xGm.GetValue(i) * 2.0f);
    }
    for (uint32_t i = 0; i < td.n; i++) {
        yGm.SetValue(i, wsGm.GetValue(i) + 1.0f);
    }
}
"""


@pytest.mark.parametrize("name", ["workspaceGM", "workspace_gm", "usrWorkspace"])
def test_a_workspace_named_for_its_gm_address_is_the_host_s_workspace(tmp_path: Path, name: str) -> None:
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_kernel").mkdir()
    (tmp_path / "op_host" / "ws_op.cpp").write_text(HOST)
    (tmp_path / "op_kernel" / "ws_op.cpp").write_text(KERNEL.replace("WORKSPACE", name))
    x = np.arange(16, dtype=np.float32)
    result = run(tmp_path, [x], outputs={"y": np.zeros(16, dtype=np.float32)})
    assert result.ok and not [d for d in result.findings if d.is_error], [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], 2 * x + 1)
