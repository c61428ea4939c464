"""C array initialisers: a member array's brace initialiser (`int64_t totalSize[3] = {1, 1, 1};`, which the
lowering dropped: NPUKernelBench's Cross multiplied into uninitialised sizes), and the elements a brace list leaves
out (`= {}`, `= {7}`) hold 0, also for an array declared in a loop body, which starts anew every iteration."""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;

class KernelSizes {
public:
    __aicore__ inline void Init(GM_ADDR y)
    {
        yGm.SetGlobalBuffer((__gm__ int64_t *)y, 18);
        int64_t local[5] = {7};
        for (int i = 0; i < 4; ++i) {
            sizes[i % 3] *= (i + 2);
            if (i + 1 > peak[i]) {
                peak[i] = i + 1;
            }
        }
        for (int i = 0; i < 3; ++i) {
            yGm.SetValue(i, sizes[i]);
        }
        for (int i = 0; i < 8; ++i) {
            yGm.SetValue(3 + i, peak[i]);
        }
        for (int i = 0; i < 5; ++i) {
            yGm.SetValue(11 + i, local[i]);
        }
        for (int r = 0; r < 2; ++r) {
            int64_t acc[4] = {};
            acc[r] += 5;
            acc[r + 1] += 1;
            yGm.SetValue(16 + r, acc[0] + acc[1] + acc[2]);
        }
    }
private:
    GlobalTensor<int64_t> yGm;
    int64_t sizes[3] = {1, 1, 1}, peak[8] = {};
};

extern "C" __global__ __aicore__ void sizes_kernel(GM_ADDR y)
{
    KernelSizes op;
    op.Init(y);
}
"""


def test_array_initialisers() -> None:
    result = run(KERNEL, {}, block_dim=1, outputs={"y": ((18,), "int64")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    expected = [10, 3, 4, 1, 2, 3, 4, 0, 0, 0, 0, 7, 0, 0, 0, 0, 6, 6]
    assert result.outputs["y"].tolist() == expected
