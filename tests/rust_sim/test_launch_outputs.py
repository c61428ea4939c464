"""Outputs the caller does not ask for: a reference that returns fewer outputs than the op makes (NPUKernelBench's
GeluQuant compares only y in its static mode; the kernel writes out_scale too) leaves their buffers to
passes.sim.run, which takes their shapes from the host's InferShape."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

HOST = """
#include "register/op_def_registry.h"
namespace optiling {
struct TwoTilingData { uint32_t n; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    TwoTilingData *t = context->GetTilingData<TwoTilingData>();
    t->n = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    context->SetBlockDim(1);
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
namespace ge {
static graphStatus InferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    gert::Shape *total = context->GetOutputShape(1);
    total->SetDimNum(1);
    total->SetDim(0, 1);
    return GRAPH_SUCCESS;
}
}
namespace ops {
class Two : public OpDef {
public:
    explicit Two(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("total").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Two);
}
"""

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
struct TwoTilingData { uint32_t n; };
extern "C" __global__ __aicore__ void two(GM_ADDR x, GM_ADDR y, GM_ADDR total, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(TwoTilingData, td, tiling);
    GlobalTensor<float> xGm, yGm, tGm;
    xGm.SetGlobalBuffer((__gm__ float *)x);
    yGm.SetGlobalBuffer((__gm__ float *)y);
    tGm.SetGlobalBuffer((__gm__ float *)total);
    float sum = 0.0f;
    for (uint32_t i = 0; i < td.n; i++) {
        float v = xGm.GetValue(i);
        yGm.SetValue(i, v * 2.0f);
        sum += v;
    }
    tGm.SetValue(0, sum);
}
"""


def test_outputs_not_asked_for_get_their_inferred_shapes(tmp_path: Path) -> None:
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_kernel").mkdir()
    (tmp_path / "op_host" / "two.cpp").write_text(HOST)
    (tmp_path / "op_kernel" / "two.cpp").write_text(KERNEL)
    x = np.arange(6, dtype=np.float32)
    y = np.zeros(6, dtype=np.float32)
    result = run(tmp_path, [x], outputs={"y": y})
    assert result.ok, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], 2 * x)
    assert result.outputs["total"].shape == (1,) and float(result.outputs["total"][0]) == 15.0


def test_a_host_that_reads_an_output_not_asked_for_gets_its_inferred_shape(tmp_path: Path) -> None:
    # NPUKernelBench AddLayerNorm's tiling reads the shapes of mean and rstd, which its reference does not return:
    # before, the host stopped at 'reads output 1 but only 1 outputs were given' (ASC602)
    host = HOST.replace("    context->SetBlockDim(1);",
                        "    if (context->GetOutputShape(1)->GetStorageShape().GetShapeSize() != 1) {\n"
                        "        return ge::GRAPH_FAILED;\n    }\n    context->SetBlockDim(1);")
    assert host != HOST
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_kernel").mkdir()
    (tmp_path / "op_host" / "two.cpp").write_text(host)
    (tmp_path / "op_kernel" / "two.cpp").write_text(KERNEL)
    x = np.arange(6, dtype=np.float32)
    result = run(tmp_path, [x], outputs={"y": np.zeros(6, dtype=np.float32)})
    assert result.ok, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], 2 * x)
    assert float(result.outputs["total"][0]) == 15.0


def test_a_host_that_reads_an_output_when_none_is_given_gets_the_inferred_ones(tmp_path: Path) -> None:
    # `ascendir run` with inputs only: ops-nn mat_mul_v3's GetDtype reads GetOutputDesc(0)->GetDataType(); before,
    # outputs were inferred only after the tiling, which stopped at 'reads output 0 but only 0 outputs were given'
    host = HOST.replace("    context->SetBlockDim(1);",
                        "    if (context->GetOutputDesc(0)->GetDataType() != ge::DT_FLOAT) {\n"
                        "        return ge::GRAPH_FAILED;\n    }\n    context->SetBlockDim(1);")
    assert host != HOST
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_kernel").mkdir()
    (tmp_path / "op_host" / "two.cpp").write_text(host)
    (tmp_path / "op_kernel" / "two.cpp").write_text(KERNEL)
    x = np.arange(6, dtype=np.float32)
    result = run(tmp_path, [x])
    assert result.ok, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], 2 * x)
    assert float(result.outputs["total"][0]) == 15.0
