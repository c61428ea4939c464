"""A call of a name the program defines that none of the program's functions of that name can take (by its
number of arguments) is the library's function of that name: C++ sees both through `using namespace AscendC`
and overload resolution drops the program's. ops-nn mat_mul_v3's mat_mul_nd2nz_util.h defines a 3-argument
`Copy(dst, src, count)`, and its ND-to-NZ transposition (CopyPadNd2Nz) calls the library's 5-argument UB-to-UB
`Copy(dst, src, mask, repeatTime, CopyRepeatParams)`; the lowering inlined the program's helper for it (the only
overload, taken whatever its arity), the rows were never turned into fractals and the Matmul of
50x100 @ 100x70 read A and B in the wrong layout (bench/README.md, session 14, engineer mmv3c).
The kernel below is the team's: the same shape of program, a helper of its own named Copy beside the library's.
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

// the program's own Copy: a whole-buffer copy in repeats of 256 bytes, by the library's Copy it calls
template <class T>
__aicore__ inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count)
{
    Copy(dst, src, 128, count / 128, {1, 1, 8, 8});
}

extern "C" __global__ __aicore__ void to_fractals(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                  GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 16384);
    GlobalTensor<half> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, 16 * 128);
    yGm.SetGlobalBuffer((__gm__ half *)y, 16 * 128);
    zGm.SetGlobalBuffer((__gm__ half *)z, 16 * 128);
    LocalTensor<half> rows = ub.Get<half>();
    LocalTensor<half> fractals = rows[2048];
    LocalTensor<half> same = rows[4096];
    DataCopy(rows, xGm, 16 * 128);
    PipeBarrier<PIPE_ALL>();
    uint16_t height = 16;
    uint16_t rowBlocks = 8;
    // 16 rows of 128 halves to eight 16 x 16 fractals: block b of row i lands at i * 16 + b * 256
    Copy(fractals, rows, 128, 16, {height, 1, 1, rowBlocks});
    Copy(same, rows, 16 * 128);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, fractals, 16 * 128);
    DataCopy(zGm, same, 16 * 128);
}
"""


def test_a_call_the_programs_function_cannot_take_is_the_librarys() -> None:
    x = np.arange(16 * 128).astype(np.float16)
    result = run(KERNEL, {"x": x}, block_dim=1,
                 outputs={"y": ((16 * 128,), "float16"), "z": ((16 * 128,), "float16")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], errors
    # the library's Copy with block stride 16 (dstStride) and repeat stride 1 (dstRepeatSize): fractals
    np.testing.assert_array_equal(result.outputs["y"], x.reshape(16, 8, 16).transpose(1, 0, 2).reshape(-1))
    # the program's 3-argument Copy, whose own 5-argument call is the library's again
    np.testing.assert_array_equal(result.outputs["z"], x)
