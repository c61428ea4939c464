"""A tiling array field the host leaves unset reads zeros on the device (the tiling data starts zeroed), also
where the kernel reads it at a run-time index: NPUKernelBench Lerp copies `tiling_data.shape[i]` in a loop, and
its host sets `shape` only for broadcast inputs. The zeros were folded for constant indices only, so the loop's
reads stopped the run as unmodelled ("the kernel reads tiling field 'shape', which the host tiling did not set").
The project here is written for the test."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

TILING = """\
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(BiasTilingData)
TILING_DATA_FIELD_DEF(uint32_t, length);
TILING_DATA_FIELD_DEF(uint32_t, broadcast);
TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, extra);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(BiasCustom, BiasTilingData)
}
"""

HOST = """\
#include "bias_custom_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    BiasTilingData tiling;
    tiling.set_length(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}
namespace ops {
class BiasCustom : public OpDef {
public:
    explicit BiasCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(BiasCustom);
}
"""

KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void bias_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    uint32_t sum = td.broadcast;
    for (uint32_t i = 0; i < 8; i++) {
        sum += td.extra[i];
    }
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    TQue<TPosition::VECOUT, 1> out;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, td.length);
    yGm.SetGlobalBuffer((__gm__ float *)y, td.length);
    pipe.InitBuffer(q, 1, td.length * sizeof(float));
    pipe.InitBuffer(out, 1, td.length * sizeof(float));
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, xGm, td.length);
    q.EnQue(t);
    LocalTensor<float> u = q.DeQue<float>();
    LocalTensor<float> v = out.AllocTensor<float>();
    Adds(v, u, (float)sum, td.length);
    out.EnQue(v);
    q.FreeTensor(u);
    LocalTensor<float> w = out.DeQue<float>();
    DataCopy(yGm, w, td.length);
    out.FreeTensor(w);
}
"""


def project(tmp_path: Path) -> Path:
    folder = tmp_path / "bias_custom"
    (folder / "op_host").mkdir(parents=True)
    (folder / "op_kernel").mkdir()
    (folder / "op_host" / "bias_custom.cpp").write_text(HOST)
    (folder / "op_host" / "bias_custom_tiling.h").write_text(TILING)
    (folder / "op_kernel" / "bias_custom.cpp").write_text(KERNEL)
    return folder


def test_an_unset_array_field_read_in_a_loop_is_zero(tmp_path: Path) -> None:
    x = np.arange(64, dtype=np.float32)
    result = run(str(project(tmp_path)), {"x": x.copy()}, outputs={"y": ((64,), "float32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], x)
