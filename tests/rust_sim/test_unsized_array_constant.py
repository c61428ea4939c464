"""Arrays declared without a bound take it from their initialiser (`static constexpr float A[] = {...}`): a
static member of a class template, a namespace-scope constant and a local array, each indexed in a loop.

NPUKernelBench's Spence evaluates its polynomials from two such static members; the lowering read them as
`float[]` and could not index them (ASC103, then a call it could not lower stopped every core).
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

constexpr float G[] = {0.5f, -1.0f};

template <typename T>
class Poly {
    static constexpr float A[] = {1.0f, 2.0f,
                                  3.0f};
public:
    __aicore__ inline void Run(GM_ADDR x, GM_ADDR y)
    {
        pipe.InitBuffer(inBuf, 64 * sizeof(T));
        pipe.InitBuffer(outBuf, 64 * sizeof(T));
        GlobalTensor<T> xGm, yGm;
        xGm.SetGlobalBuffer((__gm__ T *)x, 64);
        yGm.SetGlobalBuffer((__gm__ T *)y, 64);
        LocalTensor<T> w = inBuf.Get<T>();
        LocalTensor<T> d = outBuf.Get<T>();
        DataCopy(w, xGm, 64);
        PipeBarrier<PIPE_ALL>();
        Duplicate(d, static_cast<T>(0), 64);
        float L[] = {4.0f};
        for (int i = 0; i < 3; ++i) {  // ((A0 x + A1) x + A2)
            Mul(d, d, w, 64);
            Adds(d, d, A[i], 64);
        }
        for (int i = 0; i < 2; ++i) {
            Adds(d, d, G[i], 64);
        }
        Muls(d, d, L[0], 64);
        PipeBarrier<PIPE_ALL>();
        DataCopy(yGm, d, 64);
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> inBuf, outBuf;
};

extern "C" __global__ __aicore__ void poly(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    Poly<float> op;
    op.Run(x, y);
}
"""


def test_unbounded_arrays_take_their_initialisers_length() -> None:
    x = np.linspace(-2, 2, 64, dtype=np.float32)
    result = run(KERNEL, {"x": x}, block_dim=1, outputs={"y": ((64,), "float32")})
    assert not result.findings, result.findings
    expected = ((1.0 * x + 2.0) * x + 3.0 + 0.5 - 1.0) * 4.0
    np.testing.assert_allclose(result.outputs["y"], expected, rtol=1e-5)
