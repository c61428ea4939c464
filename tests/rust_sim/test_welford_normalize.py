"""AscendC::WelfordUpdate, WelfordFinalize and Normalize on the simulator, each in a team-written op project against
numpy.
WelfordUpdate: every row of x folded into a running mean and M2 (the sum of squared deviations) per column, in and
out the same tensors as the vendor kernels call it, nRec = 1 / (row + 1); float and half x. Normalize: rows padded
to 32 bytes in UB (DataCopyPad), numpy's mean and variance given, rstd and the normalised rows out; float, half,
half x with float gamma/beta; its NormalizeConfig constant names an enumerator (ReducePattern::AR), and the kernel
brackets the work with AscendCUtils::SetOverflow(1) / (0) as asc-devkit's layernorm_v2 example does. Before these
were simulated the calls stopped the run (ASC958)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from passes.sim import run


_GE = {"fp16": "ge::DT_FLOAT16", "float": "ge::DT_FLOAT"}


def _param(kind: str, name: str, types: list[str]) -> str:
    formats = ", ".join(["ge::FORMAT_ND"] * len(types))
    return (f'        this->{kind}("{name}").ParamType(REQUIRED)\n'
            f'            .DataType({{{", ".join(_GE[t] for t in types)}}}).Format({{{formats}}});')


def _host(op: str, inputs: dict[str, list[str]], outputs: dict[str, list[str]], out_dims: list[int]) -> str:
    """A host with tiling rows and cols from input 0; output i is input 0's shape (dim -1) or its dim d alone."""
    params = "\n".join([_param("Input", n, t) for n, t in inputs.items()]
                       + [_param("Output", n, t) for n, t in outputs.items()])
    infer = "\n".join(
        f"    {{ gert::Shape *s = context->GetOutputShape({i}); s->SetDimNum(1); s->SetDim(0, x->GetDim({d})); }}"
        if d >= 0 else f"    *context->GetOutputShape({i}) = *x;" for i, d in enumerate(out_dims))
    return f"""
#include "{op.lower()}_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {{
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{{
    {op}TilingData tiling;
    const gert::Shape &shape = context->GetInputShape(0)->GetOriginShape();
    tiling.set_rows(static_cast<uint32_t>(shape.GetDim(0)));
    tiling.set_cols(static_cast<uint32_t>(shape.GetDim(1)));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(1);
    size_t *workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}}
}}
namespace ge {{
static graphStatus InferShape(gert::InferShapeContext *context)
{{
    const gert::Shape *x = context->GetInputShape(0);
{infer}
    return GRAPH_SUCCESS;
}}
}}
namespace ops {{
class {op} : public OpDef {{
public:
    explicit {op}(const char *name) : OpDef(name)
    {{
{params}
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }}
}};
OP_ADD({op});
}}
"""


WELFORD_KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
class KernelWelfordTeam {
public:
    __aicore__ inline KernelWelfordTeam() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR mean, GM_ADDR m2, uint32_t rows, uint32_t cols)
    {
        this->rows = rows;
        this->cols = cols;
        xGm.SetGlobalBuffer((__gm__ T *)x, rows * cols);
        meanGm.SetGlobalBuffer((__gm__ float *)mean, cols);
        m2Gm.SetGlobalBuffer((__gm__ float *)m2, cols);
        pipe.InitBuffer(inQueue, 1, cols * sizeof(T));
        pipe.InitBuffer(meanBuf, cols * sizeof(float));
        pipe.InitBuffer(m2Buf, cols * sizeof(float));
        pipe.InitBuffer(tmpBuf, TMP_BYTES);
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> meanLocal = meanBuf.Get<float>();
        LocalTensor<float> m2Local = m2Buf.Get<float>();
        LocalTensor<uint8_t> tmpLocal = tmpBuf.Get<uint8_t>();
        Duplicate(meanLocal, 0.0f, cols);
        Duplicate(m2Local, 0.0f, cols);
        for (uint32_t row = 0; row < rows; ++row) {
            LocalTensor<T> xLocal = inQueue.AllocTensor<T>();
            DataCopy(xLocal, xGm[row * cols], cols);
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<T>();
            WelfordUpdateParam para{1, cols, cols, 1.0f / static_cast<float>(row + 1)};
            WelfordUpdate<T, float, false>(meanLocal, m2Local, meanLocal, m2Local, xLocal, tmpLocal, para);
            inQueue.FreeTensor(xLocal);
        }
        PipeBarrier<PIPE_ALL>();
        DataCopy(meanGm, meanLocal, cols);
        DataCopy(m2Gm, m2Local, cols);
    }
private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TBuf<TPosition::VECCALC> meanBuf;
    TBuf<TPosition::VECCALC> m2Buf;
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<T> xGm;
    GlobalTensor<float> meanGm;
    GlobalTensor<float> m2Gm;
    uint32_t rows = 0;
    uint32_t cols = 0;
};

extern "C" __global__ __aicore__ void welford_team(GM_ADDR x, GM_ADDR mean, GM_ADDR m2, GM_ADDR workspace,
                                                   GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelWelfordTeam<DTYPE_X> op;
    op.Init(x, mean, m2, tilingData.rows, tilingData.cols);
    op.Process();
}
"""

FINALIZE_KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

class KernelFinTeam {
public:
    __aicore__ inline KernelFinTeam() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR mean, GM_ADDR variance, uint32_t rows, uint32_t cols)
    {
        this->rows = rows;
        this->cols = cols;
        xGm.SetGlobalBuffer((__gm__ float *)x, rows * cols);
        meanGm.SetGlobalBuffer((__gm__ float *)mean, 8);
        varGm.SetGlobalBuffer((__gm__ float *)variance, 8);
        pipe.InitBuffer(inQueue, 1, cols * sizeof(float));
        pipe.InitBuffer(meanBuf, cols * sizeof(float));
        pipe.InitBuffer(m2Buf, cols * sizeof(float));
        pipe.InitBuffer(countBuf, cols * sizeof(int32_t));
        pipe.InitBuffer(outMeanBuf, 32);
        pipe.InitBuffer(outVarBuf, 32);
        pipe.InitBuffer(tmpBuf, 1024);
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> meanLocal = meanBuf.Get<float>();
        LocalTensor<float> m2Local = m2Buf.Get<float>();
        LocalTensor<uint8_t> tmpLocal = tmpBuf.Get<uint8_t>();
        Duplicate(meanLocal, 0.0f, cols);
        Duplicate(m2Local, 0.0f, cols);
        for (uint32_t row = 0; row < rows; ++row) {
            LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
            DataCopy(xLocal, xGm[row * cols], cols);
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<float>();
            WelfordUpdateParam para{1, cols, cols, 1.0f / static_cast<float>(row + 1)};
            WelfordUpdate<float, float, false>(meanLocal, m2Local, meanLocal, m2Local, xLocal, tmpLocal, para);
            inQueue.FreeTensor(xLocal);
        }
        LocalTensor<float> outMean = outMeanBuf.Get<float>();
        LocalTensor<float> outVar = outVarBuf.Get<float>();
        const float n = static_cast<float>(rows * cols);
        WelfordFinalizePara fin{rows, cols, rows, cols, 0, 0, 1.0f / static_cast<float>(cols), 1.0f / n,
                                1.0f / (n - 1.0f)};
        COUNTS_CALL
        PipeBarrier<PIPE_ALL>();
        DataCopy(meanGm, outMean, 8);
        DataCopy(varGm, outVar, 8);
    }
private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TBuf<TPosition::VECCALC> meanBuf;
    TBuf<TPosition::VECCALC> m2Buf;
    TBuf<TPosition::VECCALC> countBuf;
    TBuf<TPosition::VECCALC> outMeanBuf;
    TBuf<TPosition::VECCALC> outVarBuf;
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> meanGm;
    GlobalTensor<float> varGm;
    uint32_t rows = 0;
    uint32_t cols = 0;
};

extern "C" __global__ __aicore__ void fin_team(GM_ADDR x, GM_ADDR mean, GM_ADDR variance, GM_ADDR workspace,
                                               GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelFinTeam op;
    op.Init(x, mean, variance, tilingData.rows, tilingData.cols);
    op.Process();
}
"""

_PLAIN_FINALIZE = "WelfordFinalize<false>(outMean, outVar, meanLocal, m2Local, tmpLocal, fin);"
_COUNTS_FINALIZE = """LocalTensor<int32_t> counts = countBuf.Get<int32_t>();
        Duplicate(counts, static_cast<int32_t>(rows), cols);
        PipeBarrier<PIPE_V>();
        WelfordFinalize<true>(outMean, outVar, meanLocal, m2Local, counts, tmpLocal, fin);"""


NORMALIZE_KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
// the layernorm_v2 example's spelling: an enumerator field (reducePattern) in the constexpr config
static constexpr NormalizeConfig kNormCfg = NormalizeConfig{ReducePattern::AR, -1, false, false, false};

template <typename T, typename U>
class KernelNormTeam {
public:
    __aicore__ inline KernelNormTeam() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR mean, GM_ADDR variance, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                GM_ADDR rstd, uint32_t rows, uint32_t cols)
    {
        this->rows = rows;
        this->cols = cols;
        colsPad = (cols * sizeof(T) + 31) / 32 * 32 / sizeof(T);
        xGm.SetGlobalBuffer((__gm__ T *)x, rows * cols);
        meanGm.SetGlobalBuffer((__gm__ float *)mean, rows);
        varGm.SetGlobalBuffer((__gm__ float *)variance, rows);
        gammaGm.SetGlobalBuffer((__gm__ U *)gamma, cols);
        betaGm.SetGlobalBuffer((__gm__ U *)beta, cols);
        yGm.SetGlobalBuffer((__gm__ T *)y, rows * cols);
        rstdGm.SetGlobalBuffer((__gm__ float *)rstd, rows);
        pipe.InitBuffer(xBuf, rows * colsPad * sizeof(T));
        pipe.InitBuffer(yBuf, rows * colsPad * sizeof(T));
        pipe.InitBuffer(meanBuf, 64);
        pipe.InitBuffer(varBuf, 64);
        pipe.InitBuffer(rstdBuf, 64);
        pipe.InitBuffer(gammaBuf, colsPad * sizeof(U) + 32);
        pipe.InitBuffer(betaBuf, colsPad * sizeof(U) + 32);
        pipe.InitBuffer(tmpBuf, TMP_BYTES);
    }
    __aicore__ inline void Process()
    {
        AscendCUtils::SetOverflow(1);  // the INF/NaN mode, the default: nothing changes
        LocalTensor<T> xLocal = xBuf.Get<T>();
        LocalTensor<T> yLocal = yBuf.Get<T>();
        LocalTensor<float> meanLocal = meanBuf.Get<float>();
        LocalTensor<float> varLocal = varBuf.Get<float>();
        LocalTensor<float> rstdLocal = rstdBuf.Get<float>();
        LocalTensor<U> gammaLocal = gammaBuf.Get<U>();
        LocalTensor<U> betaLocal = betaBuf.Get<U>();
        LocalTensor<uint8_t> tmpLocal = tmpBuf.Get<uint8_t>();
        DataCopyExtParams block{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> noPad{false, 0, 0, 0};
        DataCopyPad(xLocal, xGm, block, noPad);
        DataCopyExtParams stat{1, static_cast<uint32_t>(rows * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> noPadF{false, 0, 0, 0};
        DataCopyPad(meanLocal, meanGm, stat, noPadF);
        DataCopyPad(varLocal, varGm, stat, noPadF);
        DataCopyExtParams vec{1, static_cast<uint32_t>(cols * sizeof(U)), 0, 0, 0};
        DataCopyPadExtParams<U> noPadU{false, 0, 0, 0};
        DataCopyPad(gammaLocal, gammaGm, vec, noPadU);
        DataCopyPad(betaLocal, betaGm, vec, noPadU);
        PipeBarrier<PIPE_ALL>();
        NormalizePara para{rows, cols, colsPad};
        Normalize<U, T, false, kNormCfg>(yLocal, rstdLocal, meanLocal, varLocal, xLocal, gammaLocal, betaLocal,
                                         tmpLocal, 0.0001f, para);
        PipeBarrier<PIPE_ALL>();
        DataCopyPad(yGm, yLocal, block);
        DataCopyPad(rstdGm, rstdLocal, stat);
        AscendCUtils::SetOverflow(0);  // saturation: not modelled, a warning
    }
private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf;
    TBuf<TPosition::VECCALC> yBuf;
    TBuf<TPosition::VECCALC> meanBuf;
    TBuf<TPosition::VECCALC> varBuf;
    TBuf<TPosition::VECCALC> rstdBuf;
    TBuf<TPosition::VECCALC> gammaBuf;
    TBuf<TPosition::VECCALC> betaBuf;
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<T> xGm;
    GlobalTensor<float> meanGm;
    GlobalTensor<float> varGm;
    GlobalTensor<U> gammaGm;
    GlobalTensor<U> betaGm;
    GlobalTensor<T> yGm;
    GlobalTensor<float> rstdGm;
    uint32_t rows = 0;
    uint32_t cols = 0;
    uint32_t colsPad = 0;
};

extern "C" __global__ __aicore__ void norm_team(GM_ADDR x, GM_ADDR mean, GM_ADDR variance, GM_ADDR gamma,
                                                GM_ADDR beta, GM_ADDR y, GM_ADDR rstd, GM_ADDR workspace,
                                                GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelNormTeam<DTYPE_X, DTYPE_GAMMA> op;
    op.Init(x, mean, variance, gamma, beta, y, rstd, tilingData.rows, tilingData.cols);
    op.Process();
}
"""


def _tiling_h(op: str) -> str:
    return f"""
#include "register/tilingdata_base.h"
namespace optiling {{
BEGIN_TILING_DATA_DEF({op}TilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rows);
    TILING_DATA_FIELD_DEF(uint32_t, cols);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS({op}, {op}TilingData)
}}
"""


def _desc(name: str, types: list[str]) -> dict:
    return {"name": name, "param_type": "required", "format": ["ND"] * len(types), "type": types}


def _project(root: Path, name: str, op: str, inputs: dict[str, list[str]], outputs: dict[str, list[str]],
             out_dims: list[int], kernel: str) -> Path:
    project = root / name
    (project / "op_host").mkdir(parents=True)
    (project / "op_kernel").mkdir()
    spec = [{"op": op, "language": "cpp", "input_desc": [_desc(n, t) for n, t in inputs.items()],
             "output_desc": [_desc(n, t) for n, t in outputs.items()]}]
    (project / f"{name}.json").write_text(json.dumps(spec), encoding="utf-8")
    host = _host(op, inputs, outputs, out_dims)
    (project / "op_host" / f"{op.lower()}_tiling.h").write_text(_tiling_h(op), encoding="utf-8")
    (project / "op_host" / f"{name}.cpp").write_text(host, encoding="utf-8")
    (project / "op_kernel" / f"{name}.cpp").write_text(kernel, encoding="utf-8")
    return project


def _welford(root: Path, tmp_bytes: int) -> Path:
    return _project(root, "welford_team", "WelfordTeam", {"x": ["fp16", "float"]},
                    {"mean": ["float", "float"], "m2": ["float", "float"]}, [1, 1],
                    WELFORD_KERNEL.replace("TMP_BYTES", str(tmp_bytes)))


@pytest.mark.parametrize(("shape", "dtype"), [((7, 64), np.float32), ((5, 48), np.float16)])
def test_welford_update_matches_numpy(tmp_path: Path, shape: tuple[int, int], dtype: type) -> None:
    rng = np.random.default_rng(sum(shape))
    x = rng.uniform(-3, 3, shape).astype(dtype)
    result = run(str(_welford(tmp_path, 1024)), [x])
    assert result.ok, [str(d) for d in result.findings]
    x32 = x.astype(np.float32)
    mean = x32.mean(axis=0)
    np.testing.assert_allclose(result.outputs["mean"], mean, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(result.outputs["m2"], ((x32 - mean) ** 2).sum(axis=0), rtol=1e-5, atol=1e-4)


def test_welford_update_too_small_a_buffer_is_reported(tmp_path: Path) -> None:
    # float x without reuse needs two 256-byte repeats of scratch
    result = run(str(_welford(tmp_path, 256)), [np.ones((2, 64), np.float32)])
    assert not result.ok
    assert any("sharedTmpBuffer" in str(d) and "ASC959" in str(d) for d in result.findings), \
        [str(d) for d in result.findings]


@pytest.mark.parametrize(("shape", "dtype", "gdtype", "tol"), [
    ((5, 40), np.float32, np.float32, 1e-5), ((6, 20), np.float32, np.float32, 1e-5),
    ((4, 30), np.float16, np.float16, 2e-3), ((3, 64), np.float16, np.float32, 2e-3)])
def test_normalize_matches_numpy(tmp_path: Path, shape: tuple[int, int], dtype: type, gdtype: type,
                                 tol: float) -> None:
    rng = np.random.default_rng(sum(shape))
    x = rng.uniform(-3, 3, shape).astype(dtype)
    x32 = x.astype(np.float32)
    mean = x32.mean(axis=1)
    var = x32.var(axis=1).astype(np.float32)
    gamma = rng.uniform(0.5, 1.5, shape[1]).astype(gdtype)
    beta = rng.uniform(-1, 1, shape[1]).astype(gdtype)
    item = np.dtype(dtype).itemsize
    pad = -(-shape[1] * item // 32) * 32 // item  # rLengthWithPadding: the row padded to 32 bytes
    project = _project(tmp_path, "norm_team", "NormTeam",
                       {"x": ["fp16", "float", "fp16"], "mean": ["float"] * 3, "variance": ["float"] * 3,
                        "gamma": ["fp16", "float", "float"], "beta": ["fp16", "float", "float"]},
                       {"y": ["fp16", "float", "fp16"], "rstd": ["float"] * 3}, [-1, 0],
                       NORMALIZE_KERNEL.replace("TMP_BYTES", str(4 * pad * 4 + 64)))
    result = run(str(project), [x, mean, var, gamma, beta])
    assert result.ok, [str(d) for d in result.findings]
    # SetOverflow(1) runs as the default mode; SetOverflow(0) is reported, not stopped at (before: ASC958 errors)
    assert [str(d.message).split(" selects")[0] for d in result.findings] == ["SetOverflow(0)"]
    rstd = 1 / np.sqrt(var + np.float32(1e-4))
    np.testing.assert_allclose(result.outputs["rstd"], rstd, rtol=1e-5, atol=1e-5)
    want = (x32 - mean[:, None]) * rstd[:, None] * gamma.astype(np.float32) + beta.astype(np.float32)
    np.testing.assert_allclose(result.outputs["y"].astype(np.float32), want, rtol=tol, atol=tol)


@pytest.mark.parametrize("with_counts", [False, True])
def test_welford_finalize_matches_numpy(tmp_path: Path, with_counts: bool) -> None:
    # 5 rows of 192 columns: WelfordUpdate's column states, then one mean and variance of all 960 values; the
    # 1,024-byte buffer gives the library chunks of 64 columns (three chunk sums, then their tree)
    rng = np.random.default_rng(11)
    x = rng.uniform(-3, 3, (5, 192)).astype(np.float32)
    kernel = FINALIZE_KERNEL.replace("COUNTS_CALL", _COUNTS_FINALIZE if with_counts else _PLAIN_FINALIZE)
    project = _project(tmp_path, "fin_team", "FinTeam", {"x": ["float"]},
                       {"mean": ["float"], "variance": ["float"]}, [1, 1], kernel)
    result = run(str(project), [x], outputs={"mean": np.zeros(8, np.float32), "variance": np.zeros(8, np.float32)})
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_allclose(result.outputs["mean"][0], x.mean(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(result.outputs["variance"][0], x.var(), rtol=1e-5, atol=1e-6)
    assert not result.outputs["mean"][1:].any() and not result.outputs["variance"][1:].any()
