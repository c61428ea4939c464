"""ReduceSum<T, pattern>'s temporary space: the documented contract (GetReduceSumMaxMinTmpSize's page: no less
than the minimum) checked at the call (rust_sim/src/vector/reduce/tmp.rs), for a sharedTmpBuffer and for the UB
the TPipe leaves when the call passes none."""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void colsum(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x);
    yGm.SetGlobalBuffer((__gm__ float *)y);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(inQ, 1, td.rows * td.cols * sizeof(float));
    pipe.InitBuffer(outQ, 1, td.cols * sizeof(float));
    {init_tmp}
    LocalTensor<float> a = inQ.AllocTensor<float>();
    DataCopy(a, xGm, td.rows * td.cols);
    inQ.EnQue(a);
    a = inQ.DeQue<float>();
    LocalTensor<float> b = outQ.AllocTensor<float>();
    uint32_t shape[2] = {{td.rows, td.cols}};
    {call}  // reduce
    outQ.EnQue(b);
    inQ.FreeTensor(a);
    b = outQ.DeQue<float>();
    DataCopy(yGm, b, td.cols);
    outQ.FreeTensor(b);
}}
"""
SHARED = ("pipe.InitBuffer(tmpBuf, td.tmpBytes);",
          "ReduceSum<float, Pattern::Reduce::RA>(b, a, tmpBuf.Get<uint8_t>(), shape, true);")
FRAMEWORK = ("", "ReduceSum<float, Pattern::Reduce::RA>(b, a, shape, true);")


def simulate(form: tuple[str, str], rows: int, cols: int, tmp_bytes: int = 0) -> tuple[object, np.ndarray, int]:
    src = KERNEL.format(init_tmp=form[0], call=form[1])
    x = np.random.default_rng(5).uniform(-1, 1, rows * cols).astype(np.float32)
    result = run(src, {"x": x}, block_dim=1, tiling={"rows": rows, "cols": cols, "tmpBytes": tmp_bytes},
                 outputs={"y": ((cols,), "float32")})
    line = next(i for i, ln in enumerate(src.splitlines(), 1) if "// reduce" in ln)
    return result, x.reshape(rows, cols), line


def test_a_shared_buffer_of_the_minimum_is_enough() -> None:
    # 256 rows (a power of two: halved to 128) of 64 floats: 32 KB, what GetReduceSumMaxMinTmpSize returns
    result, x, _ = simulate(SHARED, 256, 64, 128 * 64 * 4)
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_allclose(result.outputs["y"], x.sum(axis=0), rtol=1e-5, atol=1e-4)


def test_a_shared_buffer_below_the_minimum_is_reported_at_the_call() -> None:
    result, _, line = simulate(SHARED, 256, 64, 128 * 64 * 4 - 32)
    hits = [d for d in result.findings if d.code == "ASC959"]
    assert hits and hits[0].span is not None and hits[0].span.line == line, [str(d) for d in result.findings]
    assert "32768 bytes" in hits[0].message and "32736" in hits[0].message


def test_without_a_buffer_the_ub_left_must_hold_the_minimum() -> None:
    # 96 rows: 64 rows of temporary floats (24 KB) fit in what the 24 KB input tile leaves
    result, x, _ = simulate(FRAMEWORK, 96, 64)
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_allclose(result.outputs["y"], x.sum(axis=0), rtol=1e-5, atol=1e-4)
    # 512 rows: a 128 KB input tile leaves 64 KB - 256 bytes, the library needs 256 rows (64 KB)
    result, _, line = simulate(FRAMEWORK, 512, 64)
    hits = [d for d in result.findings if d.code == "ASC951"]
    assert hits and hits[0].span is not None and hits[0].span.line == line, [str(d) for d in result.findings]
