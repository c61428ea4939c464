"""An op whose description lists several output dtypes for one input dtype (a cast: float -> half, float ->
int32) is built once per combination; a launch with an int32 output runs the float -> int32 binary: DTYPE_Y is
the output's dtype, not the first column the input matches. NPUKernelBench's CastMath chooses its Cast with
`if constexpr (std::is_same_v<DTYPE_Y, int32_t>)`; with DTYPE_Y bound to half it wrote half the bytes, or none.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

HOST = """
#include "register/op_def_registry.h"
namespace optiling {
struct CvtTilingData { uint32_t n; };
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    CvtTilingData *t = context->GetTilingData<CvtTilingData>();
    t->n = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    context->SetBlockDim(1);
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
namespace ops {
class Cvt : public OpDef {
public:
    explicit Cvt(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_INT32}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Cvt);
}
"""

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
struct CvtTilingData { uint32_t n; };
extern "C" __global__ __aicore__ void cvt(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(CvtTilingData, td, tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> inBuf, outBuf;
    pipe.InitBuffer(inBuf, 64 * sizeof(float));
    pipe.InitBuffer(outBuf, 64 * sizeof(DTYPE_Y));
    GlobalTensor<float> xGm;
    GlobalTensor<DTYPE_Y> yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    yGm.SetGlobalBuffer((__gm__ DTYPE_Y *)y, 64);
    LocalTensor<float> a = inBuf.Get<float>();
    LocalTensor<DTYPE_Y> b = outBuf.Get<DTYPE_Y>();
    DataCopy(a, xGm, 64);
    PipeBarrier<PIPE_ALL>();
    if constexpr (std::is_same_v<DTYPE_Y, int32_t>) {
        Cast(b, a, RoundMode::CAST_TRUNC, td.n);
    } else {
        Cast(b, a, RoundMode::CAST_NONE, td.n);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, b, 64);
}
"""


def project(tmp_path: Path) -> Path:
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_kernel").mkdir()
    (tmp_path / "op_host" / "cvt.cpp").write_text(HOST)
    (tmp_path / "op_kernel" / "cvt.cpp").write_text(KERNEL)
    return tmp_path


def test_the_outputs_dtype_picks_the_binary(tmp_path: Path) -> None:
    x = np.linspace(-3.7, 3.7, 64, dtype=np.float32)
    folder = project(tmp_path)
    as_int = run(folder, [x], outputs={"y": ((64,), "int32")}, dtypes=["float32", "int32"])
    assert as_int.ok, [str(d) for d in as_int.findings]
    assert np.array_equal(as_int.outputs["y"], np.trunc(x).astype(np.int32))
    as_half = run(folder, [x], outputs={"y": ((64,), "float16")}, dtypes=["float32", "float16"])
    assert as_half.ok, [str(d) for d in as_half.findings]
    np.testing.assert_allclose(as_half.outputs["y"], x.astype(np.float16), rtol=1e-3)
