"""Arrays of GlobalTensors (`GlobalTensor<float> mm1Res[2];`, members of NPUKernelBench's large-head-dim flash
attention, set up at constant indices and written at `mm1Res[taskId % 2]`): each element is a tensor object of its
own (ascendir/lower/lower_decls.new_array), and SetGlobalBuffer on an element sets that element up (passes/sim
ascendc_ops). The elements were never made and the set-up was lost on a copy: every write through one was ASC950
'a tensor that has no memory'."""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
class K {
public:
    __aicore__ inline void Init(GM_ADDR x) {
        res[0].SetGlobalBuffer((__gm__ float *)x);
        res[1].SetGlobalBuffer((__gm__ float *)(x + 64 * sizeof(float)));
        pipe.InitBuffer(buf, 256);
    }
    __aicore__ inline void Process() {
        for (int64_t i = 0; i < 3; i++) {
            LocalTensor<float> t = buf.Get<float>();
            Duplicate(t, (float)(i + 1), 64);
            PipeBarrier<PIPE_ALL>();
            DataCopy(this->res[(i + GetBlockIdx()) % 2], t, 64);
            PipeBarrier<PIPE_ALL>();
        }
    }
    TPipe pipe;
    TBuf<> buf;
    GlobalTensor<float> res[2];
};
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling) {
    K op;
    op.Init(x);
    op.Process();
}
"""


def test_elements_set_up_and_written_at_run_time_indices() -> None:
    result = run(KERNEL, {}, block_dim=1, outputs={"x": ((128,), "float32")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], errors
    # steps 0, 1, 2 write 1, 2, 3 into res[0], res[1], res[0]
    np.testing.assert_array_equal(result.outputs["x"], np.repeat(np.array([3, 2], dtype=np.float32), 64))
