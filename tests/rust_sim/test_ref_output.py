"""An op whose description names an output like an input (`Input("y")` and `Output("y")`, a ref tensor) gets one
memory for both on the device: the kernel finds the input's data in the output and may write only part of it
(NPUKernelBench's Eye sets the diagonal of a zeroed tensor). ascendir.sim.run starts such an output as a copy of
the input, counted as written."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ascendir.sim import run

HOST = """
#include "register/op_def_registry.h"
namespace optiling {
struct DiagTilingData { uint32_t n; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    DiagTilingData *t = context->GetTilingData<DiagTilingData>();
    t->n = context->GetInputShape(0)->GetOriginShape().GetDim(0);
    context->SetBlockDim(1);
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
namespace ops {
class Diag : public OpDef {
public:
    explicit Diag(const char *name) : OpDef(name)
    {
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Diag);
}
"""

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
struct DiagTilingData { uint32_t n; };
extern "C" __global__ __aicore__ void diag(GM_ADDR y, GM_ADDR y_ref, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(DiagTilingData, td, tiling);
    GlobalTensor<float> out;
    out.SetGlobalBuffer((__gm__ float *)y_ref);
    for (uint32_t i = 0; i < td.n; i++) {
        out.SetValue(i * td.n + i, 1.0f);
    }
}
"""


def test_a_ref_output_starts_as_its_input(tmp_path: Path) -> None:
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_kernel").mkdir()
    (tmp_path / "op_host" / "diag.cpp").write_text(HOST)
    (tmp_path / "op_kernel" / "diag.cpp").write_text(KERNEL)
    x = np.full((4, 4), 3.0, dtype=np.float32)
    y = np.zeros((4, 4), dtype=np.float32)
    result = run(tmp_path, [x], outputs={"y": y})
    assert result.ok, [str(d) for d in result.findings]
    expected = np.full((4, 4), 3.0, dtype=np.float32)
    np.fill_diagonal(expected, 1.0)
    assert np.array_equal(result.outputs["y"], expected)
    assert np.array_equal(x, np.full((4, 4), 3.0, dtype=np.float32))  # the caller's input is left alone
