"""AscendC::ICachePreLoad(len) loads instructions from GM into the instruction cache (asc-devkit docs
ICachePreLoad(ISASI).md): no data changes, so the run goes on past it. Before (issue 29), catlass's
10_grouped_matmul_slice_m_per_token_dequant stopped every core at it (ASC958 'does not model the call')."""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void preload(GM_ADDR x, GM_ADDR y)
{
    AscendC::ICachePreLoad(2);
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 8);
    yg.SetGlobalBuffer((__gm__ float *)y, 8);
    for (int i = 0; i < 8; ++i) {
        yg.SetValue(i, xg.GetValue(i) * 2);
    }
}
"""


def test_icache_preload_changes_no_data() -> None:
    x = np.arange(8, dtype=np.float32)
    result = run(KERNEL, [x], outputs={"y": ((8,), "float32")}, block_dim=1)
    assert not result.findings, result.findings
    assert np.array_equal(result.outputs["y"], x * 2)
