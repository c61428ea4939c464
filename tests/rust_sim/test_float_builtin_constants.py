"""The compiler's float constants `__builtin_inff()`, `__builtin_huge_valf()` and `__builtin_nanf("")` are values
(the compiler folds them; no call is made). ops-math segsum's kernel defines `INFINITY` as `(__builtin_inff())`
and fills the upper triangle with -INFINITY: as a call the lowering left opaque, each core stopped there (ASC958,
'the simulator does not model the call of __builtin_inff') and y stayed unwritten."""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
#define MY_INF (__builtin_inff())
constexpr float NEG_INF = -MY_INF;

extern "C" __global__ __aicore__ void specials(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQueue;
    pipe.InitBuffer(outQueue, 1, 8 * sizeof(float));
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float *)y, 8);
    LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    Duplicate(yLocal, NEG_INF, 8);
    yLocal.SetValue(1, MY_INF);
    yLocal.SetValue(2, __builtin_huge_valf());
    yLocal.SetValue(3, __builtin_nanf(""));
    yLocal.SetValue(4, static_cast<float>(__builtin_inf()));
    outQueue.EnQue(yLocal);
    yLocal = outQueue.DeQue<float>();
    DataCopy(yGm, yLocal, 8);
    outQueue.FreeTensor(yLocal);
}
"""


def test_float_builtins_are_constants() -> None:
    result = run(KERNEL, {"x": np.zeros(8, np.float32)}, block_dim=1, outputs={"y": ((8,), "float32")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], errors
    y = result.outputs["y"]
    assert y[0] == -np.inf and y[5] == -np.inf and y[7] == -np.inf, y
    assert y[1] == np.inf and y[2] == np.inf and y[4] == np.inf, y
    assert np.isnan(y[3]), y
