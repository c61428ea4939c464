"""Cores writing the same GM bytes with no atomic mode and no SyncAll between (ASC953): an error when what
stays depends on which write lands last, a warning when every core writes the same bytes (a "found one" flag
each core that finds something sets to 1, as NPUKernelBench's NonFiniteCheckOp does after zeroing it and a
SyncAll): the result is then the same whatever the order.
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void flag(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float *)y, 8);
    yGm.SetValue(0, VALUE);
    DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(yGm);
}
"""


def findings(value: str) -> tuple[list, list, np.ndarray]:
    result = run(KERNEL.replace("VALUE", value), {"x": np.zeros(8, np.float32)}, block_dim=4,
                 outputs={"y": ((8,), "float32")})
    races = [f for f in result.findings if f.code == "ASC953"]
    return [f for f in races if f.severity.name == "ERROR"], [f for f in races if f.severity.name == "WARNING"], \
        result.outputs["y"]


def test_same_bytes_from_every_core_is_a_warning() -> None:
    errors, warnings, y = findings("1.0f")
    assert errors == [] and warnings, warnings
    assert "the same bytes" in warnings[0].message
    assert y[0] == 1.0


def test_different_bytes_stay_an_error() -> None:
    errors, _, _ = findings("static_cast<float>(GetBlockIdx())")
    assert errors and "depends on timing" in errors[0].message


# every core computes the whole output and copies it out with DataCopy (KernelHive where_broadcast's final,
# all 8 cores writing all 8 MB of z): runs far longer than a flag's bytes are compared by a hash of each run
COPY_KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void copy_out(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQueue;
    pipe.InitBuffer(outQueue, 1, 1024 * sizeof(float));
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float *)y, 4096);
    for (int tile = 0; tile < 4; ++tile) {
        LocalTensor<float> t = outQueue.AllocTensor<float>();
        Duplicate(t, VALUE, 1024);
        outQueue.EnQue(t);
        t = outQueue.DeQue<float>();
        DataCopy(yGm[tile * 1024], t, 1024);
        outQueue.FreeTensor(t);
    }
}
"""


def copy_findings(value: str) -> tuple[list, list, np.ndarray]:
    result = run(COPY_KERNEL.replace("VALUE", value), {"x": np.zeros(8, np.float32)}, block_dim=4,
                 outputs={"y": ((4096,), "float32")})
    races = [f for f in result.findings if f.code == "ASC953"]
    return [f for f in races if f.severity.name == "ERROR"], [f for f in races if f.severity.name == "WARNING"], \
        result.outputs["y"]


def test_the_same_long_run_from_every_core_is_a_warning() -> None:
    errors, warnings, y = copy_findings("1.5f")
    assert errors == [] and warnings, (errors, warnings)
    assert "the same bytes" in warnings[0].message
    assert (y == 1.5).all()


def test_a_long_run_with_other_bytes_stays_an_error() -> None:
    errors, _, _ = copy_findings("static_cast<float>(GetBlockIdx())")
    assert errors and "depends on timing" in errors[0].message
