"""Issue 28: a kernel that lowers with a gap runs if the gap is not on the path the launch takes; where it is, the
core stops there (ASC958 at its line, naming the construct). Before, one op the simulator program could not express
anywhere refused the whole kernel ("the simulator cannot run this kernel", nothing evaluated), as for NPUKernelBench
RmsNorm's tensor of element type none. The construct here is a run-time choice between two queues
(`c ? inQ : inQ2`): the program declares its objects statically, so it has no register to hold the chosen one. Its
result therefore has no storage, and the uses of it (`q.AllocTensor`, `q.FreeTensor`) are unsupported in turn.
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void gap_on_a_path(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECIN, 1> inQ2;
    TQue<TPosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, 64 * sizeof(float));
    pipe.InitBuffer(inQ2, 1, 64 * sizeof(float));
    pipe.InitBuffer(outQ, 1, 64 * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    yGm.SetGlobalBuffer((__gm__ float *)y, 64);
    if (GetBlockNum() > LIMIT) {
        TQue<TPosition::VECIN, 1> &q = GetBlockIdx() > 2 ? inQ : inQ2;  // GAP
        LocalTensor<float> t = q.AllocTensor<float>();
        q.FreeTensor(t);
    }
    LocalTensor<float> a = inQ.AllocTensor<float>();
    DataCopy(a, xGm, 64);
    inQ.EnQue(a);
    a = inQ.DeQue<float>();
    LocalTensor<float> b = outQ.AllocTensor<float>();
    Muls(b, a, 2.0f, 64);
    inQ.FreeTensor(a);
    outQ.EnQue(b);
    b = outQ.DeQue<float>();
    DataCopy(yGm, b, 64);
    outQ.FreeTensor(b);
}
"""
GAP_LINE = next(i for i, text in enumerate(KERNEL.splitlines(), start=1) if "// GAP" in text)


def _run(limit: int):  # type: ignore[no-untyped-def]
    x = np.arange(64, dtype=np.float32)
    return x, run(KERNEL.replace("LIMIT", str(limit)), [x], block_dim=1, outputs={"y": ((64,), "float32")})


def test_a_construct_on_a_branch_the_launch_does_not_take_leaves_the_kernel_runnable() -> None:
    x, result = _run(4)  # one block: GetBlockNum() > 4 is false
    assert result.completed, [d.message for d in result.findings]
    assert not result.findings, [d.message for d in result.findings]
    assert np.array_equal(result.outputs["y"], 2 * x)


def test_the_same_construct_on_the_path_taken_stops_the_core_at_its_line_naming_it() -> None:
    _, result = _run(0)
    hits = [d for d in result.findings if d.code == "ASC958"]
    assert len(hits) == 1, [str(d) for d in result.findings]
    assert "a choice at run time between two objects" in hits[0].message, hits[0].message
    assert hits[0].span is not None and hits[0].span.line == GAP_LINE, hits[0].span
