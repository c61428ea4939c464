"""An arm of `?:` that reads an element runs only when chosen. `start = (i == 0) ? 0 : ends[i - 1]` (catlass's
grouped examples compute each group's size so from the group list) was lowered as a select of both arms: for
i = 0 the simulator read ends[-1] and reported an out-of-bounds read (ASC951) that C++ never makes."""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void sizes(GM_ADDR y)
{
    int64_t ends[3] = {10, 40, 64};
    AscendC::GlobalTensor<int64_t> yg;
    yg.SetGlobalBuffer((__gm__ int64_t *)y, 3);
    for (uint32_t i = 0; i < 3; ++i) {
        int64_t start = (i == 0) ? 0 : ends[i - 1];
        yg.SetValue(i, ends[i] - start);
    }
}
"""


def test_the_arm_not_chosen_reads_nothing() -> None:
    result = run(KERNEL, {}, chip="910B2", block_dim=1, outputs={"y": ((3,), "int64")})
    assert not [f for f in result.findings if f.severity.name == "ERROR"], result.findings
    np.testing.assert_array_equal(result.outputs["y"], [10, 30, 24])
