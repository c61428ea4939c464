"""The (score, index) sorts of the A2/A3 parts (arch 2201), by their API pages: Sort32 sorts 32 pairs per repeat
(largest first, equal scores by position), MrgSort merges up to four sorted lists (equal scores from the earlier
list; ifExhaustedSuspension stops at the first list used up and reports the counts taken), Sort<T, isFullSort> sorts
all repeats, Concat hands Sort its scores, Extract splits the pairs again. Before, none was simulated on 910B (ASC958).
The expectation is numpy's stable descending argsort: np.argsort(-x, kind="stable").
"""

from __future__ import annotations

import numpy as np
import pytest

from ascendir.sim import run

# Sort32 on N scores (N / 32 groups), then rounds of 4-list MrgSort into one list of N; N = 128 or 32 * 4 ** k
SORT32_MERGE = """
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t N = NN;

extern "C" __global__ __aicore__ void sort_merge(GM_ADDR x, GM_ADDR y, GM_ADDR idx, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> xQueue;
    TQue<TPosition::VECOUT, 1> yQueue, idxQueue;
    TBuf<TPosition::VECCALC> indexBuf, pingBuf, pongBuf;
    pipe.InitBuffer(xQueue, 1, N * sizeof(T));
    pipe.InitBuffer(yQueue, 1, N * sizeof(T));
    pipe.InitBuffer(idxQueue, 1, N * sizeof(uint32_t));
    pipe.InitBuffer(indexBuf, N * sizeof(uint32_t));
    pipe.InitBuffer(pingBuf, N * 8);
    pipe.InitBuffer(pongBuf, N * 8);
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<uint32_t> idxGm;
    xGm.SetGlobalBuffer((__gm__ T *)x, N);
    yGm.SetGlobalBuffer((__gm__ T *)y, N);
    idxGm.SetGlobalBuffer((__gm__ uint32_t *)idx, N);
    LocalTensor<T> xLocal = xQueue.AllocTensor<T>();
    DataCopy(xLocal, xGm, N);
    xQueue.EnQue(xLocal);
    xLocal = xQueue.DeQue<T>();
    LocalTensor<int32_t> index = indexBuf.Get<int32_t>();
    CreateVecIndex(index, (int32_t)0, N);
    LocalTensor<T> ping = pingBuf.Get<T>();
    LocalTensor<T> pong = pongBuf.Get<T>();
    pipe_barrier(PIPE_V);
    Sort32(ping, xLocal, indexBuf.Get<uint32_t>(), N / 32);
    pipe_barrier(PIPE_V);
    uint32_t perPair = 8 / sizeof(T);
    uint16_t len = 32;
    for (int32_t lists = N / 32; lists > 1; lists /= 4) {
        uint16_t lengths[4] = {len, len, len, len};
        MrgSort4Info info(lengths, false, 15, lists / 4);
        MrgSortSrcList<T> src(ping, ping[len * perPair], ping[2 * len * perPair], ping[3 * len * perPair]);
        MrgSort(pong, src, info);
        pipe_barrier(PIPE_V);
        DataCopy(ping, pong, N * perPair);
        pipe_barrier(PIPE_V);
        len = len * 4;
    }
    LocalTensor<T> yLocal = yQueue.AllocTensor<T>();
    LocalTensor<uint32_t> idxLocal = idxQueue.AllocTensor<uint32_t>();
    Extract(yLocal, idxLocal, ping, N / 32);
    yQueue.EnQue(yLocal);
    idxQueue.EnQue(idxLocal);
    yLocal = yQueue.DeQue<T>();
    idxLocal = idxQueue.DeQue<uint32_t>();
    DataCopy(yGm, yLocal, N);
    DataCopy(idxGm, idxLocal, N);
    xQueue.FreeTensor(xLocal);
    yQueue.FreeTensor(yLocal);
    idxQueue.FreeTensor(idxLocal);
}
"""

# the high-level form the MoE kernels use: Concat, Sort<T, true>, Extract over N scores (N a multiple of 32)
FULL_SORT = """
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t N = NN;

extern "C" __global__ __aicore__ void full_sort(GM_ADDR x, GM_ADDR y, GM_ADDR idx, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> xQueue;
    TQue<TPosition::VECOUT, 1> yQueue, idxQueue;
    TBuf<TPosition::VECCALC> indexBuf, sortedBuf, tmpBuf;
    pipe.InitBuffer(xQueue, 1, N * sizeof(T));
    pipe.InitBuffer(yQueue, 1, N * sizeof(T));
    pipe.InitBuffer(idxQueue, 1, N * sizeof(uint32_t));
    pipe.InitBuffer(indexBuf, N * sizeof(uint32_t));
    pipe.InitBuffer(sortedBuf, GetSortLen<T>(N) * sizeof(T));
    pipe.InitBuffer(tmpBuf, GetSortLen<T>(N) * sizeof(T));
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<uint32_t> idxGm;
    xGm.SetGlobalBuffer((__gm__ T *)x, N);
    yGm.SetGlobalBuffer((__gm__ T *)y, N);
    idxGm.SetGlobalBuffer((__gm__ uint32_t *)idx, N);
    LocalTensor<T> xLocal = xQueue.AllocTensor<T>();
    DataCopy(xLocal, xGm, N);
    xQueue.EnQue(xLocal);
    xLocal = xQueue.DeQue<T>();
    LocalTensor<int32_t> index = indexBuf.Get<int32_t>();
    CreateVecIndex(index, (int32_t)0, N);
    pipe_barrier(PIPE_V);
    LocalTensor<T> concatLocal;
    LocalTensor<T> tmp = tmpBuf.Get<T>();
    Concat(concatLocal, xLocal, tmp, N / 32);
    LocalTensor<T> sorted = sortedBuf.Get<T>();
    Sort<T, true>(sorted, concatLocal, indexBuf.Get<uint32_t>(), tmp, N / 32);
    pipe_barrier(PIPE_V);
    LocalTensor<T> yLocal = yQueue.AllocTensor<T>();
    LocalTensor<uint32_t> idxLocal = idxQueue.AllocTensor<uint32_t>();
    Extract(yLocal, idxLocal, sorted[GetSortOffset<T>(0)], N / 32);
    yQueue.EnQue(yLocal);
    idxQueue.EnQue(idxLocal);
    yLocal = yQueue.DeQue<T>();
    idxLocal = idxQueue.DeQue<uint32_t>();
    DataCopy(yGm, yLocal, N);
    DataCopy(idxGm, idxLocal, N);
    xQueue.FreeTensor(xLocal);
    yQueue.FreeTensor(yLocal);
    idxQueue.FreeTensor(idxLocal);
}
"""


def _errors(result: object) -> list[object]:
    return [f for f in result.findings if f.severity.name == "ERROR"]  # type: ignore[attr-defined]


def _scores(n: int, dtype: str, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    # few distinct values, so that many scores tie within and across groups; a -0 beside +0s
    x = rng.integers(-6, 6, n).astype(dtype) / 2
    x[5] = -0.0
    return x


def _source(text: str, n: int, dtype: str) -> str:
    ctype = "half" if dtype == "float16" else "float"
    return text.replace("NN", str(n)).replace("<T>", f"<{ctype}>").replace("<T,", f"<{ctype},").replace(
        "(T)", f"({ctype})").replace("sizeof(T)", f"sizeof({ctype})").replace(" T *", f" {ctype} *")


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("n", [128, 512])
def test_sort32_and_mrgsort_rounds_match_a_stable_descending_argsort(n: int, dtype: str) -> None:
    x = _scores(n, dtype, seed=n)
    result = run(_source(SORT32_MERGE, n, dtype), {"x": x}, chip="910B2", block_dim=1,
                 outputs={"y": ((n,), dtype), "idx": ((n,), "uint32")})
    assert _errors(result) == [], result.findings
    order = np.argsort(-x.astype(np.float32), kind="stable")
    np.testing.assert_array_equal(result.outputs["idx"], order.astype(np.uint32))
    np.testing.assert_array_equal(result.outputs["y"].view(np.uint8), x[order].view(np.uint8))


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("n", [96, 320])
def test_concat_full_sort_extract_match_a_stable_descending_argsort(n: int, dtype: str) -> None:
    x = _scores(n, dtype, seed=n + 1)
    result = run(_source(FULL_SORT, n, dtype), {"x": x}, chip="910B2", block_dim=1,
                 outputs={"y": ((n,), dtype), "idx": ((n,), "uint32")})
    assert _errors(result) == [], result.findings
    order = np.argsort(-x.astype(np.float32), kind="stable")
    np.testing.assert_array_equal(result.outputs["idx"], order.astype(np.uint32))
    np.testing.assert_array_equal(result.outputs["y"].view(np.uint8), x[order].view(np.uint8))
