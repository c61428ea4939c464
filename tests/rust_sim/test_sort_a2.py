"""The (score, index) sorts of the A2/A3 parts (arch 2201), by their API pages: Sort32 sorts 32 pairs per repeat
(largest first, equal scores by position), MrgSort merges up to four sorted lists (equal scores from the earlier
list; ifExhaustedSuspension stops at the first list used up and reports the counts taken), Sort<T, isFullSort> sorts
all repeats, Concat hands Sort its scores, Extract splits the pairs again. Before, none was simulated on 910B (ASC958).
The expectation is numpy's stable descending argsort: np.argsort(-x, kind="stable").
"""

from __future__ import annotations

import numpy as np
import pytest

from passes.sim import run

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


# the list form the MoE mergers call: MrgSort<float, true> of two or three sorted lists, stopping at the first one
# used up; sortedNum and GetMrgSortResult report how many pairs of each list went out
EXHAUSTED = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void exhausted(GM_ADDR x, GM_ADDR y, GM_ADDR counts, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> xQueue;
    TQue<TPosition::VECOUT, 1> yQueue;
    TBuf<TPosition::VECCALC> indexBuf, sortedBuf, mergedBuf;
    pipe.InitBuffer(xQueue, 1, 96 * sizeof(float));
    pipe.InitBuffer(yQueue, 1, 96 * sizeof(float));
    pipe.InitBuffer(indexBuf, 96 * sizeof(uint32_t));
    pipe.InitBuffer(sortedBuf, 96 * 8);
    pipe.InitBuffer(mergedBuf, 96 * 8);
    GlobalTensor<float> xGm, yGm;
    GlobalTensor<uint32_t> countsGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 96);
    yGm.SetGlobalBuffer((__gm__ float *)y, 96);
    countsGm.SetGlobalBuffer((__gm__ uint32_t *)counts, 8);
    LocalTensor<float> xLocal = xQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm, 96);
    xQueue.EnQue(xLocal);
    xLocal = xQueue.DeQue<float>();
    LocalTensor<int32_t> index = indexBuf.Get<int32_t>();
    CreateVecIndex(index, (int32_t)0, 96);
    pipe_barrier(PIPE_V);
    LocalTensor<float> sorted = sortedBuf.Get<float>();
    Sort32(sorted, xLocal, indexBuf.Get<uint32_t>(), 3);
    LocalTensor<float> merged = mergedBuf.Get<float>();
    Duplicate(merged, (float)-1, 192);
    pipe_barrier(PIPE_V);
    uint16_t lengths[4] = {LENGTHS};
    uint32_t sortedNum[4] = {0, 0, 0, 0};
    MrgSortSrcList<float> lists(sorted, sorted[64], sorted[128], sorted);
    MrgSort<float, true>(merged, lists, lengths, sortedNum, VALID, 1);
    uint16_t c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    GetMrgSortResult(c0, c1, c2, c3);
    pipe_barrier(PIPE_V);
    LocalTensor<float> yLocal = yQueue.AllocTensor<float>();
    LocalTensor<uint32_t> idxLocal = indexBuf.Get<uint32_t>();
    Extract(yLocal, idxLocal, merged, 3);
    yQueue.EnQue(yLocal);
    yLocal = yQueue.DeQue<float>();
    DataCopy(yGm, yLocal, 96);
    countsGm.SetValue(0, sortedNum[0]);
    countsGm.SetValue(1, sortedNum[1]);
    countsGm.SetValue(2, sortedNum[2]);
    countsGm.SetValue(3, sortedNum[3]);
    countsGm.SetValue(4, c0);
    countsGm.SetValue(5, c1);
    countsGm.SetValue(6, c2);
    countsGm.SetValue(7, c3);
    xQueue.FreeTensor(xLocal);
    yQueue.FreeTensor(yLocal);
}
"""


def _exhausted(lengths: str, valid: str, x: np.ndarray) -> object:
    source = EXHAUSTED.replace("LENGTHS", lengths).replace("VALID", valid)
    return run(source, {"x": x}, chip="910B2", block_dim=1,
               outputs={"y": ((96,), "float32"), "counts": ((8,), "uint32")})


def test_exhausted_suspension_stops_at_the_first_list_used_up_and_reports_the_counts() -> None:
    # list 1: 32 scores 100..131 descending after Sort32, of which the merge gets 4 (131..128); list 2: 0..31;
    # list 3: 50.5 and 29.5, 29.5, ...: list 1's four go first, then 50.5 (list 3); list 1 is used up there
    x = np.concatenate([np.arange(100, 132), np.arange(0, 32), np.full(32, 29.5)]).astype(np.float32)
    x[64] = 50.5
    result = _exhausted("4, 32, 32, 0", "0b0111", x)
    assert _errors(result) == [], result.findings
    y = result.outputs["y"]
    np.testing.assert_array_equal(y[:4], [131, 130, 129, 128])
    np.testing.assert_array_equal(y[4:], np.full(92, -1, np.float32))  # the rest of dst keeps its -1 fill
    np.testing.assert_array_equal(result.outputs["counts"], [4, 0, 0, 0, 4, 0, 0, 0])
    # list 1 = 31..0 (the merge gets 31, 30, 29, 28), list 2 = 31, 30 of 0..31, list 3 = 50.5, 29.5, ...:
    # 50.5 (list 3), 31 (list 1 before list 2), 31, 30, 30: list 2 is used up there
    x[:32] -= 100
    result = _exhausted("4, 2, 32, 0", "0b0111", x)
    assert _errors(result) == [], result.findings
    np.testing.assert_array_equal(result.outputs["y"][:6], [50.5, 31, 31, 30, 30, -1])
    np.testing.assert_array_equal(result.outputs["counts"], [2, 2, 1, 0, 2, 2, 1, 0])


def test_misuse_is_reported() -> None:
    x = np.arange(96, dtype=np.float32)
    result = _exhausted("4, 32, 32, 0", "5", x)
    assert any(f.code == "ASC959" and "validBit 5" in f.message for f in _errors(result)), result.findings
    # dst at pair 40: past list 1 (pairs 0..4), inside list 2 (pairs 32..64)
    overlap = EXHAUSTED.replace("MrgSort<float, true>(merged,", "MrgSort<float, true>(sorted[80],")
    result = run(overlap.replace("LENGTHS", "4, 32, 32, 0").replace("VALID", "0b0111"), {"x": x}, chip="910B2",
                 block_dim=1, outputs={"y": ((96,), "float32"), "counts": ((8,), "uint32")})
    assert any(f.code == "ASC959" and "overlaps source list 2" in f.message for f in _errors(result)), result.findings


def test_padding_with_unset_indices_leaves_the_real_pairs_known() -> None:
    # the MoE sorters' pattern: 32 slots, 16 real scores with indices, 16 padding scores far below them whose index
    # slots nothing wrote; only the first 16 sorted pairs are copied out. A pair is known where its own score and
    # index are (before, the simulator judged pairs by their index values and reported ASC952 on moe_init_routing)
    n = 32
    source = _source(FULL_SORT, n, "float32")
    source = source.replace("CreateVecIndex(index, (int32_t)0, N);", "CreateVecIndex(index, (int32_t)0, N / 2);")
    source = source.replace("idxGm.SetGlobalBuffer((__gm__ uint32_t *)idx, N);",
                            "idxGm.SetGlobalBuffer((__gm__ uint32_t *)idx, N / 2);")
    source = source.replace("DataCopy(idxGm, idxLocal, N);", "DataCopy(idxGm, idxLocal, N / 2);")
    x = _scores(n, "float32", seed=9)
    x[16:] = -3.0e38
    result = run(source, {"x": x}, chip="910B2", block_dim=1,
                 outputs={"y": ((n,), "float32"), "idx": ((n // 2,), "uint32")})
    assert _errors(result) == [], result.findings
    order = np.argsort(-x, kind="stable")
    np.testing.assert_array_equal(result.outputs["idx"], order[:16].astype(np.uint32))


def test_lists_set_member_by_member() -> None:
    # `MrgSortSrcList<float> lists; lists.src1 = sorted; ...` (moe_gating_top_k's generalized path): before, each
    # assignment was 'cannot convert LocalTensor<float> to uint32_t' and the MrgSort call ASC958
    source = EXHAUSTED.replace(
        "MrgSortSrcList<float> lists(sorted, sorted[64], sorted[128], sorted);",
        "MrgSortSrcList<float> lists;\n    lists.src1 = sorted;\n    lists.src2 = sorted[64];\n"
        "    lists.src3 = sorted[128];\n    lists.src4 = sorted;")
    x = np.concatenate([np.arange(100, 132), np.arange(0, 32), np.full(32, 29.5)]).astype(np.float32)
    x[64] = 50.5
    result = run(source.replace("LENGTHS", "4, 32, 32, 0").replace("VALID", "0b0111"), {"x": x}, chip="910B2",
                 block_dim=1, outputs={"y": ((96,), "float32"), "counts": ((8,), "uint32")})
    assert _errors(result) == [], result.findings
    np.testing.assert_array_equal(result.outputs["y"][:5], [131, 130, 129, 128, -1])
    np.testing.assert_array_equal(result.outputs["counts"], [4, 0, 0, 0, 4, 0, 0, 0])
