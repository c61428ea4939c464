"""A parameter whose default is a braced list (`const DataCopyPadParams &padParams = {}`), left out at the call:
the callee gets a value-initialised struct of the parameter's type.

The default was lowered as an untyped list and the parameter became undefined, so the DataCopyPad that took it
could not be simulated (ASC958 'a value of ascendc.undef used before the simulator program defines it' on every
core: NPUKernelBench AddLayerNorm and InplaceAddLayerNorm, whose DataCopyEx helper has that default).
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__aicore__ inline void CopyRows(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const uint32_t len,
    const uint32_t count = 1, const DataCopyPadParams &padParams = {})
{
    DataCopyParams copyParams;
    copyParams.blockLen = len * sizeof(T);
    copyParams.blockCount = count;
    DataCopyPad(dst, src, copyParams, padParams);
}

extern "C" __global__ __aicore__ void pad_default(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
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
    CopyRows(a, xGm, 64);
    inQ.EnQue(a);
    a = inQ.DeQue<float>();
    LocalTensor<float> b = outQ.AllocTensor<float>();
    Muls(b, a, 2.0f, 64);
    outQ.EnQue(b);
    inQ.FreeTensor(a);
    b = outQ.DeQue<float>();
    DataCopy(yGm, b, 64);
    outQ.FreeTensor(b);
}
"""


def test_a_braced_default_argument_is_a_value_of_the_parameters_type() -> None:
    x = np.arange(64, dtype=np.float32)
    result = run(KERNEL, [x], block_dim=1, outputs={"y": ((64,), "float32")})
    assert result.completed and not result.findings, [d.message for d in result.findings]
    assert np.array_equal(result.outputs["y"], x * 2)
