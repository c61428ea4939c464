"""`reinterpret_cast<int32_t&>(f)` on a float scalar: the variable's bytes read as int32 (C++ [expr.reinterpret.cast]
p11: a glvalue of T1 cast to "reference to T2" is the object read through a T2 lvalue), as ops-transformer
moe_compute_expert_tokens reads the index ReduceMax stores in a float's bits (moe_compute_expert_tokens_int32_ss.h:
`reinterpret_cast<int32_t&>(index) + sumNum`). Before, the reference target was taken for a pointer, and the `+`
was 'arithmetic on a non-GM pointer' (ASC103), the statement left out and the kernel stopped at a call the
lowering could not resolve (ASC958).
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void bits(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    pipe.InitBuffer(inQueue, 1, 8 * sizeof(float));
    pipe.InitBuffer(outQueue, 1, 8 * sizeof(int32_t));
    GlobalTensor<float> xGm;
    GlobalTensor<int32_t> yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 8);
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 8);
    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm, 8);
    inQueue.EnQue(xLocal);
    xLocal = inQueue.DeQue<float>();
    LocalTensor<int32_t> yLocal = outQueue.AllocTensor<int32_t>();
    float first = xLocal.GetValue(0);
    float second = xLocal.GetValue(1);
    float sum = 2.0f;
    int32_t asInt = reinterpret_cast<int32_t&>(first);
    yLocal.SetValue(0, asInt);
    yLocal.SetValue(1, reinterpret_cast<int32_t&>(second) + sum);   // int32 + float: a float, converted back
    yLocal.SetValue(2, (int32_t&)first);
    float back = reinterpret_cast<float&>(asInt);
    yLocal.SetValue(3, static_cast<int32_t>(back * 4.0f));
    for (int i = 4; i < 8; i++) {
        yLocal.SetValue(i, 0);
    }
    outQueue.EnQue(yLocal);
    yLocal = outQueue.DeQue<int32_t>();
    DataCopy(yGm, yLocal, 8);
    inQueue.FreeTensor(xLocal);
    outQueue.FreeTensor(yLocal);
}
"""


def test_reinterpret_cast_to_a_reference_reads_the_bits() -> None:
    # x[0] = 1.5 (bits 0x3FC00000); x[1]'s bits are the integer 7 (a denormal float, as ReduceMax's index is)
    x = np.zeros(8, np.float32)
    x[0] = 1.5
    x[1] = np.array([7], np.int32).view(np.float32)[0]
    result = run(KERNEL, {"x": x}, block_dim=1, outputs={"y": ((8,), "int32")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], errors
    y = result.outputs["y"]
    assert y[0] == 0x3FC00000, hex(int(y[0]))
    assert y[1] == 9, y  # 7 + 2.0f = 9.0f, back to int32
    assert y[2] == 0x3FC00000, hex(int(y[2]))
    assert y[3] == 6, y  # the bits back as float: 1.5 * 4
