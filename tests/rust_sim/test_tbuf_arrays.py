"""Arrays of TBuf objects (`TBuf<> sumBuf[2];`, NPUKernelBench's large-head-dim flash attention): one buffer per
element, and `bufs[i].Get<T>()` with i known only at run time gets the buffer i names. The simulator stopped at 'an
array of !ascendc.tbuf<VECCALC>'."""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

class KernelPingPong {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y) {
        xGm.SetGlobalBuffer((__gm__ float *)x, 64);
        yGm.SetGlobalBuffer((__gm__ float *)y, 64);
        pipe.InitBuffer(bufs[0], 32 * sizeof(float));
        pipe.InitBuffer(bufs[1], 32 * sizeof(float));
    }
    __aicore__ inline void Process() {
        for (int32_t i = 0; i < (int32_t)GetBlockNum() + 1; i++) {
            LocalTensor<float> t = bufs[i].Get<float>();  // i is known only at run time
            DataCopy(t, xGm[i * 32], 32);
        }
        PipeBarrier<PIPE_ALL>();
        LocalTensor<float> first = bufs[0].Get<float>();
        LocalTensor<float> second = bufs[1].Get<float>();
        Adds(second, second, 100.0f, 32);
        PipeBarrier<PIPE_ALL>();
        DataCopy(yGm, first, 32);
        DataCopy(yGm[32], second, 32);
    }
private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> bufs[2];
    GlobalTensor<float> xGm, yGm;
};

extern "C" __global__ __aicore__ void pingpong(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelPingPong op;
    op.Init(x, y);
    op.Process();
}
"""


def test_an_element_chosen_at_run_time_gets_its_own_buffer() -> None:
    x = np.arange(64, dtype=np.float32)
    result = run(KERNEL, {"x": x}, block_dim=1, outputs={"y": ((64,), "float32")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], errors
    np.testing.assert_array_equal(result.outputs["y"], np.concatenate([x[:32], x[32:] + 100]))
