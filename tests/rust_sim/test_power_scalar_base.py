"""Power's scalar-base form, Power(dst, base, exponents, n): base ** exponent element by element
(NPUKernelBench's ForeachPowScalarAndTensor computes scalar ** tensor with it)."""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void pow_base(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, 64 * sizeof(float));
    pipe.InitBuffer(outQ, 1, 64 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    yGm.SetGlobalBuffer((__gm__ float *)y, 64);
    LocalTensor<float> a = inQ.AllocTensor<float>();
    DataCopy(a, xGm, 64);
    inQ.EnQue(a);
    a = inQ.DeQue<float>();
    LocalTensor<float> b = outQ.AllocTensor<float>();
    float base = 2.0f;
    Power<float, false>(b, base, a, 64);
    outQ.EnQue(b);
    inQ.FreeTensor(a);
    b = outQ.DeQue<float>();
    DataCopy(yGm, b, 64);
    outQ.FreeTensor(b);
}
"""


def test_a_scalar_raised_to_each_element() -> None:
    x = np.linspace(-2, 3, 64, dtype=np.float32)
    result = run(KERNEL, {"x": x}, block_dim=1, outputs={"y": ((64,), "float32")})
    assert not result.errors, result.errors
    np.testing.assert_allclose(result.outputs["y"], np.power(np.float32(2.0), x), rtol=1e-5)
