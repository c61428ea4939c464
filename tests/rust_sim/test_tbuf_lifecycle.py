"""TBuf calls that compile and do nothing on the device: FreeTensor (TBuf inherits it from TQueBind) and a
Get() of a TBuf the kernel never initialised, whose tensor is not used (NPUKernelBench's Neg frees its TBuf
tensors; TanhMath takes a float scratch tensor on a path that needs none). Using such a tensor is still a
finding, at the access."""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void negate(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x);
    yGm.SetGlobalBuffer((__gm__ float *)y);
    TPipe pipe;
    TBuf<TPosition::VECCALC> work;
    TBuf<TPosition::VECCALC> never;
    pipe.InitBuffer(work, 64 * sizeof(float));
    LocalTensor<float> unused = never.Get<float>();
    LocalTensor<float> t = work.Get<float>();
    DataCopy(t, xGm, 64);
    PipeBarrier<PIPE_ALL>();
    Muls(t, t, -1.0f, 64);
    if (td.useNever) {
        Muls(unused, t, 2.0f, 64);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, 64);
    work.FreeTensor(t);
}
"""


def simulate(use_never: int) -> object:
    x = np.arange(64, dtype=np.float32)
    return run(KERNEL, {"x": x}, block_dim=1, tiling={"useNever": use_never}, outputs={"y": ((64,), "float32")})


def test_free_and_unused_get_change_nothing() -> None:
    result = simulate(0)
    assert result.ok, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], -np.arange(64, dtype=np.float32))


def test_the_tensor_of_an_uninitialised_tbuf_faults_where_it_is_used() -> None:
    result = simulate(1)
    bad = [d for d in result.errors if "never allocated" in d.message]
    assert bad and bad[0].span is not None and bad[0].span.line == 20, [str(d) for d in result.findings]


SHORT_TENSOR = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void fill8(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float *)y);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8 * sizeof(float));
    LocalTensor<float> t = buf.Get<float>(0);   // a 0-element tensor over the buffer, used for 8
    Duplicate(t, 3.0f, 8);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, 8);
}
"""


def test_a_count_past_the_tensor_inside_its_buffer_is_a_warning() -> None:
    # only the CPU debug build checks a count against the tensor's length; the device runs it
    result = run(SHORT_TENSOR, {}, block_dim=1, outputs={"y": ((8,), "float32")})
    assert result.ok, [str(d) for d in result.findings]
    assert any(d.code == "ASC959" and not d.is_error for d in result.findings)
    assert np.array_equal(result.outputs["y"], np.full(8, 3.0, dtype=np.float32))
