"""`__fp16`, the compilers' IEEE binary16 storage type, is half: catlass's 32_w4a8_matmul sizes its output with
`layoutC.Capacity() * sizeof(__fp16)`. Before (issue 29) the type was unknown, the statement a gap, and the run
stopped at "the size of device buffer 'deviceC' does not fold to a number"."""

from __future__ import annotations

from passes.sim import run

KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void fp16_size(GM_ADDR y)
{
    GlobalTensor<uint32_t> yg;
    yg.SetGlobalBuffer((__gm__ uint32_t *)y, 8);
    __fp16 h = 1.5;
    yg.SetValue(0, sizeof(__fp16) * 8);
    yg.SetValue(1, (uint32_t)(h * (__fp16)4.0));
}
"""


def test_fp16_is_half() -> None:
    result = run(KERNEL, [], outputs={"y": ((8,), "uint32")}, block_dim=1)
    assert [d.code for d in result.findings if d.code != "ASC961"] == [], result.findings  # before: ASC105, ASC958
    assert result.outputs["y"].tolist()[:2] == [16, 6]
