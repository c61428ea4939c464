"""DataCopyPad GM -> UB whose row (left padding + data + right padding) does not fill its last 32-byte block:
the hardware writes the rest of that block too (the CCE intrinsic page of copy_gm_to_ubuf_align, cceapi_0093:
without padding, copies of each burst's first element; with padding, the pad value repeated). NPUKernelBench
SelectReduceMaxDSubExpReduceSumDRealDiv copies 60 halves into a 64-element row and reduces all 64 lanes; before,
the simulator left lanes 60..63 unwritten and every result depended on unwritten UB (ASC952).
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void pad(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 3 * 64 * sizeof(half));
    GlobalTensor<half> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, 120);
    yGm.SetGlobalBuffer((__gm__ half *)y, 128);
    zGm.SetGlobalBuffer((__gm__ half *)z, 32);
    LocalTensor<half> buf = ub.Get<half>();
    // two rows of 60 halves, no padding: each row's last block gets 4 copies of the row's first element
    DataCopyExtParams rows{2, 60 * sizeof(half), 0, 0, 0};
    DataCopyPadExtParams<half> noPad{true, 0, 0, 0};
    DataCopyPad(buf, xGm, rows, noPad);
    // one row of 20 halves with 2 halves of right padding (value 7): 44 bytes, the other 20 bytes hold 7 too
    DataCopyExtParams one{1, 20 * sizeof(half), 0, 0, 0};
    DataCopyPadExtParams<half> rightPad{true, 0, 2, (half)7.0};
    DataCopyPad(buf[128], xGm, one, rightPad);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, buf, 128);
    DataCopy(zGm, buf[128], 32);
}
"""


def test_dummy_data_fills_the_last_block() -> None:
    x = (np.arange(120, dtype=np.float16) + 1) * np.float16(0.5)
    result = run(KERNEL, {"x": x}, block_dim=1,
                 outputs={"y": ((128,), "float16"), "z": ((32,), "float16")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], errors
    y = result.outputs["y"]
    np.testing.assert_array_equal(y[:60], x[:60])
    np.testing.assert_array_equal(y[60:64], np.full(4, x[0]))
    np.testing.assert_array_equal(y[64:124], x[60:])
    np.testing.assert_array_equal(y[124:128], np.full(4, x[60]))
    z = result.outputs["z"]
    np.testing.assert_array_equal(z[:20], x[:20])
    np.testing.assert_array_equal(z[20:32], np.full(12, np.float16(7.0)))
