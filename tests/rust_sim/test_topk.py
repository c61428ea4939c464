"""AscendC::TopK (Normal mode) on the A2/A3 parts, by its API page: per row of topKInfo.inner elements, the k largest
(or, isLargest false, smallest) values and their indices, equal values by position (the library's Sort32 + MrgSort
order); outputs k_pad long per row (k rounded up to 32 bytes); isInitIndex takes the indices from srcIndexLocal (one
row, shared); isHasfinish puts index n in the rows finishLocal marks. Before, TopK was ASC958 (11 vendor op_kernel
files call it). The expectation is numpy's stable argsort.
"""

from __future__ import annotations

import numpy as np
import pytest

from passes.sim import run

TOPK = """
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t ROWS = RR;
constexpr int32_t INNER = II;
constexpr int32_t N = NN;
constexpr int32_t K = KK;
constexpr int32_t KPAD_V = (K * sizeof(DT) + 31) / 32 * 32 / sizeof(DT);
constexpr int32_t KPAD_I = (K + 7) / 8 * 8;

extern "C" __global__ __aicore__ void topk(GM_ADDR x, GM_ADDR idxIn, GM_ADDR fin, GM_ADDR y, GM_ADDR idx,
                                           GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, idxInBuf, finBuf, yBuf, idxBuf, tmpBuf;
    pipe.InitBuffer(xBuf, ROWS * INNER * sizeof(DT));
    pipe.InitBuffer(idxInBuf, IDXN * sizeof(int32_t));
    pipe.InitBuffer(finBuf, 32);
    pipe.InitBuffer(yBuf, ROWS * KPAD_V * sizeof(DT));
    pipe.InitBuffer(idxBuf, ROWS * KPAD_I * sizeof(int32_t));
    pipe.InitBuffer(tmpBuf, TMPBYTES);
    GlobalTensor<DT> xGm, yGm;
    GlobalTensor<int32_t> idxInGm, idxGm;
    GlobalTensor<uint8_t> finGm;
    xGm.SetGlobalBuffer((__gm__ DT *)x, ROWS * INNER);
    idxInGm.SetGlobalBuffer((__gm__ int32_t *)idxIn, IDXN);
    finGm.SetGlobalBuffer((__gm__ uint8_t *)fin, 32);
    yGm.SetGlobalBuffer((__gm__ DT *)y, ROWS * KPAD_V);
    idxGm.SetGlobalBuffer((__gm__ int32_t *)idx, ROWS * KPAD_I);
    LocalTensor<DT> xLocal = xBuf.Get<DT>();
    LocalTensor<int32_t> idxInLocal = idxInBuf.Get<int32_t>();
    LocalTensor<uint8_t> finLocal = finBuf.Get<uint8_t>();
    LocalTensor<DT> yLocal = yBuf.Get<DT>();
    LocalTensor<int32_t> idxLocal = idxBuf.Get<int32_t>();
    DataCopy(xLocal, xGm, ROWS * INNER);
    DataCopy(idxInLocal, idxInGm, IDXN);
    DataCopy(finLocal, finGm, 32);
    Duplicate(yLocal, (DT)0, ROWS * KPAD_V);
    Duplicate(idxLocal, (int32_t)-1, ROWS * KPAD_I);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    TopkTiling topkTiling;
    TopKInfo info;
    info.outter = ROWS;
    info.inner = INNER;
    info.n = N;
    TopK<DT, INIT, FINISH, false, TopKMode::MODE>(yLocal, idxLocal, xLocal, idxInLocal,
        finLocal.ReinterpretCast<bool>(), tmpBuf.Get<uint8_t>(), K, topkTiling, info, LARGEST);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, yLocal, ROWS * KPAD_V);
    DataCopy(idxGm, idxLocal, ROWS * KPAD_I);
}
"""


def _run(x: np.ndarray, n: int, k: int, largest: bool, init: bool, finish: np.ndarray | None,
         index: np.ndarray | None = None, tmp_bytes: int | None = None,
         small: bool = False, plain: bool = False) -> tuple[object, int, int]:
    rows, inner = x.shape
    ctype = "half" if x.dtype == np.float16 else "float"
    source = (TOPK.replace("RR", str(rows)).replace("II", str(inner)).replace("NN", str(n)).replace("KK", str(k))
              .replace("DT", ctype).replace("INIT", "true" if init else "false")
              .replace("FINISH", "true" if finish is not None else "false")
              .replace("LARGEST", "true" if largest else "false")
              .replace("TMPBYTES", str(tmp_bytes if tmp_bytes is not None else 64 * inner * (rows if small else 1)))
              .replace("MODE", "TOPK_NSMALL" if small else "TOPK_NORMAL"))
    fin = np.zeros(32, np.uint8)
    if finish is not None:
        fin[:rows] = finish
    index = np.arange(inner, dtype=np.int32) if index is None else index
    source = source.replace("IDXN", str(index.size))
    if plain:  # the overload without tmpLocal: the library takes the UB after the TPipe's buffers
        source = source.replace("tmpBuf.Get<uint8_t>(), ", "")
    kv = -(-k * x.itemsize // 32) * 32 // x.itemsize
    ki = -(-k // 8) * 8
    result = run(source, {"x": x, "idxIn": index, "fin": fin}, chip="910B2", block_dim=1,
                 outputs={"y": ((rows * kv,), str(x.dtype)), "idx": ((rows * ki,), "int32")})
    return result, kv, ki


def _errors(result: object) -> list[object]:
    return [f for f in result.findings if f.severity.name == "ERROR"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("largest", [True, False])
def test_topk_matches_a_stable_argsort(dtype: str, largest: bool) -> None:
    rows, inner, n, k = 4, 64, 61, 5
    rng = np.random.default_rng(3)
    x = (rng.integers(-8, 8, (rows, inner)) / 4).astype(dtype)  # many ties
    x[:, n:] = -np.inf if largest else np.inf  # the caller's padding past n
    result, kv, ki = _run(x, n, k, largest, init=False, finish=None)
    assert _errors(result) == [], result.findings
    key = -x.astype(np.float32) if largest else x.astype(np.float32)
    order = np.argsort(key, axis=1, kind="stable")[:, :k]
    y = result.outputs["y"].reshape(rows, kv)
    idx = result.outputs["idx"].reshape(rows, ki)
    np.testing.assert_array_equal(idx[:, :k], order)
    np.testing.assert_array_equal(y[:, :k], np.take_along_axis(x, order, 1))
    assert (idx[:, k:] == -1).all()  # past k: left as it was


def test_given_indices_and_finished_rows() -> None:
    rows, inner, n, k = 3, 32, 32, 4
    x = np.random.default_rng(5).standard_normal((rows, inner)).astype(np.float32)
    index = (1000 + 7 * np.arange(inner)).astype(np.int32)
    result, kv, ki = _run(x, n, k, True, init=True, finish=np.array([0, 1, 0], np.uint8), index=index)
    assert _errors(result) == [], result.findings
    order = np.argsort(-x, axis=1, kind="stable")[:, :k]
    idx = result.outputs["idx"].reshape(rows, ki)[:, :k]
    np.testing.assert_array_equal(idx[[0, 2]], index[order[[0, 2]]])
    np.testing.assert_array_equal(idx[1], np.full(k, n))  # the finished row: index n
    y = result.outputs["y"].reshape(rows, kv)[:, :k]
    np.testing.assert_array_equal(y, np.take_along_axis(x, order, 1))  # values as usual


def test_k_past_n_is_reported() -> None:
    x = np.zeros((1, 32), np.float32)
    result, _, _ = _run(x, 8, 9, True, init=False, finish=None)
    assert any(f.code == "ASC959" and "k is 9" in f.message for f in _errors(result)), result.findings


@pytest.mark.parametrize("init", [True, False])
def test_a_tmp_buffer_below_the_minimum_is_reported(init: bool) -> None:
    # GetTopKMaxMinTmpSize on 220x: 16 bytes an inner element, 20 when the library generates the index row
    # (isInitIndex false); one 32-byte block less than that is ASC959, exactly that runs clean
    x = np.random.default_rng(9).standard_normal((2, 64)).astype(np.float32)
    need = 64 * (16 if init else 20)
    short, _, _ = _run(x, 64, 4, True, init=init, finish=None, tmp_bytes=need - 32)
    assert any(f.code == "ASC959" and "tmpLocal" in f.message and str(need) in f.message
               for f in _errors(short)), short.findings
    enough, _, _ = _run(x, 64, 4, True, init=init, finish=None, tmp_bytes=need)
    assert _errors(enough) == [], enough.findings


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("init", [False, True])
def test_small_mode_packs_k_a_row(dtype: str, largest: bool, init: bool) -> None:
    # TOPK_NSMALL: rows of exactly 32, each sorted whole; the outputs packed, row r's k at r * k; with isInitIndex
    # one index row per row (srcIndexLocal[r * 32 + position])
    rows, inner, k = 4, 32, 5
    rng = np.random.default_rng(13)
    x = (rng.integers(-6, 6, (rows, inner)) / 2).astype(dtype)  # ties
    index = (100 * np.arange(rows)[:, None] + 3 * np.arange(inner)).astype(np.int32).reshape(-1) if init else None
    result, _, _ = _run(x, inner, k, largest, init=init, finish=None, index=index, small=True)
    assert _errors(result) == [], result.findings
    key = -x.astype(np.float32) if largest else x.astype(np.float32)
    order = np.argsort(key, axis=1, kind="stable")[:, :k]
    y = result.outputs["y"][:rows * k].reshape(rows, k)
    idx = result.outputs["idx"][:rows * k].reshape(rows, k)
    np.testing.assert_array_equal(y, np.take_along_axis(x, order, 1))
    expected = np.take_along_axis(index.reshape(rows, inner), order, 1) if init else order
    np.testing.assert_array_equal(idx, expected)
    assert (result.outputs["idx"][rows * k:] == -1).all()  # past the packed rows: left as it was


def test_small_mode_misuse_is_reported() -> None:
    x = np.zeros((2, 64), np.float32)  # inner 64: Small mode takes exactly 32
    result, _, _ = _run(x, 64, 4, True, init=False, finish=None, small=True)
    assert any(f.code == "ASC959" and "exactly 32" in f.message for f in _errors(result)), result.findings


@pytest.mark.parametrize("left", [512, 4096])
def test_without_tmp_local_the_ub_left_must_hold_the_minimum(left: int) -> None:
    # the plain overload: 2 rows of 64 floats need 64 * 20 = 1,280 bytes (isInitIndex false) after the TPipe's
    # buffers; the kernel's other buffers take 512 + 256 + 32 + 64 + 64 = 928 bytes, tmpBuf (unused) the rest of the
    # 192 KiB UB but `left` bytes
    x = np.random.default_rng(4).standard_normal((2, 64)).astype(np.float32)
    result, _, _ = _run(x, 64, 4, True, init=False, finish=None, tmp_bytes=196608 - 928 - left, plain=True)
    if left < 64 * 20:
        assert any(f.code == "ASC951" and "1280 bytes" in f.message for f in _errors(result)), result.findings
    else:
        assert _errors(result) == [], result.findings
