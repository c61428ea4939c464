"""A braced list passed to a user function's struct parameter (`op.Init({x, y, n, scale})` with
`Init(Params p)`): the list initialises a value of the parameter's type, members in order. NPUKernelBench's
ComplexMatDot hands its kernel parameters over this way; the lowering read each `p.member` of an 'init-list' value
(ASC103) and the simulator stopped at a call it could not lower.
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

struct Params {
    GM_ADDR x;
    GM_ADDR y;
    uint32_t n;
    float scale;
};

class Scale {
public:
    __aicore__ inline void Init(Params p)
    {
        xGm.SetGlobalBuffer((__gm__ float *)p.x, p.n);
        yGm.SetGlobalBuffer((__gm__ float *)p.y, p.n);
        n = p.n;
        scale = p.scale;
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < n; i++) {
            yGm.SetValue(i, xGm.GetValue(i) * scale);
        }
    }

private:
    GlobalTensor<float> xGm, yGm;
    uint32_t n;
    float scale;
};

extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    Scale op;
    op.Init({x, y, 8, 2.5f});
    op.Process();
}
"""


def test_a_braced_list_initialises_the_struct_parameter() -> None:
    x = np.arange(8, dtype=np.float32)
    result = run(KERNEL, {"x": x}, block_dim=1, outputs={"y": ((8,), "float32")})
    assert not result.findings, result.findings
    np.testing.assert_allclose(result.outputs["y"], x * 2.5)
