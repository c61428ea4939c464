"""ASC954 judges a write past a buffer's end by whether the bytes it lands on are still needed: an error once they
are read through a tensor other than the writer's before their owner writes them again, a warning while nothing
does (UB has no per-buffer protection, so dead bytes change nothing the kernel computes).

The pattern is NPUKernelBench CrossEntropyLossGrad's (classes < 128 make its tiling's alignColLoopNum 0): a TBuf
given 0 bytes (the vendor's TPipe places it at the pool's current address and advances it by 0, so the next TBuf
starts at the same address), then vector writes through it after the last read of that next TBuf."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void zero_tbuf(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 8);
    yGm.SetGlobalBuffer((__gm__ float *)y, 8);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> scratchBuf;
    TBuf<TPosition::VECCALC> sumBuf;
    pipe.InitBuffer(inQ, 1, 32);
    pipe.InitBuffer(outQ, 1, 32);
    pipe.InitBuffer(scratchBuf, td.cols * sizeof(float));   // cols = 0: 0 bytes, at sumBuf's address
    pipe.InitBuffer(sumBuf, 32);
    LocalTensor<float> scratch = scratchBuf.Get<float>();
    LocalTensor<float> sum = sumBuf.Get<float>();
    Duplicate(sum, 2.0f, 8);
    PipeBarrier<PIPE_ALL>();
    float scale = sum.GetValue(0);
    LocalTensor<float> xLocal = inQ.AllocTensor<float>();
    DataCopy(xLocal, xGm, 8);
    inQ.EnQue(xLocal);
    xLocal = inQ.DeQue<float>();
    Muls(scratch, xLocal, scale, 8);   // LINE-WRITE: 32 bytes past scratch's 0, into sum
    inQ.FreeTensor(xLocal);
    LocalTensor<float> yLocal = outQ.AllocTensor<float>();
#ifdef REWRITE_FIRST
    Duplicate(sum, 1.0f, 8);
#endif
#if defined(READ_SUM_AFTER) || defined(REWRITE_FIRST)
    Add(yLocal, scratch, sum, 8);      // LINE-READ: sum's bytes hold the overflow now (unless rewritten)
#else
    Muls(yLocal, scratch, 1.0f, 8);    // only the writer's tensor reads them
#endif
    outQ.EnQue(yLocal);
    yLocal = outQ.DeQue<float>();
    DataCopy(yGm, yLocal, 8);
    outQ.FreeTensor(yLocal);
}
"""


def _line(marker: str) -> int:
    return next(i + 1 for i, line in enumerate(KERNEL.splitlines()) if marker in line)


def _run(tmp_path: Path, define: str | None):
    path = tmp_path / "zero_tbuf.cpp"
    path.write_text(KERNEL)
    x = np.arange(1, 9, dtype=np.float32)
    result = run(str(path), {"x": x}, block_dim=1, tiling={"cols": 0}, outputs={"y": ((8,), "float32")},
                 defines={define: "1"} if define else None)
    return x, result, [d for d in result.findings if d.code == "ASC954"]


def test_dead_bytes_overwritten_are_a_warning(tmp_path: Path) -> None:
    x, result, hits = _run(tmp_path, None)
    assert len(hits) == 1 and not hits[0].is_error, [str(d) for d in result.findings]
    assert hits[0].span is not None and hits[0].span.line == _line("LINE-WRITE")
    assert "32 bytes past the end of TBuf scratchBuf (0 bytes" in hits[0].message, hits[0].message
    assert "into bytes [0, 32) of TBuf sumBuf" in hits[0].message, hits[0].message
    assert result.ok and not any(d.is_error for d in result.findings), [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], 2 * x)


def test_a_later_read_of_the_overwritten_bytes_is_an_error_at_the_write(tmp_path: Path) -> None:
    x, result, hits = _run(tmp_path, "READ_SUM_AFTER")
    assert len(hits) == 1 and hits[0].is_error, [str(d) for d in result.findings]
    assert hits[0].span is not None and hits[0].span.line == _line("LINE-WRITE")
    assert "Add at " in hits[0].message and f":{_line('LINE-READ')}" in hits[0].message, hits[0].message
    assert "reads bytes [0, 32) of TBuf sumBuf before they are written again" in hits[0].message, hits[0].message
    assert np.array_equal(result.outputs["y"], 4 * x)  # sum's bytes hold 2x, not 2.0


@pytest.mark.parametrize("define", ["REWRITE_FIRST"])
def test_bytes_their_owner_rewrites_are_not_read_overwritten(tmp_path: Path, define: str) -> None:
    x, result, hits = _run(tmp_path, define)
    assert len(hits) == 1 and not hits[0].is_error, [str(d) for d in result.findings]
    assert not any(d.is_error for d in result.findings), [str(d) for d in result.findings]
