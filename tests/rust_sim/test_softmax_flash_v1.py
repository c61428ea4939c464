"""AscendC::SoftmaxFlash (the deprecated first form of SoftmaxFlashV2, which ops-transformer's arch32
prompt_flash_attention calls as `SoftmaxFlash<T, true[, true]>(mmResUb, sum, max, mmResUb, exp, sum, max, tiling,
true, shapeInfo)`), against numpy. asc-devkit's 220x implementation (softmax_flash_nd_process_impl.h), per row in
float: isUpdate false is plain SoftMax (dst = exp(x - m) / s; expMax not written); isUpdate true, with the running
inMax / inSum: M = max(inMax, m), a = exp(m - M), b = exp(inMax - M), S = b inSum + a s, expMax = b inSum / S,
dst = exp(x - m) a / S. isUpdate is a run-time argument. Statistics fill one 32-byte block per row. Before, the
simulator did not model SoftmaxFlash (ASC958)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void flash1(GM_ADDR x, GM_ADDR y, GM_ADDR sum, GM_ADDR max, GM_ADDR expmax,
                                             GM_ADDR workspace, GM_ADDR tiling)
{{
    GET_TILING_DATA(td, tiling);
    uint32_t n = td.rows * td.cols;
    uint32_t statN = td.rows * (32 / sizeof({s}));
    uint32_t expN = td.rows * (32 / sizeof({t}));
    GlobalTensor<{t}> xGm, yGm, emGm;
    GlobalTensor<{s}> sumGm, maxGm;
    xGm.SetGlobalBuffer((__gm__ {t} *)x, td.blocks * n);
    yGm.SetGlobalBuffer((__gm__ {t} *)y, td.blocks * n);
    sumGm.SetGlobalBuffer((__gm__ {s} *)sum, statN);
    maxGm.SetGlobalBuffer((__gm__ {s} *)max, statN);
    emGm.SetGlobalBuffer((__gm__ {t} *)expmax, td.blocks * expN);
    TPipe pipe;
    TBuf<TPosition::VECCALC> srcBuf, sumBuf, maxBuf, expBuf, tmpBuf;
    pipe.InitBuffer(srcBuf, n * sizeof({t}));
    pipe.InitBuffer(sumBuf, td.rows * 32);
    pipe.InitBuffer(maxBuf, td.rows * 32);
    pipe.InitBuffer(expBuf, td.rows * 32);
    pipe.InitBuffer(tmpBuf, 32 * 1024);
    LocalTensor<{t}> src = srcBuf.Get<{t}>();
    LocalTensor<{s}> sumUb = sumBuf.Get<{s}>();
    LocalTensor<{s}> maxUb = maxBuf.Get<{s}>();
    LocalTensor<{t}> expUb = expBuf.Get<{t}>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    SoftMaxTiling tl;
    SoftMaxShapeInfo info = {{td.rows, td.cols, td.rows, td.oriCols}};
    for (uint32_t blk = 0; blk < td.blocks; blk++) {{
        DataCopy(src, xGm[blk * n], n);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        {call}
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
        DataCopy(yGm[blk * n], src, n);
        if (blk != 0) {{
            DataCopy(emGm[blk * expN], expUb, expN);
        }}
        SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
    }}
    DataCopy(sumGm, sumUb, statN);
    DataCopy(maxGm, maxUb, statN);
}}
"""

# prompt_flash_attention's form: the same tensors as dst and src and as the running sum / max in and out
PFA = "SoftmaxFlash<{t}, true{basic}>(src, sumUb, maxUb, src, expUb, sumUb, maxUb, tl, blk != 0, info);"
# with a sharedTmpBuffer
TMP = "SoftmaxFlash<{t}>(src, sumUb, maxUb, src, expUb, sumUb, maxUb, tmp, tl, blk != 0, info);"

NP = {"float": np.float32, "half": np.float16}


def reference(x: np.ndarray, ori: int, stat: type) -> tuple[list[np.ndarray], np.ndarray, np.ndarray, list]:
    """The library's formulas in float, each stored result rounded to its tensor's type (the statistics read back
    rounded by the next block)."""
    t = x.dtype.type
    ys, ems = [], []
    m_run = s_run = None
    for block in x.astype(np.float32):
        m = block[:, :ori].max(axis=1)
        e = np.exp(block - m[:, None])
        s = e[:, :ori].sum(axis=1)
        if m_run is None:
            big, total, y = m, s, e / s[:, None]
            ems.append(None)
        else:
            big = np.maximum(m_run, m)
            a, b = np.exp(m - big), np.exp(m_run - big)
            kept = b * s_run
            total = kept + a * s
            y = e * (a / total)[:, None]
            ems.append((kept / total).astype(t))
        m_run = big.astype(stat).astype(np.float32)
        s_run = total.astype(stat).astype(np.float32)
        ys.append(y.astype(t))
    return ys, m_run, s_run, ems


@pytest.mark.parametrize(("t", "s", "rows", "cols", "ori", "form", "basic"), [
    ("float", "float", 5, 16, 13, PFA, False),
    ("half", "half", 3, 32, 32, PFA, False),
    ("half", "float", 8, 64, 64, PFA, True),
    ("float", "float", 2, 24, 24, TMP, False),
])
def test_softmax_flash_against_numpy(tmp_path: Path, t: str, s: str, rows: int, cols: int, ori: int, form: str,
                                     basic: bool) -> None:
    blocks = 3
    src = tmp_path / "flash1.cpp"
    call = form.format(t=t, basic=", true" if basic else "")
    src.write_text(KERNEL.format(t=t, s=s, call=call), encoding="utf-8")
    dt, st = NP[t], NP[s]
    x = np.random.default_rng(5).uniform(-3, 3, (blocks, rows, cols)).astype(dt)
    per_s, per_t = 32 // np.dtype(st).itemsize, 32 // np.dtype(dt).itemsize
    result = run(str(src), {"x": x.reshape(-1)}, block_dim=1,
                 tiling={"rows": rows, "cols": cols, "oriCols": ori, "blocks": blocks},
                 outputs={"y": ((blocks * rows * cols,), np.dtype(dt).name),
                          "sum": ((rows * per_s,), np.dtype(st).name), "max": ((rows * per_s,), np.dtype(st).name),
                          "expmax": ((blocks * rows * per_t,), np.dtype(dt).name)})
    errors = [f for f in result.findings if f.severity.name == "ERROR" and f.code != "ASC961"]
    assert errors == [], errors
    ys, m, sm, ems = reference(x, ori, st)
    tol = 2e-3 if t == "half" else 2e-6
    y = result.outputs["y"].reshape(blocks, rows, cols).astype(np.float32)
    for b in range(blocks):
        np.testing.assert_allclose(y[b], ys[b].astype(np.float32), rtol=tol, atol=tol)
    em = result.outputs["expmax"].reshape(blocks, rows, per_t).astype(np.float32)
    for b in range(1, blocks):
        np.testing.assert_allclose(em[b], np.repeat(ems[b][:, None], per_t, axis=1).astype(np.float32),
                                   rtol=tol, atol=tol)
    stol = 2e-3 if s == "half" else 2e-6
    np.testing.assert_allclose(result.outputs["max"].reshape(rows, per_s), np.repeat(m[:, None], per_s, axis=1),
                               rtol=stol, atol=stol)
    np.testing.assert_allclose(result.outputs["sum"].reshape(rows, per_s), np.repeat(sm[:, None], per_s, axis=1),
                               rtol=stol)


def test_a_call_without_any_shape_is_reported(tmp_path: Path) -> None:
    """No SoftMaxShapeInfo, a default tiling and no ShapeInfo on the source: nothing says the shape (the library
    would read the tensor's empty ShapeInfo); the finding names SoftmaxFlash's own tiling function."""
    src = tmp_path / "flash1.cpp"
    call = "SoftmaxFlash<float>(src, sumUb, maxUb, src, expUb, sumUb, maxUb, tl);"
    src.write_text(KERNEL.format(t="float", s="float", call=call), encoding="utf-8")
    x = np.ones(32, np.float32)
    result = run(str(src), {"x": x}, block_dim=1, tiling={"rows": 2, "cols": 16, "oriCols": 16, "blocks": 1},
                 outputs={"y": ((32,), "float32"), "sum": ((16,), "float32"), "max": ((16,), "float32"),
                          "expmax": ((16,), "float32")})
    found = [f for f in result.findings if f.code == "ASC958"]
    assert found and "SoftmaxFlash without its shape" in found[0].message
    assert "SoftMaxFlashTilingFunc" in found[0].message and "V2" not in found[0].message
