"""TBuf::Get(len) with len past the buffer: asc-devkit asserts len <= bufLen only in the CPU debug build
(kernel_tbuf_impl.h, ASCENDC_CPU_DEBUG), so the device build runs it, and a kernel that then uses no more than the
buffer holds is correct (NPUKernelBench GroupNormSwishGrad Gets ele_num_per_group floats from a buffer sized for
ele_num_per_channel and uses only those). A warning; it was an error that stopped the run."""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void getlen(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    yGm.SetGlobalBuffer((__gm__ float *)y, 64);
    LocalTensor<float> t = buf.Get<float>(GET_LEN);
    DataCopy(t, xGm, 64);
    PipeBarrier<PIPE_ALL>();
    Adds(t, t, 1.0f, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, 64);
}
"""


def _run(get_len: int):
    x = np.arange(64, dtype=np.float32)
    return x, run(KERNEL.replace("GET_LEN", str(get_len)), {"x": x}, block_dim=1, outputs={"y": ((64,), "float32")})


def test_get_past_the_buffer_is_a_warning_when_only_the_buffer_is_used() -> None:
    x, result = _run(400)
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], errors
    warnings = [f for f in result.findings if "Get asks for" in f.message]
    assert warnings and warnings[0].severity.name == "WARNING", result.findings
    np.testing.assert_array_equal(result.outputs["y"], x + 1)


def test_get_within_the_buffer_says_nothing() -> None:
    _, result = _run(64)
    assert not [f for f in result.findings if "Get asks for" in f.message]
