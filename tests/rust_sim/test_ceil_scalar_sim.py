"""AscendC's scalar `Ceil(a, b)` (kernel_utils_ceil_oom_que.h: (a + b - 1) / b on two uint32_t, beside the tensor
Ceil of the math library) runs as DivCeil does. ops-nn gather_elements_v2 counts its loops with
`Ceil(eachCoreCalculationLines_, eachCalculationLines_)`; the simulator knew only the tensor overloads, and every
core stopped there (ASC958 'the simulator does not model AscendC::Ceil (overload 'scalar')')."""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void ceil_scalar(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<int32_t> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ int32_t *)x, 8);
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 8);
    for (int32_t i = 0; i < 4; i++) {
        uint32_t a = xGm.GetValue(2 * i);
        uint32_t b = xGm.GetValue(2 * i + 1);
        yGm.SetValue(i, Ceil(a, b));
        yGm.SetValue(4 + i, AscendC::Ceil(a + 1, b));
    }
}
"""


def test_scalar_ceil_is_the_rounded_up_quotient() -> None:
    x = np.array([7, 2, 8, 2, 1, 5, 100, 7], np.int32)
    result = run(KERNEL, {"x": x}, block_dim=1, outputs={"y": ((8,), "int32")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], errors
    assert result.outputs["y"].tolist() == [4, 4, 1, 15, 4, 5, 1, 15]
