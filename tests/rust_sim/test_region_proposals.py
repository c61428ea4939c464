"""The region-proposal sorts of the 310P (arch 2002) vector unit, by their API pages: ProposalConcat writes 16
elements per repeat into one field of 16 proposals ([x1, y1, x2, y2, score, label, -, -]), RpSort16 sorts each 16 by
score (largest first, stable), MrgSort4 merges up to four sorted lists (validBit, ifExhaustedSuspension), and
ProposalExtract reads one field back. Before, none was simulated (ASC958); NPUKernelBench TopKV3 sorts with them.
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

SORT64 = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void sort64(GM_ADDR x, GM_ADDR y, GM_ADDR idx, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> xQueue;
    TQue<TPosition::VECOUT, 1> yQueue, idxQueue;
    TBuf<TPosition::VECCALC> indexBuf, proposalBuf, mergedBuf;
    pipe.InitBuffer(xQueue, 1, 64 * sizeof(half));
    pipe.InitBuffer(yQueue, 1, 64 * sizeof(half));
    pipe.InitBuffer(idxQueue, 1, 64 * sizeof(half));
    pipe.InitBuffer(indexBuf, 64 * sizeof(int16_t));
    pipe.InitBuffer(proposalBuf, 64 * 8 * sizeof(half));
    pipe.InitBuffer(mergedBuf, 64 * 8 * sizeof(half));
    GlobalTensor<half> xGm, yGm, idxGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, 64);
    yGm.SetGlobalBuffer((__gm__ half *)y, 64);
    idxGm.SetGlobalBuffer((__gm__ half *)idx, 64);
    LocalTensor<half> xLocal = xQueue.AllocTensor<half>();
    DataCopy(xLocal, xGm, 64);
    xQueue.EnQue(xLocal);
    xLocal = xQueue.DeQue<half>();
    LocalTensor<int16_t> index = indexBuf.Get<int16_t>();
    CreateVecIndex(index, (int16_t)0, 64);
    LocalTensor<half> proposals = proposalBuf.Get<half>();
    Duplicate(proposals, (half)0, 64 * 8);
    pipe_barrier(PIPE_V);
    ProposalConcat(proposals, xLocal, 4, 4);
    ProposalConcat(proposals, indexBuf.Get<half>(), 4, 0);
    pipe_barrier(PIPE_V);
    RpSort16(proposals, proposals, 4);
    pipe_barrier(PIPE_V);
    LocalTensor<half> merged = mergedBuf.Get<half>();
    uint16_t lengths[4] = {16, 16, 16, 16};
    MrgSort4Info info(lengths, false, 15, 1);
    MrgSortSrcList<half> lists(proposals, proposals[16 * 8], proposals[32 * 8], proposals[48 * 8]);
    MrgSort4(merged, lists, info);
    pipe_barrier(PIPE_V);
    LocalTensor<half> yLocal = yQueue.AllocTensor<half>();
    LocalTensor<half> idxLocal = idxQueue.AllocTensor<half>();
    ProposalExtract(yLocal, merged, 4, 4);
    ProposalExtract(idxLocal, merged, 4, 0);
    yQueue.EnQue(yLocal);
    idxQueue.EnQue(idxLocal);
    yLocal = yQueue.DeQue<half>();
    idxLocal = idxQueue.DeQue<half>();
    DataCopy(yGm, yLocal, 64);
    DataCopy(idxGm, idxLocal, 64);
    xQueue.FreeTensor(xLocal);
    yQueue.FreeTensor(yLocal);
    idxQueue.FreeTensor(idxLocal);
}
"""


def _errors(result: object) -> list[object]:
    return [f for f in result.findings if f.severity.name == "ERROR"]  # type: ignore[attr-defined]


def test_concat_sort_merge_extract_sorts_64_scores_with_their_indices() -> None:
    x = np.random.default_rng(7).standard_normal(64).astype(np.float16)
    x[[3, 40]] = np.float16(0.5)  # a tie across two groups: the earlier list (index 3) comes first
    result = run(SORT64, {"x": x}, chip="310P", block_dim=1,
                 outputs={"y": ((64,), "float16"), "idx": ((64,), "float16")})
    assert _errors(result) == [], result.findings
    order = np.argsort(-x.astype(np.float32), kind="stable")
    np.testing.assert_array_equal(result.outputs["y"], x[order])
    np.testing.assert_array_equal(result.outputs["idx"].view(np.int16), order.astype(np.int16))


MERGE_TWO = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void merge_two(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> xQueue;
    TQue<TPosition::VECOUT, 1> yQueue;
    TBuf<TPosition::VECCALC> proposalBuf, mergedBuf;
    pipe.InitBuffer(xQueue, 1, 32 * sizeof(half));
    pipe.InitBuffer(yQueue, 1, 32 * sizeof(half));
    pipe.InitBuffer(proposalBuf, 32 * 8 * sizeof(half));
    pipe.InitBuffer(mergedBuf, 32 * 8 * sizeof(half));
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, 32);
    yGm.SetGlobalBuffer((__gm__ half *)y, 32);
    LocalTensor<half> xLocal = xQueue.AllocTensor<half>();
    DataCopy(xLocal, xGm, 32);
    xQueue.EnQue(xLocal);
    xLocal = xQueue.DeQue<half>();
    LocalTensor<half> proposals = proposalBuf.Get<half>();
    LocalTensor<half> merged = mergedBuf.Get<half>();
    Duplicate(proposals, (half)0, 32 * 8);
    Duplicate(merged, (half)-1, 32 * 8);
    pipe_barrier(PIPE_V);
    ProposalConcat(proposals, xLocal, 2, 4);
    pipe_barrier(PIPE_V);
    RpSort16(proposals, proposals, 2);
    pipe_barrier(PIPE_V);
    uint16_t lengths[4] = {4, 16, 0, 0};
    // the first 4 of list 1 and all 16 of list 2, stopping when the short list is used up
    MrgSort4Info info(lengths, true, 3, 1);
    MrgSortSrcList<half> lists(proposals, proposals[16 * 8], proposals, proposals);
    MrgSort4(merged, lists, info);
    pipe_barrier(PIPE_V);
    LocalTensor<half> yLocal = yQueue.AllocTensor<half>();
    ProposalExtract(yLocal, merged, 2, 4);
    yQueue.EnQue(yLocal);
    yLocal = yQueue.DeQue<half>();
    DataCopy(yGm, yLocal, 32);
    xQueue.FreeTensor(xLocal);
    yQueue.FreeTensor(yLocal);
}
"""


def test_exhausted_suspension_stops_at_the_first_list_used_up() -> None:
    # list 1 (x[:16]) has four large scores, list 2 (x[16:]) smaller ones except one
    x = np.zeros(32, np.float16)
    x[:16] = -np.arange(16, dtype=np.float16)  # 0, -1, ..., -15: its first 4 are 0, -1, -2, -3
    x[16:] = -10 - np.arange(16, dtype=np.float16)
    x[20] = np.float16(-1.5)
    result = run(MERGE_TWO, {"x": x}, chip="310P", block_dim=1, outputs={"y": ((32,), "float16")})
    assert _errors(result) == [], result.findings
    # merged: 0, -1, -1.5 (list 2), -2, -3: list 1's four are used up after -3, so the merge stops there
    y = result.outputs["y"]
    np.testing.assert_array_equal(y[:5], np.array([0, -1, -1.5, -2, -3], np.float16))
    np.testing.assert_array_equal(y[5:], np.full(27, -1, np.float16))  # the rest of dst keeps its -1 fill


def test_misuse_is_reported() -> None:
    overlap = MERGE_TWO.replace("MrgSort4(merged, lists, info);", "MrgSort4(proposals[2 * 8], lists, info);")
    result = run(overlap, {"x": np.zeros(32, np.float16)}, chip="310P", block_dim=1,
                 outputs={"y": ((32,), "float16")})
    assert any(f.code == "ASC959" and "overlaps source list 1" in f.message for f in _errors(result)), result.findings
    one_list = MERGE_TWO.replace("MrgSort4Info info(lengths, true, 3, 1);", "MrgSort4Info info(lengths, true, 1, 1);")
    result = run(one_list, {"x": np.zeros(32, np.float16)}, chip="310P", block_dim=1,
                 outputs={"y": ((32,), "float16")})
    warnings = [f for f in result.findings if f.code == "ASC959" and f.severity.name == "WARNING"]
    assert warnings and "validBit 1" in warnings[0].message, result.findings
    bad_mode = MERGE_TWO.replace("ProposalExtract(yLocal, merged, 2, 4);", "ProposalExtract(yLocal, merged, 2, 6);")
    result = run(bad_mode, {"x": np.zeros(32, np.float16)}, chip="310P", block_dim=1,
                 outputs={"y": ((32,), "float16")})
    assert any("modeNumber 6" in f.message for f in _errors(result)), result.findings
