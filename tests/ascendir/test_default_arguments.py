"""Default arguments written on a method's in-class declaration only, with the out-of-class definition
repeating the parameters without them (NPUKernelBench GeGluV2's `BaseInit(..., bool isLastBig = false)`): a call
that leaves them out takes the declaration's defaults. Before, the lowering read the definition alone: 'too few
arguments in call to BaseInit' (ASC103) and the kernel stopped at the call."""

from __future__ import annotations

import numpy as np

from ascendir.lower import lower_program
from passes.sim import run
from frontend.pipeline import load_text

KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
class KernelScale {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, float extra = 0.0f);
    __aicore__ inline void Process(float scale = 2.0f, int32_t repeat = 1);

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<T> xGm, yGm;
    float add = 0.0f;
};

template <typename T>
__aicore__ inline void KernelScale<T>::Init(GM_ADDR x, GM_ADDR y, float extra)
{
    add = extra;
    xGm.SetGlobalBuffer((__gm__ T *)x, 64);
    yGm.SetGlobalBuffer((__gm__ T *)y, 64);
    pipe.InitBuffer(inQueue, 1, 64 * sizeof(T));
    pipe.InitBuffer(outQueue, 1, 64 * sizeof(T));
}

template <typename T>
__aicore__ inline void KernelScale<T>::Process(float scale, int32_t repeat)
{
    LocalTensor<T> in = inQueue.AllocTensor<T>();
    DataCopy(in, xGm, 64);
    inQueue.EnQue(in);
    LocalTensor<T> x = inQueue.DeQue<T>();
    LocalTensor<T> out = outQueue.AllocTensor<T>();
    Muls(out, x, (T)(scale * repeat), 64);
    Adds(out, out, (T)add, 64);
    outQueue.EnQue(out);
    inQueue.FreeTensor(x);
    LocalTensor<T> y = outQueue.DeQue<T>();
    DataCopy(yGm, y, 64);
    outQueue.FreeTensor(y);
}

extern "C" __global__ __aicore__ void scale_default(GM_ADDR x, GM_ADDR y)
{
    KernelScale<float> op;
    op.Init(x, y, 1.0f);
    op.Process();
}
"""


def test_the_call_lowers() -> None:
    result = lower_program(load_text(KERNEL, "scale_default.cpp"))
    assert [f"{d.code} {d.span.line if d.span else ''}: {d.message}" for d in result.diagnostics] == []


def test_the_declared_defaults_are_used() -> None:
    x = np.arange(64, dtype=np.float32)
    result = run(KERNEL, {"x": x.copy()}, block_dim=1,
                 outputs={"y": ((64,), "float32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], x * 2 + 1)
