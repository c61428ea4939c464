"""AscendC::RmsNorm on the simulator: a team-written op project (host: GetRmsNormMaxMinTmpSize and
GetRmsNormTilingInfo for a main block of up to 4 rows and for the last block's rows; kernel: RmsNorm per block with
a sharedTmpBuffer) against numpy, on shapes whose rows leave a short last block and whose blocks leave the library
a tail pass (3 rows a pass in 4-row blocks). Before RmsNorm was simulated the call stopped the run (ASC958)."""

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
BEGIN_TILING_DATA_DEF(RmsTeamTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rows);
    TILING_DATA_FIELD_DEF(uint32_t, cols);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerLoop);
    TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);
    TILING_DATA_FIELD_DEF_STRUCT(RmsNormTiling, mainTiling);
    TILING_DATA_FIELD_DEF_STRUCT(RmsNormTiling, tailTiling);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(RmsTeam, RmsTeamTilingData)
}
"""

HOST = """
#include "rms_team_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    RmsTeamTilingData tiling;
    const gert::Shape &shape = context->GetInputShape(0)->GetOriginShape();
    const uint32_t rows = static_cast<uint32_t>(shape.GetDim(0));
    const uint32_t cols = static_cast<uint32_t>(shape.GetDim(1));
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2U : 4U;
    const uint32_t rowsPerLoop = rows < 4 ? rows : 4;
    const uint32_t tailRows = rows % rowsPerLoop;
    std::vector<int64_t> mainDims = {1, rowsPerLoop, cols};
    ge::Shape mainShape(mainDims);
    uint32_t maxValue = 0;
    uint32_t minValue = 0;
    if (!AscendC::GetRmsNormMaxMinTmpSize(mainShape, typeSize, maxValue, minValue, false)) {
        return ge::GRAPH_FAILED;
    }
    // room for 3 rows a pass: the library works through a 4-row block in a pass of 3 and a tail of 1
    const uint32_t perRow = (typeSize == 4U ? 1U : 2U) * cols * 4U;
    const uint32_t tmpBytes = minValue + 2U * perRow;
    if (!AscendC::GetRmsNormTilingInfo(mainShape, mainShape, tmpBytes, typeSize, tiling.mainTiling, false)) {
        return ge::GRAPH_FAILED;
    }
    if (tailRows != 0) {
        std::vector<int64_t> tailDims = {1, tailRows, cols};
        ge::Shape tailShape(tailDims);
        if (!AscendC::GetRmsNormTilingInfo(tailShape, tailShape, tmpBytes, typeSize, tiling.tailTiling, false)) {
            return ge::GRAPH_FAILED;
        }
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
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}
namespace ops {
class RmsTeam : public OpDef {
public:
    explicit RmsTeam(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(RmsTeam);
}
"""

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
class KernelRmsTeam {
public:
    __aicore__ inline KernelRmsTeam() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, uint32_t rows, uint32_t cols,
                                uint32_t rowsPerLoop, uint32_t tmpBytes, const RmsNormTiling &mainTiling,
                                const RmsNormTiling &tailTiling)
    {
        this->rows = rows;
        this->cols = cols;
        this->rowsPerLoop = rowsPerLoop;
        this->mainTiling = mainTiling;
        this->tailTiling = tailTiling;
        xGm.SetGlobalBuffer((__gm__ T *)x, rows * cols);
        gammaGm.SetGlobalBuffer((__gm__ T *)gamma, cols);
        yGm.SetGlobalBuffer((__gm__ T *)y, rows * cols);
        pipe.InitBuffer(inQueue, 1, rowsPerLoop * cols * sizeof(T));
        pipe.InitBuffer(outQueue, 1, rowsPerLoop * cols * sizeof(T));
        pipe.InitBuffer(gammaBuf, cols * sizeof(T));
        pipe.InitBuffer(tmpBuf, tmpBytes);
    }
    __aicore__ inline void Process()
    {
        LocalTensor<T> gammaLocal = gammaBuf.Get<T>();
        DataCopy(gammaLocal, gammaGm, cols);
        PipeBarrier<PIPE_ALL>();
        for (uint32_t row = 0; row < rows; row += rowsPerLoop) {
            const uint32_t n = rows - row < rowsPerLoop ? rows - row : rowsPerLoop;
            LocalTensor<T> xLocal = inQueue.AllocTensor<T>();
            DataCopy(xLocal, xGm[row * cols], n * cols);
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<T>();
            LocalTensor<T> yLocal = outQueue.AllocTensor<T>();
            LocalTensor<uint8_t> tmpLocal = tmpBuf.Get<uint8_t>();
            if (n == rowsPerLoop) {
                RmsNorm<T, false>(yLocal, xLocal, gammaLocal, tmpLocal, static_cast<T>(0.0001f), mainTiling);
            } else {
                RmsNorm<T, false>(yLocal, xLocal, gammaLocal, tmpLocal, static_cast<T>(0.0001f), tailTiling);
            }
            outQueue.EnQue(yLocal);
            inQueue.FreeTensor(xLocal);
            yLocal = outQueue.DeQue<T>();
            DataCopy(yGm[row * cols], yLocal, n * cols);
            outQueue.FreeTensor(yLocal);
        }
    }
private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> gammaBuf;
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<T> xGm;
    GlobalTensor<T> gammaGm;
    GlobalTensor<T> yGm;
    RmsNormTiling mainTiling;
    RmsNormTiling tailTiling;
    uint32_t rows = 0;
    uint32_t cols = 0;
    uint32_t rowsPerLoop = 0;
};

extern "C" __global__ __aicore__ void rms_team(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelRmsTeam<DTYPE_X> op;
    op.Init(x, gamma, y, tilingData.rows, tilingData.cols, tilingData.rowsPerLoop, tilingData.tmpBytes,
            tilingData.mainTiling, tilingData.tailTiling);
    op.Process();
}
"""

OP_JSON = [{"op": "RmsTeam", "language": "cpp",
            "input_desc": [{"name": n, "param_type": "required", "format": ["ND", "ND"], "type": ["fp16", "float"]}
                           for n in ("x", "gamma")],
            "output_desc": [{"name": "y", "param_type": "required", "format": ["ND", "ND"],
                             "type": ["fp16", "float"]}]}]


def _project(root: Path) -> Path:
    project = root / "rms_team"
    (project / "op_host").mkdir(parents=True)
    (project / "op_kernel").mkdir()
    (project / "rms_team.json").write_text(json.dumps(OP_JSON), encoding="utf-8")
    (project / "op_host" / "rms_team_tiling.h").write_text(TILING_H, encoding="utf-8")
    (project / "op_host" / "rms_team.cpp").write_text(HOST, encoding="utf-8")
    (project / "op_kernel" / "rms_team.cpp").write_text(KERNEL, encoding="utf-8")
    return project


def _reference(x: np.ndarray, gamma: np.ndarray) -> np.ndarray:
    x32 = x.astype(np.float32)
    rstd = 1.0 / np.sqrt((x32 * x32).mean(axis=-1, keepdims=True) + np.float32(1e-4))
    return x32 * rstd * gamma.astype(np.float32)


# (rows, cols): 13 rows = 3 blocks of 4 (each a pass of 3 rows and a tail of 1) and a last block of 1 row;
# 10 rows of 72 = blocks of 4, 4 and 2 (the last block a single pass), 72 columns two 64-lane repeats
@pytest.mark.parametrize(("shape", "dtype", "tol"), [((13, 64), np.float32, 1e-5), ((10, 72), np.float32, 1e-5),
                                                     ((13, 48), np.float16, 2e-3), ((6, 80), np.float16, 2e-3)])
def test_rms_norm_matches_numpy(tmp_path: Path, shape: tuple[int, int], dtype: type, tol: float) -> None:
    rng = np.random.default_rng(sum(shape))
    x = rng.uniform(-3, 3, shape).astype(dtype)
    gamma = rng.uniform(0.5, 1.5, shape[1]).astype(dtype)
    result = run(str(_project(tmp_path)), [x, gamma])
    assert result.ok, [str(d) for d in result.findings]
    y = result.outputs["y"]
    assert y.dtype == dtype
    np.testing.assert_allclose(y.astype(np.float32), _reference(x, gamma), rtol=tol, atol=tol)


def test_rms_norm_too_small_a_buffer_is_reported(tmp_path: Path) -> None:
    # the tiling planned 3 rows a pass in tmpBytes; a kernel giving RmsNorm less temporary space is caught
    project = _project(tmp_path)
    kernel = project / "op_kernel" / "rms_team.cpp"
    kernel.write_text(KERNEL.replace("pipe.InitBuffer(tmpBuf, tmpBytes);", "pipe.InitBuffer(tmpBuf, tmpBytes / 2);"),
                      encoding="utf-8")
    x = np.ones((8, 64), np.float32)
    result = run(str(project), [x, np.ones(64, np.float32)])
    assert not result.ok
    assert any("sharedTmpBuffer" in str(d) for d in result.findings), [str(d) for d in result.findings]
