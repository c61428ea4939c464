"""A call qualified by an explicit specialisation of a class template, `Base<float>::CopyIn(offset, n)` inside a
method of a class derived from `Base<float>` (`template <> class Base<float> {...}`, a class with its own members),
runs that specialisation's method on the object's base part. ops-nn mse_loss_v2's float kernels call
`MSELossV2Base<float>::CopyIn(offset, length)`: the lookup took the primary template's 4-parameter CopyIn ('too few
arguments in call to CopyIn', ASC103), the copy was left out and nothing reached the queues."""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
class Base {
public:
    __aicore__ inline void Scale(T *dst, T a, T b, T c) { *dst = a * b * c; }
protected:
    T factor = 2;
};

template <>
class Base<float> {
public:
    __aicore__ inline void Scale(float *dst, float a) { *dst = a * factor; }
protected:
    float factor = 3.0f;
};

template <typename T>
class Derived : public Base<T> {
public:
    __aicore__ inline void Run(GM_ADDR x, GM_ADDR y)
    {
        GlobalTensor<float> xGm, yGm;
        xGm.SetGlobalBuffer((__gm__ float *)x, 4);
        yGm.SetGlobalBuffer((__gm__ float *)y, 4);
        for (int32_t i = 0; i < 4; i++) {
            float out = 0.0f;
            Base<float>::Scale(&out, xGm.GetValue(i));
            yGm.SetValue(i, out);
        }
    }
};

extern "C" __global__ __aicore__ void spec_call(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    Derived<float> op;
    op.Run(x, y);
}
"""


def test_the_specialisation_s_own_method_runs() -> None:
    x = np.array([1.0, -2.0, 0.5, 4.0], np.float32)
    result = run(KERNEL, {"x": x}, block_dim=1, outputs={"y": ((4,), "float32")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], errors
    assert np.array_equal(result.outputs["y"], 3.0 * x)
