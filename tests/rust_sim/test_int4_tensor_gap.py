"""A tensor of int4b_t (two elements per byte; the quantising norms' int4 outputs) is a named gap at the line that
makes it. The simulator's memories hold nothing narrower than a byte, and the program used to carry the element type
'i4', which the Rust side rejected as an unknown type: `ascendir run` printed an internal error and no location."""

from __future__ import annotations

import numpy as np

from ascendir.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void pack_int4(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<int8_t> xGm;
    xGm.SetGlobalBuffer((__gm__ int8_t *)x, 32);
    GlobalTensor<int4b_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int4b_t *)y, 64);
}
"""


def test_an_int4_tensor_is_a_gap_at_its_line() -> None:
    result = run(KERNEL, {"x": np.zeros(32, np.int8)}, block_dim=1, outputs={"y": ((32,), "int8")})
    gaps = [f for f in result.findings if f.code == "ASC958"]
    assert gaps, result.findings
    assert "int4b_t" in gaps[0].message
    assert gaps[0].span is not None and gaps[0].span.line == KERNEL.splitlines().index(
        "    yGm.SetGlobalBuffer((__gm__ int4b_t *)y, 64);") + 1
