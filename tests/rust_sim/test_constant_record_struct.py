"""A plain struct whose members are constants given their values in the class (`struct ConstData { const float
c_pi = PI; const float c_half = c_pi / 2; };`, ops-math angle_v2's kernel) is an object made with those values,
not tiling data: as a plain struct of scalars it was read as a tiling layout, and each member read was a tiling
field the host never set (ASC958 'the kernel reads tiling field const_pi ...: it reads 0 here'). A plain struct
of scalars without such members stays tiling data (the corpus's tiling structs)."""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
const double PI = 3.14159265358979323846;
struct ConstData {
    const float c_pi = PI;
    const float c_half = c_pi / 2;
};
class K {
public:
    __aicore__ inline void Run(GM_ADDR y)
    {
        GlobalTensor<float> yGm;
        yGm.SetGlobalBuffer((__gm__ float *)y, 2);
        yGm.SetValue(0, cd.c_pi);
        yGm.SetValue(1, cd.c_half);
    }
    ConstData cd;
};
extern "C" __global__ __aicore__ void constants(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    K k;
    k.Run(y);
}
"""


def test_a_record_of_constants_holds_its_values() -> None:
    result = run(KERNEL, {"x": np.zeros(2, np.float32)}, block_dim=1, outputs={"y": ((2,), "float32")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], errors
    assert np.allclose(result.outputs["y"], [np.pi, np.pi / 2])
