"""SoftMax / LogSoftMax given SoftMaxShapeInfo{srcM, srcK, oriSrcM, oriSrcK} with oriSrcK < srcK: the library reduces
(max, sum) over the first oriSrcK columns of each row and subtracts, exponentiates and divides over all srcK
(asc-devkit softmax_impl.h / logsoftmax_common_impl.h), so a row's first oriSrcK results depend on its first oriSrcK
sources only, and the padding columns are written from the source's padding (exp(x - max) / sum). A kernel that
leaves the padding columns of the source unwritten (a DataCopyPad of oriSrcK elements a row, or TopK's k..k_pad, as
ops-transformer's moe_gating_top_k_softmax_v2 renorm path does) and copies out the first oriSrcK columns reads only
known bytes; before, one unknown padding column made the whole row unknown (ASC952 on the copy-out).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void sm_pad(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{{
    constexpr uint32_t ROWS = {rows};
    constexpr uint32_t COLS = {cols};
    constexpr uint32_t ORI = {ori};
    GlobalTensor<DT> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ DT *)x, ROWS * {gm_cols});
    yGm.SetGlobalBuffer((__gm__ DT *)y, ROWS * {gm_cols});
    TPipe pipe;
    TBuf<TPosition::VECCALC> srcBuf, dstBuf, sumBuf, maxBuf, expBuf, tmpBuf;
    pipe.InitBuffer(srcBuf, ROWS * COLS * sizeof(DT));
    pipe.InitBuffer(dstBuf, ROWS * COLS * sizeof(DT));
    pipe.InitBuffer(sumBuf, ROWS * 32);
    pipe.InitBuffer(maxBuf, ROWS * 32);
    pipe.InitBuffer(expBuf, ROWS * 32);
    pipe.InitBuffer(tmpBuf, 16384);
    LocalTensor<DT> src = srcBuf.Get<DT>();
    LocalTensor<DT> dst = dstBuf.Get<DT>();
    LocalTensor<DT> sumL = sumBuf.Get<DT>();
    LocalTensor<DT> maxL = maxBuf.Get<DT>();
    LocalTensor<DT> expL = expBuf.Get<DT>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    {copy_in}
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    {call}
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    {copy_out}
}}
"""
# oriSrcK elements (one 32-byte block) a row into rows of COLS (two blocks): the padding columns stay unwritten
PAD_IN = "DataCopy(src, xGm, DataCopyParams{ROWS, 1, 0, 1});"
PAD_OUT = "DataCopy(yGm, dst, DataCopyParams{ROWS, 1, 1, 0});"
SOFTMAX = ("SoftMaxTiling tl;\n    SoftMax<DT>(dst, sumL, maxL, src, tmp, tl, "
           "SoftMaxShapeInfo{ROWS, COLS, ROWS, ORI});")
LOG_SOFTMAX = ("LogSoftMaxTiling tl;\n    LogSoftMax<DT>(dst, sumL, maxL, src, tmp, tl, "
               "SoftMaxShapeInfo{ROWS, COLS, ROWS, ORI});")
# SimpleSoftMax from the max and sum SoftMax leaves; SoftmaxFlashV2's first step (isUpdate false): exp(x - max)
SIMPLE = ("SoftMaxTiling tl;\n    SoftMax<DT>(dst, sumL, maxL, src, tmp, tl, SoftMaxShapeInfo{ROWS, COLS, ROWS, ORI});\n"
          "    SimpleSoftMax<DT>(dst, sumL, maxL, src, tmp, tl, SoftMaxShapeInfo{ROWS, COLS, ROWS, ORI});")
FLASH_V2 = ("SoftMaxTiling tl;\n    SoftmaxFlashV2<DT, false>(dst, sumL, maxL, src, expL, sumL, maxL, tmp, tl, "
            "SoftMaxShapeInfo{ROWS, COLS, ROWS, ORI});")
ROWS = 4


def _simulate(tmp_path: Path, dtype: str, call: str, padded_in: bool) -> tuple[object, np.ndarray]:
    cols = 64 // np.dtype(dtype).itemsize  # two 32-byte blocks a row
    ori = cols // 2
    gm_cols = ori if padded_in else cols
    source = KERNEL.format(rows=ROWS, cols=cols, ori=ori, gm_cols=gm_cols, call=call,
                           copy_in=PAD_IN if padded_in else "DataCopy(src, xGm, ROWS * COLS);",
                           copy_out=PAD_OUT if padded_in else "DataCopy(yGm, dst, ROWS * COLS);")
    ctype = "half" if dtype == "float16" else "float"
    path = tmp_path / "sm_pad.cpp"
    path.write_text(source.replace("DT", ctype), encoding="utf-8")
    x = np.random.default_rng(11).uniform(-3, 3, (ROWS, gm_cols)).astype(dtype)
    result = run(str(path), {"x": x.reshape(-1)}, chip="910B2", block_dim=1,
                 outputs={"y": ((ROWS * gm_cols,), dtype)})
    return result, x


def _softmax(x: np.ndarray, ori: int, log: bool) -> np.ndarray:
    x = x.astype(np.float32)
    e = np.exp(x - x[:, :ori].max(axis=1, keepdims=True))
    p = e / e[:, :ori].sum(axis=1, keepdims=True)
    return np.log10(p) if log else p


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("log", [False, True])
def test_unwritten_padding_columns_leave_the_real_columns_known(tmp_path: Path, dtype: str, log: bool) -> None:
    result, x = _simulate(tmp_path, dtype, LOG_SOFTMAX if log else SOFTMAX, padded_in=True)
    assert not [f for f in result.findings if f.code == "ASC952"], [str(f) for f in result.findings]
    assert result.ok, [str(f) for f in result.findings]
    tol = 2e-3 if dtype == "float16" else 1e-6
    np.testing.assert_allclose(result.outputs["y"].reshape(ROWS, -1).astype(np.float32),
                               _softmax(x, x.shape[1], log), rtol=tol, atol=tol)


@pytest.mark.parametrize("log", [False, True])
def test_padding_columns_are_computed_from_the_source_padding(tmp_path: Path, log: bool) -> None:
    # a fully written source: every column comes out as exp(x - max) / sum with max and sum over the first oriSrcK
    result, x = _simulate(tmp_path, "float32", LOG_SOFTMAX if log else SOFTMAX, padded_in=False)
    assert result.ok, [str(f) for f in result.findings]
    np.testing.assert_allclose(result.outputs["y"].reshape(ROWS, -1), _softmax(x, x.shape[1] // 2, log),
                               rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("form", ["SimpleSoftMax", "SoftmaxFlashV2"])
def test_the_other_softmax_forms_keep_the_real_columns_known(tmp_path: Path, form: str) -> None:
    # before, SimpleSoftMax marked its whole result unknown for one unknown source element, SoftmaxFlashV2 too
    result, x = _simulate(tmp_path, "float32", SIMPLE if form == "SimpleSoftMax" else FLASH_V2, padded_in=True)
    assert not [f for f in result.findings if f.code == "ASC952"], [str(f) for f in result.findings]
    assert result.ok, [str(f) for f in result.findings]
    y = result.outputs["y"].reshape(ROWS, -1)
    if form == "SimpleSoftMax":
        expected = _softmax(x, x.shape[1], False)
    else:
        expected = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(y, expected, rtol=1e-6, atol=1e-7)
