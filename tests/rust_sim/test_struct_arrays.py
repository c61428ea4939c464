"""Arrays of a kernel's own plain structs indexed at run time (`SplitExtraInfo extraInfo[3]` read as
extraInfo[taskId % 3] in NPUKernelBench's large-head-dim flash attention): held as arrays of objects of that
class (ascendir/lower/object_arrays.py). They reached the simulator as 'an array of !ascendc.tiling<...>'."""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
struct Info {
    int64_t start;
    int32_t size;
};
class K {
public:
    __aicore__ inline void Init(GM_ADDR x) {
        xGm.SetGlobalBuffer((__gm__ float *)x, 64);
        pipe.InitBuffer(buf, 256);
    }
    __aicore__ inline void Fill(Info &info, int64_t i) { info.start = i * 16; info.size = 16; }
    __aicore__ inline void Use(Info &info) {
        LocalTensor<float> t = buf.Get<float>();
        Duplicate(t, (float)info.start, info.size);
        PipeBarrier<PIPE_ALL>();
        DataCopy(xGm[info.start], t, info.size);
        PipeBarrier<PIPE_ALL>();
    }
    __aicore__ inline void Process() {
        Info infos[3];
        for (int64_t i = 0; i < (int64_t)GetBlockNum() + 3; i++) {
            Fill(infos[i % 3], i);
            if (i >= 1) {
                Use(infos[(i + 2) % 3]);
            }
        }
        Use(infos[(GetBlockNum() + 2) % 3]);
    }
    TPipe pipe;
    TBuf<> buf;
    GlobalTensor<float> xGm;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling) {
    K op;
    op.Init(x);
    op.Process();
}
"""


def test_elements_filled_and_read_at_run_time_indices() -> None:
    result = run(KERNEL, {}, block_dim=1, outputs={"x": ((64,), "float32")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], errors
    # step i fills infos[i % 3] with i and writes the one filled a step before; the last write reads step 3's
    np.testing.assert_array_equal(result.outputs["x"], np.repeat(np.arange(4, dtype=np.float32) * 16, 16))
