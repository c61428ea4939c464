"""AscendC::LayerNorm's rstd form (LayerNormPara + LayerNormSeparateTiling, mean and 1 / std out; what the vendor
LayerNormV3/V4 and AdaLayerNorm kernels call) and AscendC::Normalize on the simulator: a team-written op project
(host: GetLayerNormMaxMinTmpSize and GetLayerNormNDTilingInfo's separate form for blocks of up to 4 rows; kernel:
rows brought in with DataCopyPad, each padded to 32 bytes in UB, LayerNorm per block with a sharedTmpBuffer) against
numpy: float, half, and half x with float gamma and beta; rows that need padding (30 halves, 20 floats) and rows
that do not; a LayerNormConfig leaving beta out. The Normalize project feeds numpy's mean and variance. Before these
were simulated the calls stopped the run (ASC958)."""

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
BEGIN_TILING_DATA_DEF(LnrTeamTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rows);
    TILING_DATA_FIELD_DEF(uint32_t, cols);
    TILING_DATA_FIELD_DEF(uint32_t, colsPad);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerLoop);
    TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);
    TILING_DATA_FIELD_DEF_STRUCT(LayerNormSeparateTiling, mainTiling);
    TILING_DATA_FIELD_DEF_STRUCT(LayerNormSeparateTiling, tailTiling);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(LnrTeam, LnrTeamTilingData)
}
"""

HOST = """
#include "lnr_team_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    LnrTeamTilingData tiling;
    const gert::Shape &shape = context->GetInputShape(0)->GetOriginShape();
    const uint32_t rows = static_cast<uint32_t>(shape.GetDim(0));
    const uint32_t cols = static_cast<uint32_t>(shape.GetDim(1));
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2U : 4U;
    const uint32_t align = 32U / typeSize;
    const uint32_t colsPad = (cols + align - 1U) / align * align;
    const uint32_t rowsPerLoop = rows < 4 ? rows : 4;
    const uint32_t tailRows = rows % rowsPerLoop;
    std::vector<int64_t> mainDims = {rowsPerLoop, cols};
    ge::Shape mainShape(mainDims);
    uint32_t maxValue = 0;
    uint32_t minValue = 0;
    AscendC::GetLayerNormMaxMinTmpSize(mainShape, typeSize, false, true, false, maxValue, minValue);
    // the variance (8 floats) and two buffers of 3 padded rows: 3 rows a pass in 4-row blocks
    uint32_t tmpBytes = (8U + 6U * colsPad) * 4U;
    if (tmpBytes < minValue) {
        tmpBytes = minValue;
    }
    AscendC::GetLayerNormNDTilingInfo(mainShape, tmpBytes, typeSize, false, true, tiling.mainTiling);
    if (tailRows != 0) {
        std::vector<int64_t> tailDims = {tailRows, cols};
        ge::Shape tailShape(tailDims);
        AscendC::GetLayerNormNDTilingInfo(tailShape, tmpBytes, typeSize, false, true, tiling.tailTiling);
    }
    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_colsPad(colsPad);
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
    context->SetOutputDataType(0, context->GetInputDataType(0));
    context->SetOutputDataType(1, ge::DT_FLOAT);
    context->SetOutputDataType(2, ge::DT_FLOAT);
    return GRAPH_SUCCESS;
}
}
namespace ops {
class LnrTeam : public OpDef {
public:
    explicit LnrTeam(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("mean").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("rstd").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LnrTeam);
}
"""

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
CONFIG_DECL

template <typename T, typename U>
class KernelLnrTeam {
public:
    __aicore__ inline KernelLnrTeam() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean, GM_ADDR rstd,
                                uint32_t rows, uint32_t cols, uint32_t colsPad, uint32_t rowsPerLoop,
                                uint32_t tmpBytes, const LayerNormSeparateTiling &mainTiling,
                                const LayerNormSeparateTiling &tailTiling)
    {
        this->rows = rows;
        this->cols = cols;
        this->colsPad = colsPad;
        this->rowsPerLoop = rowsPerLoop;
        this->mainTiling = mainTiling;
        this->tailTiling = tailTiling;
        xGm.SetGlobalBuffer((__gm__ T *)x, rows * cols);
        gammaGm.SetGlobalBuffer((__gm__ U *)gamma, cols);
        betaGm.SetGlobalBuffer((__gm__ U *)beta, cols);
        yGm.SetGlobalBuffer((__gm__ T *)y, rows * cols);
        meanGm.SetGlobalBuffer((__gm__ float *)mean, rows);
        rstdGm.SetGlobalBuffer((__gm__ float *)rstd, rows);
        pipe.InitBuffer(inQueue, 1, rowsPerLoop * colsPad * sizeof(T));
        pipe.InitBuffer(outQueue, 1, rowsPerLoop * colsPad * sizeof(T));
        pipe.InitBuffer(meanQueue, 1, 64);
        pipe.InitBuffer(rstdQueue, 1, 64);
        pipe.InitBuffer(gammaBuf, colsPad * sizeof(U) + 32);
        pipe.InitBuffer(betaBuf, colsPad * sizeof(U) + 32);
        pipe.InitBuffer(tmpBuf, tmpBytes);
    }
    __aicore__ inline void Process()
    {
        LocalTensor<U> gammaLocal = gammaBuf.Get<U>();
        LocalTensor<U> betaLocal = betaBuf.Get<U>();
        DataCopyExtParams vec{1, static_cast<uint32_t>(cols * sizeof(U)), 0, 0, 0};
        DataCopyPadExtParams<U> noPadU{false, 0, 0, 0};
        DataCopyPad(gammaLocal, gammaGm, vec, noPadU);
        DataCopyPad(betaLocal, betaGm, vec, noPadU);
        PipeBarrier<PIPE_ALL>();
        for (uint32_t row = 0; row < rows; row += rowsPerLoop) {
            const uint32_t n = rows - row < rowsPerLoop ? rows - row : rowsPerLoop;
            LocalTensor<T> xLocal = inQueue.AllocTensor<T>();
            DataCopyExtParams block{static_cast<uint16_t>(n), static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
            DataCopyPadExtParams<T> noPad{false, 0, 0, 0};
            DataCopyPad(xLocal, xGm[row * cols], block, noPad);
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<T>();
            LocalTensor<T> yLocal = outQueue.AllocTensor<T>();
            LocalTensor<float> meanLocal = meanQueue.AllocTensor<float>();
            LocalTensor<float> rstdLocal = rstdQueue.AllocTensor<float>();
            LocalTensor<uint8_t> tmpLocal = tmpBuf.Get<uint8_t>();
            LayerNormPara para{n, cols, colsPad};
            // a copy per call: the library const_casts the tiling and leaves arCurLength / aCurLength set to its
            // tail pass's, so a second call with the same object would run short main passes
            LayerNormSeparateTiling tiling = n == rowsPerLoop ? mainTiling : tailTiling;
            LayerNorm<U, T, false CONFIG_ARG>(yLocal, meanLocal, rstdLocal, xLocal, gammaLocal, betaLocal, 0.0001f,
                                              tmpLocal, para, tiling);
            outQueue.EnQue(yLocal);
            meanQueue.EnQue(meanLocal);
            rstdQueue.EnQue(rstdLocal);
            inQueue.FreeTensor(xLocal);
            yLocal = outQueue.DeQue<T>();
            meanLocal = meanQueue.DeQue<float>();
            rstdLocal = rstdQueue.DeQue<float>();
            DataCopyPad(yGm[row * cols], yLocal, block);
            DataCopyExtParams stat{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
            DataCopyPad(meanGm[row], meanLocal, stat);
            DataCopyPad(rstdGm[row], rstdLocal, stat);
            outQueue.FreeTensor(yLocal);
            meanQueue.FreeTensor(meanLocal);
            rstdQueue.FreeTensor(rstdLocal);
        }
    }
private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    TQue<TPosition::VECOUT, 1> meanQueue;
    TQue<TPosition::VECOUT, 1> rstdQueue;
    TBuf<TPosition::VECCALC> gammaBuf;
    TBuf<TPosition::VECCALC> betaBuf;
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<T> xGm;
    GlobalTensor<U> gammaGm;
    GlobalTensor<U> betaGm;
    GlobalTensor<T> yGm;
    GlobalTensor<float> meanGm;
    GlobalTensor<float> rstdGm;
    LayerNormSeparateTiling mainTiling;
    LayerNormSeparateTiling tailTiling;
    uint32_t rows = 0;
    uint32_t cols = 0;
    uint32_t colsPad = 0;
    uint32_t rowsPerLoop = 0;
};

extern "C" __global__ __aicore__ void lnr_team(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean,
                                               GM_ADDR rstd, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelLnrTeam<DTYPE_X, DTYPE_GAMMA> op;
    op.Init(x, gamma, beta, y, mean, rstd, tilingData.rows, tilingData.cols, tilingData.colsPad,
            tilingData.rowsPerLoop, tilingData.tmpBytes, tilingData.mainTiling, tilingData.tailTiling);
    op.Process();
}
"""

_TYPES = {"x": ["fp16", "float", "fp16"], "gamma": ["fp16", "float", "float"], "beta": ["fp16", "float", "float"],
          "y": ["fp16", "float", "fp16"], "mean": ["float"] * 3, "rstd": ["float"] * 3}
OP_JSON = [{"op": "LnrTeam", "language": "cpp",
            "input_desc": [{"name": n, "param_type": "required", "format": ["ND"] * 3, "type": _TYPES[n]}
                           for n in ("x", "gamma", "beta")],
            "output_desc": [{"name": n, "param_type": "required", "format": ["ND"] * 3, "type": _TYPES[n]}
                            for n in ("y", "mean", "rstd")]}]


def _project(root: Path, no_beta: bool = False) -> Path:
    project = root / "lnr_team"
    (project / "op_host").mkdir(parents=True)
    (project / "op_kernel").mkdir()
    (project / "lnr_team.json").write_text(json.dumps(OP_JSON), encoding="utf-8")
    (project / "op_host" / "lnr_team_tiling.h").write_text(TILING_H, encoding="utf-8")
    (project / "op_host" / "lnr_team.cpp").write_text(HOST, encoding="utf-8")
    decl = "constexpr LayerNormConfig kNoBeta = {true, false, false};" if no_beta else ""
    kernel = KERNEL.replace("CONFIG_DECL", decl).replace("CONFIG_ARG", ", kNoBeta" if no_beta else "")
    (project / "op_kernel" / "lnr_team.cpp").write_text(kernel, encoding="utf-8")
    return project


def _reference(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray | None) -> tuple[np.ndarray, ...]:
    x32 = x.astype(np.float32)
    mean = x32.mean(axis=-1, keepdims=True)
    rstd = 1 / np.sqrt(((x32 - mean) ** 2).mean(axis=-1, keepdims=True) + np.float32(1e-4))
    y = (x32 - mean) * rstd * gamma.astype(np.float32)
    if beta is not None:
        y = y + beta.astype(np.float32)
    return y, mean[:, 0], rstd[:, 0]


# (rows, cols, x, gamma/beta): 13 rows = blocks of 4 (a pass of 3 and a tail row each) and a last row; 30 halves
# and 20 floats padded to 32 and 24 in UB (the library zeroes the padding before its sums)
@pytest.mark.parametrize(("shape", "dtype", "gdtype", "tol"), [
    ((13, 64), np.float32, np.float32, 1e-5), ((10, 20), np.float32, np.float32, 1e-5),
    ((13, 30), np.float16, np.float16, 2e-3), ((6, 48), np.float16, np.float32, 2e-3)])
def test_layer_norm_rstd_matches_numpy(tmp_path: Path, shape: tuple[int, int], dtype: type, gdtype: type,
                                       tol: float) -> None:
    rng = np.random.default_rng(sum(shape))
    x = rng.uniform(-3, 3, shape).astype(dtype)
    gamma = rng.uniform(0.5, 1.5, shape[1]).astype(gdtype)
    beta = rng.uniform(-1, 1, shape[1]).astype(gdtype)
    result = run(str(_project(tmp_path)), [x, gamma, beta])
    assert result.ok, [str(d) for d in result.findings]
    for name, want in zip(("y", "mean", "rstd"), _reference(x, gamma, beta)):
        got = result.outputs[name]
        np.testing.assert_allclose(got.astype(np.float32), want, rtol=tol, atol=tol, err_msg=name)


def test_layer_norm_config_leaves_beta_out(tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    x = rng.uniform(-3, 3, (5, 40)).astype(np.float32)
    gamma = rng.uniform(0.5, 1.5, 40).astype(np.float32)
    beta = np.full(40, 100.0, np.float32)  # would show in every output if added
    result = run(str(_project(tmp_path, no_beta=True)), [x, gamma, beta])
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_allclose(result.outputs["y"], _reference(x, gamma, None)[0], rtol=1e-5, atol=1e-5)
