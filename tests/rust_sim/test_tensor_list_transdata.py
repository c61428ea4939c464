"""TransDataTo5HD on arrays of LocalTensors (`LocalTensor<float> dstList[16]`, filled at a run-time index in a
loop): the overload `TransDataTo5HD<T>(LocalTensor<T> dstList[16], LocalTensor<T> srcList[16], params)`, which
ops-nn's pooling kernels call (pool_3d_memory_optimized_utils.h). The builder passes the tensors' addresses as the
uint64 list the address form takes (passes/sim/builder_cells.py, tensor_addresses). Before, the overload resolved
to the `uint64_t dstList[16]` form and the simulator program named the handle array where a stack array belongs:
an internal error (ValueError from the program's parser, 'expected a r register, found HandleArray(...)').
An array of GlobalTensors matches neither list form: a no-matching-overload finding at the call (ASC101).
Expected values by hand: a float repeat takes column j of the 16 x 8 source blocks into dstList[2j] (rows 0..7)
and dstList[2j + 1] (rows 8..15), so with blocks laid out in order the output is the 16 x 16 transpose.
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void t5hd_list(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 2048);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 256);
    yGm.SetGlobalBuffer((__gm__ float *)y, 256);
    LocalTensor<float> src = ub.GetWithOffset<float>(256, 0);
    LocalTensor<float> dst = ub.GetWithOffset<float>(256, 1024);
    DataCopy(src, xGm, 256);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<float> dstList[16];
    LocalTensor<float> srcList[16];
    for (int i = 0; i < 16; i++) {
        srcList[i] = src[i * 16];
        dstList[i] = dst[i * 8];
    }
    TransDataTo5HDParams params;
    params.repeatTimes = 2;
    params.srcRepStride = 1;
    params.dstRepStride = 16;
    TransDataTo5HD<float>(dstList, srcList, params);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, dst, 256);
}
"""


def test_local_tensor_lists_transpose_float_blocks() -> None:
    x = np.arange(256, dtype=np.float32).reshape(16, 16) * 0.5
    result = run(KERNEL, {"x": x.reshape(-1)}, block_dim=1, outputs={"y": ((256,), "float32")})
    errors = [f for f in result.findings if f.is_error]
    assert errors == [], errors
    np.testing.assert_array_equal(result.outputs["y"].reshape(16, 16), x.T)


def test_global_tensor_lists_match_no_overload() -> None:
    source = KERNEL.replace("LocalTensor<float> dstList[16];", "GlobalTensor<float> dstList[16];").replace(
        "dstList[i] = dst[i * 8];", "dstList[i] = yGm[i * 8];")
    result = run(source, {"x": np.zeros(256, np.float32)}, block_dim=1, outputs={"y": ((256,), "float32")})
    found = [f for f in result.findings if f.code == "ASC101"]
    assert found and "TransDataTo5HD" in found[0].message, result.findings
    assert any("array of GlobalTensor<float>" in n.message for n in found[0].notes), found[0].notes
