"""SyncAll's software form, `SyncAll(gmWorkspace, ubWorkspace, usedCores)` (the catalog's 'soft' overload: the
cores count one another in a GM workspace through a UB one; ops-nn embedding_dense_grad), is the same barrier
across the launch's cores as the hardware form. The simulator ran only the hardware one (ASC958 'does not model
AscendC::SyncAll (overload 'soft')')."""

from __future__ import annotations

import numpy as np

from passes.sim import run

# each core writes its row of y, meets the others, then reads the next core's row back from GM into z
KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void swap_rows(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR sync)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, syncBuf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    pipe.InitBuffer(syncBuf, 256);
    GlobalTensor<float> xGm, yGm, zGm;
    GlobalTensor<int32_t> syncGm;
    int32_t core = GetBlockIdx();
    int32_t cores = GetBlockNum();
    xGm.SetGlobalBuffer((__gm__ float *)x);
    yGm.SetGlobalBuffer((__gm__ float *)y);
    zGm.SetGlobalBuffer((__gm__ float *)z);
    syncGm.SetGlobalBuffer((__gm__ int32_t *)sync);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm[core * 64], 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm[core * 64], t, 64);
    PipeBarrier<PIPE_ALL>();
    SyncAll(syncGm, syncBuf.Get<int32_t>(), cores);
    DataCopy(t, yGm[((core + 1) % cores) * 64], 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm[core * 64], t, 64);
}
"""


def test_the_soft_sync_all_is_a_barrier_across_the_cores() -> None:
    x = np.arange(4 * 64, dtype=np.float32)
    sync = np.zeros(4 * 8, np.int32)
    result = run(KERNEL, {"x": x, "sync": sync}, block_dim=4,
                 outputs={"y": np.zeros(4 * 64, np.float32), "z": np.zeros(4 * 64, np.float32)})
    assert result.ok, [str(d) for d in result.findings]
    assert np.array_equal(result.outputs["y"], x)
    assert np.array_equal(result.outputs["z"], np.roll(x.reshape(4, 64), -1, axis=0).reshape(-1))
