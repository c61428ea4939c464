"""AscendC::LayerNorm (the output + mean + variance form, LayerNormTiling) on the simulator: a team-written op
project (host: GetLayerNormMaxMinTmpSize and GetLayerNormNDTilingInfo for a main block of up to 4 rows and for the
last block's rows; kernel: LayerNorm per block with a sharedTmpBuffer, mean and variance copied out with
DataCopyPad) against numpy, on shapes whose rows leave a short last block and whose blocks leave the library a tail
pass (3 rows a pass in 4-row blocks). Before LayerNorm was simulated the call stopped the run (ASC958)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

TILING_H = """
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(LnTeamTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rows);
    TILING_DATA_FIELD_DEF(uint32_t, cols);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerLoop);
    TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);
    TILING_DATA_FIELD_DEF_STRUCT(LayerNormTiling, mainTiling);
    TILING_DATA_FIELD_DEF_STRUCT(LayerNormTiling, tailTiling);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(LnTeam, LnTeamTilingData)
}
"""

HOST = """
#include "ln_team_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    LnTeamTilingData tiling;
    const gert::Shape &shape = context->GetInputShape(0)->GetOriginShape();
    const uint32_t rows = static_cast<uint32_t>(shape.GetDim(0));
    const uint32_t cols = static_cast<uint32_t>(shape.GetDim(1));
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2U : 4U;
    const uint32_t rowsPerLoop = rows < 4 ? rows : 4;
    const uint32_t tailRows = rows % rowsPerLoop;
    std::vector<int64_t> mainDims = {1, rowsPerLoop, cols, cols};
    ge::Shape mainShape(mainDims);
    uint32_t maxValue = 0;
    uint32_t minValue = 0;
    AscendC::GetLayerNormMaxMinTmpSize(mainShape, typeSize, false, maxValue, minValue);
    // room for 3 rows a pass in each of the library's three f32 buffers (half keeps mean and variance there too)
    uint32_t tmpBytes = (9U * cols + (typeSize == 2U ? 16U : 0U)) * 4U;
    if (tmpBytes < minValue) {
        tmpBytes = minValue;
    }
    AscendC::GetLayerNormNDTilingInfo(mainShape, tmpBytes, typeSize, false, tiling.mainTiling);
    if (tailRows != 0) {
        std::vector<int64_t> tailDims = {1, tailRows, cols, cols};
        ge::Shape tailShape(tailDims);
        AscendC::GetLayerNormNDTilingInfo(tailShape, tmpBytes, typeSize, false, tiling.tailTiling);
    }
    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_rowsPerLoop(rowsPerLoop);
    tiling.set_tmpBytes(tmpBytes);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(1);
    size_t *workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
namespace ge {
static graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *x = context->GetInputShape(0);
    *context->GetOutputShape(0) = *x;
    for (int i = 1; i < 3; ++i) {
        gert::Shape *stat = context->GetOutputShape(i);
        stat->SetDimNum(1);
        stat->SetDim(0, x->GetDim(0));
    }
    return GRAPH_SUCCESS;
}
static graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    for (int i = 0; i < 3; ++i) {
        context->SetOutputDataType(i, context->GetInputDataType(0));
    }
    return GRAPH_SUCCESS;
}
}
namespace ops {
class LnTeam : public OpDef {
public:
    explicit LnTeam(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("mean").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("variance").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LnTeam);
}
"""

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
class KernelLnTeam {
public:
    __aicore__ inline KernelLnTeam() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean, GM_ADDR variance,
                                uint32_t rows, uint32_t cols, uint32_t rowsPerLoop, uint32_t tmpBytes,
                                const LayerNormTiling &mainTiling, const LayerNormTiling &tailTiling)
    {
        this->rows = rows;
        this->cols = cols;
        this->rowsPerLoop = rowsPerLoop;
        this->mainTiling = mainTiling;
        this->tailTiling = tailTiling;
        xGm.SetGlobalBuffer((__gm__ T *)x, rows * cols);
        gammaGm.SetGlobalBuffer((__gm__ T *)gamma, cols);
        betaGm.SetGlobalBuffer((__gm__ T *)beta, cols);
        yGm.SetGlobalBuffer((__gm__ T *)y, rows * cols);
        meanGm.SetGlobalBuffer((__gm__ T *)mean, rows);
        varGm.SetGlobalBuffer((__gm__ T *)variance, rows);
        pipe.InitBuffer(inQueue, 1, rowsPerLoop * cols * sizeof(T));
        pipe.InitBuffer(outQueue, 1, rowsPerLoop * cols * sizeof(T));
        pipe.InitBuffer(statQueue, 1, 64);
        pipe.InitBuffer(varQueue, 1, 64);
        pipe.InitBuffer(gammaBuf, cols * sizeof(T));
        pipe.InitBuffer(betaBuf, cols * sizeof(T));
        pipe.InitBuffer(tmpBuf, tmpBytes);
    }
    __aicore__ inline void Process()
    {
        LocalTensor<T> gammaLocal = gammaBuf.Get<T>();
        LocalTensor<T> betaLocal = betaBuf.Get<T>();
        DataCopy(gammaLocal, gammaGm, cols);
        DataCopy(betaLocal, betaGm, cols);
        PipeBarrier<PIPE_ALL>();
        for (uint32_t row = 0; row < rows; row += rowsPerLoop) {
            const uint32_t n = rows - row < rowsPerLoop ? rows - row : rowsPerLoop;
            LocalTensor<T> xLocal = inQueue.AllocTensor<T>();
            DataCopy(xLocal, xGm[row * cols], n * cols);
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<T>();
            LocalTensor<T> yLocal = outQueue.AllocTensor<T>();
            LocalTensor<T> meanLocal = statQueue.AllocTensor<T>();
            LocalTensor<T> varLocal = varQueue.AllocTensor<T>();
            LocalTensor<uint8_t> tmpLocal = tmpBuf.Get<uint8_t>();
            // a copy per call: the library takes the tiling by reference and leaves bshCurLength / bsCurLength
            // set to its tail pass's, so a second call with the same object would run short main passes
            LayerNormTiling tiling = n == rowsPerLoop ? mainTiling : tailTiling;
            LayerNorm<T, false>(yLocal, meanLocal, varLocal, xLocal, gammaLocal, betaLocal, tmpLocal,
                                static_cast<T>(0.0001f), tiling);
            outQueue.EnQue(yLocal);
            statQueue.EnQue(meanLocal);
            varQueue.EnQue(varLocal);
            inQueue.FreeTensor(xLocal);
            yLocal = outQueue.DeQue<T>();
            meanLocal = statQueue.DeQue<T>();
            varLocal = varQueue.DeQue<T>();
            DataCopy(yGm[row * cols], yLocal, n * cols);
            DataCopyExtParams stat{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
            DataCopyPad(meanGm[row], meanLocal, stat);
            DataCopyPad(varGm[row], varLocal, stat);
            outQueue.FreeTensor(yLocal);
            statQueue.FreeTensor(meanLocal);
            varQueue.FreeTensor(varLocal);
        }
    }
private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    TQue<TPosition::VECOUT, 1> statQueue;
    TQue<TPosition::VECOUT, 1> varQueue;
    TBuf<TPosition::VECCALC> gammaBuf;
    TBuf<TPosition::VECCALC> betaBuf;
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<T> xGm;
    GlobalTensor<T> gammaGm;
    GlobalTensor<T> betaGm;
    GlobalTensor<T> yGm;
    GlobalTensor<T> meanGm;
    GlobalTensor<T> varGm;
    LayerNormTiling mainTiling;
    LayerNormTiling tailTiling;
    uint32_t rows = 0;
    uint32_t cols = 0;
    uint32_t rowsPerLoop = 0;
};

extern "C" __global__ __aicore__ void ln_team(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean,
                                              GM_ADDR variance, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelLnTeam<DTYPE_X> op;
    op.Init(x, gamma, beta, y, mean, variance, tilingData.rows, tilingData.cols, tilingData.rowsPerLoop,
            tilingData.tmpBytes, tilingData.mainTiling, tilingData.tailTiling);
    op.Process();
}
"""

_DESC = {"param_type": "required", "format": ["ND", "ND"], "type": ["fp16", "float"]}
OP_JSON = [{"op": "LnTeam", "language": "cpp",
            "input_desc": [{"name": n, **_DESC} for n in ("x", "gamma", "beta")],
            "output_desc": [{"name": n, **_DESC} for n in ("y", "mean", "variance")]}]


def _project(root: Path) -> Path:
    project = root / "ln_team"
    (project / "op_host").mkdir(parents=True)
    (project / "op_kernel").mkdir()
    (project / "ln_team.json").write_text(json.dumps(OP_JSON), encoding="utf-8")
    (project / "op_host" / "ln_team_tiling.h").write_text(TILING_H, encoding="utf-8")
    (project / "op_host" / "ln_team.cpp").write_text(HOST, encoding="utf-8")
    (project / "op_kernel" / "ln_team.cpp").write_text(KERNEL, encoding="utf-8")
    return project


def _reference(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray) -> tuple[np.ndarray, ...]:
    x32 = x.astype(np.float32)
    mean = x32.mean(axis=-1, keepdims=True)
    var = ((x32 - mean) ** 2).mean(axis=-1, keepdims=True)
    y = (x32 - mean) / np.sqrt(var + np.float32(1e-4)) * gamma.astype(np.float32) + beta.astype(np.float32)
    return y, mean[:, 0], var[:, 0]


# (rows, cols): 13 rows = 3 blocks of 4 (each a pass of 3 rows and a tail of 1) and a last block of 1 row;
# 10 rows of 72 = blocks of 4, 4 and 2 (the last a single pass), 72 columns a 64-lane block and a partial one
@pytest.mark.parametrize(("shape", "dtype", "tol"), [((13, 64), np.float32, 1e-5), ((10, 72), np.float32, 1e-5),
                                                     ((13, 48), np.float16, 2e-3), ((6, 80), np.float16, 2e-3)])
def test_layer_norm_matches_numpy(tmp_path: Path, shape: tuple[int, int], dtype: type, tol: float) -> None:
    rng = np.random.default_rng(sum(shape))
    x = rng.uniform(-3, 3, shape).astype(dtype)
    gamma = rng.uniform(0.5, 1.5, shape[1]).astype(dtype)
    beta = rng.uniform(-1, 1, shape[1]).astype(dtype)
    result = run(str(_project(tmp_path)), [x, gamma, beta])
    assert result.ok, [str(d) for d in result.findings]
    for name, want in zip(("y", "mean", "variance"), _reference(x, gamma, beta)):
        got = result.outputs[name]
        assert got.dtype == dtype
        np.testing.assert_allclose(got.astype(np.float32), want, rtol=tol, atol=tol, err_msg=name)


def test_layer_norm_too_small_a_buffer_is_reported(tmp_path: Path) -> None:
    # the tiling planned 3 rows a pass in tmpBytes; a kernel giving LayerNorm less temporary space is caught
    project = _project(tmp_path)
    kernel = project / "op_kernel" / "ln_team.cpp"
    kernel.write_text(KERNEL.replace("pipe.InitBuffer(tmpBuf, tmpBytes);", "pipe.InitBuffer(tmpBuf, tmpBytes / 2);"),
                      encoding="utf-8")
    x = np.ones((8, 64), np.float32)
    result = run(str(project), [x, np.ones(64, np.float32), np.zeros(64, np.float32)])
    assert not result.ok
    assert any("sharedTmpBuffer" in str(d) and "ASC959" in str(d) for d in result.findings), \
        [str(d) for d in result.findings]
