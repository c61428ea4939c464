"""High-level APIs called without a sharedTmpBuffer take their temporary space from the UB the TPipe's buffers
leave (PopStackBuffer: from the end of the queues to the end of UB). The kernel has to leave the API's minimum
there (the vendor's "how to use kernel-side temporary space" page); SoftMax leaving less is an error at the call
(KernelHive's log_softmax#1 filled UB with three 64 KB buffers and faulted with 'ub address out of bounds'), and
a kernel that leaves it runs as before. (CumSum's case is the sim_checks corpus's framework_tmp_space.cpp.)"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void softmax_k(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, td.cols);
    yGm.SetGlobalBuffer((__gm__ float *)y, td.cols);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> other;
    pipe.InitBuffer(inQ, 1, td.cols * sizeof(float));
    pipe.InitBuffer(outQ, 1, td.cols * sizeof(float));
    pipe.InitBuffer(other, {other_bytes});
    LocalTensor<float> xLocal = inQ.AllocTensor<float>();
    DataCopy(xLocal, xGm, td.cols);
    inQ.EnQue(xLocal);
    xLocal = inQ.DeQue<float>();
    LocalTensor<float> yLocal = outQ.AllocTensor<float>();
    SoftMaxTiling smTiling;
    SoftMaxShapeInfo shape = {{1, td.cols, 1, td.cols}};
    SoftMax<float>(yLocal, xLocal, smTiling, shape);
    outQ.EnQue(yLocal);
    inQ.FreeTensor(xLocal);
    yLocal = outQ.DeQue<float>();
    DataCopy(yGm, yLocal, td.cols);
    outQ.FreeTensor(yLocal);
}}
"""
COLS = 1024
NEED = (32 // 4 + COLS + 64) * 4  # GetSoftMaxMinTmpSize's minimum for one row of 1024 floats: 4384 bytes
UB = 192 * 1024


def simulate(tmp_path: Path, left: int) -> object:
    src = tmp_path / "softmax_k.cpp"
    src.write_text(KERNEL.format(other_bytes=UB - 2 * COLS * 4 - left), encoding="utf-8")
    x = np.random.default_rng(5).uniform(-2, 2, COLS).astype(np.float32)
    result = run(str(src), {"x": x}, block_dim=1, tiling={"cols": COLS}, outputs={"y": ((COLS,), "float32")})
    return result, x


@pytest.mark.parametrize("left", [0, NEED - 32])
def test_softmax_without_room_for_its_temporary_space(tmp_path: Path, left: int) -> None:
    result, _ = simulate(tmp_path, left)
    hits = [d for d in result.findings if d.code == "ASC951" and "SoftMax" in d.message]
    assert hits and hits[0].severity == "error", [str(d) for d in result.findings]
    assert f"{NEED} bytes" in hits[0].message and f"{left} bytes" in hits[0].message


def test_softmax_with_its_minimum_left_runs(tmp_path: Path) -> None:
    result, x = simulate(tmp_path, NEED)
    assert result.ok, [str(d) for d in result.findings]
    e = np.exp(x - x.max())
    np.testing.assert_allclose(result.outputs["y"], e / e.sum(), rtol=1e-5, atol=1e-7)
