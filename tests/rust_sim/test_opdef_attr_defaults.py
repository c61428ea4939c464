"""Optional attributes the caller leaves out reach the host tiling with the OpDef's defaults
(`this->Attr("scale").AttrType(OPTIONAL).Float(2.0f)`), as the framework gives them: NPUKernelBench's GeGluV2
binding passes dim = -1 as its own literal, not from ModelNew, and its tiling read the attribute as absent
(split dimension 0: every output wrong, and a division by zero for a [1, 4096] input). The project here is
written for the test."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run
from frontend.opdef_attrs import _literal, attr_defaults
from frontend.pipeline import load

TILING = """\
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleTilingData)
TILING_DATA_FIELD_DEF(uint32_t, length);
TILING_DATA_FIELD_DEF(float, scale);
TILING_DATA_FIELD_DEF(int32_t, offset);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ScaleCustom, ScaleTilingData)
}
"""

HOST = """\
#include "scale_custom_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    ScaleTilingData tiling;
    auto attrs = context->GetAttrs();
    const float *scale = attrs->GetAttrPointer<float>(0);
    const int64_t *offset = attrs->GetAttrPointer<int64_t>(1);
    if (scale == nullptr || offset == nullptr) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_length(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    tiling.set_scale(*scale);
    tiling.set_offset(*offset);
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}
namespace ops {
class ScaleCustom : public OpDef {
public:
    explicit ScaleCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(2.0f);
        this->Attr("offset").AttrType(OPTIONAL).Int(3);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ScaleCustom);
}
"""

KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void scale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, td.length);
    yGm.SetGlobalBuffer((__gm__ float *)y, td.length);
    pipe.InitBuffer(q, 1, td.length * sizeof(float));
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, xGm, td.length);
    q.EnQue(t);
    LocalTensor<float> u = q.DeQue<float>();
    Muls(u, u, td.scale, td.length);
    TQue<TPosition::VECOUT, 1> out;
    pipe.InitBuffer(out, 1, td.length * sizeof(float));
    LocalTensor<float> v = out.AllocTensor<float>();
    Adds(v, u, (float)td.offset, td.length);
    out.EnQue(v);
    q.FreeTensor(u);
    LocalTensor<float> w = out.DeQue<float>();
    DataCopy(yGm, w, td.length);
    out.FreeTensor(w);
}
"""


def project(tmp_path: Path) -> Path:
    tmp_path = tmp_path / "scale_custom"
    tmp_path.mkdir()
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_kernel").mkdir()
    (tmp_path / "op_host" / "scale_custom.cpp").write_text(HOST)
    (tmp_path / "op_host" / "scale_custom_tiling.h").write_text(TILING)
    (tmp_path / "op_kernel" / "scale_custom.cpp").write_text(KERNEL)
    return tmp_path


def test_the_opdef_declares_its_defaults(tmp_path: Path) -> None:
    assert attr_defaults(load(str(project(tmp_path))).bundle) == [("scale", 2.0), ("offset", 3)]
    assert _literal("String", '"mean"') == "mean" and _literal("Bool", "true") is True
    assert _literal("ListInt", "{1, -2}") == [1, -2] and _literal("Int", "kDim") is None


def test_attributes_left_out_take_their_defaults(tmp_path: Path) -> None:
    x = np.arange(64, dtype=np.float32)
    folder = project(tmp_path)
    result = run(str(folder), {"x": x.copy()}, outputs={"y": ((64,), "float32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], x * 2 + 3)
    given = run(str(folder), {"x": x.copy()}, [0.5], outputs={"y": ((64,), "float32")})  # scale given, offset not
    assert given.ok and np.array_equal(given.outputs["y"], x * 0.5 + 3)
