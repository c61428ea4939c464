"""A UB pointer parameter of an inlined function, stepped by the register API's post-update loads and stores
(issue 28; ops-math arg_max_with_value_base.h: `DataCopyUnAlign<T, POST_MODE_UPDATE>(v, u, (__local_mem__ T *&)src,
n)` on `__local_mem__ void *src`). Each call reads or writes at the pointer and then moves it n elements on, so the
parameter is a variable of the function (a copy of the caller's pointer). It was bound as a value: every step was
ASC103 'assignment to 'src', which is not a variable' (ASC958 when run) and each row read the first one again."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

SOURCE = """
#include "kernel_operator.h"
using namespace AscendC;
using T = float;

template <typename T1>
class RowCopy {
public:
    template <typename T4>
    __aicore__ inline void Run(__local_mem__ void *dst, __local_mem__ void *src, uint16_t rows, uint32_t n)
    {
        __VEC_SCOPE__
        {
            AscendC::MicroAPI::RegTensor<T4> value;
            AscendC::MicroAPI::UnalignReg uSrc, uDst;
            AscendC::MicroAPI::DataCopyUnAlignPre(uSrc, (__local_mem__ T4 *&)src);
            for (uint16_t a = 0; a < rows; a++) {
                AscendC::MicroAPI::DataCopyUnAlign<T4, AscendC::MicroAPI::PostLiteral::POST_MODE_UPDATE>(value, uSrc,
                    (__local_mem__ T4 *&)src, n);
                AscendC::MicroAPI::Adds(value, value, (T4)100, AscendC::MicroAPI::CreateMask<T4>());
                AscendC::MicroAPI::DataCopyUnAlign<T4, AscendC::MicroAPI::PostLiteral::POST_MODE_UPDATE>(
                    (__local_mem__ T4 *&)dst, value, uDst, n);
            }
            AscendC::MicroAPI::DataCopyUnAlignPost((__local_mem__ T4 *&)dst, uDst, 0);
        }
    }
};

extern "C" __global__ __aicore__ void row_copy(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T *)x, td.padded);
    yGm.SetGlobalBuffer((__gm__ T *)y, td.padded);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb;
    pipe.InitBuffer(xb, td.padded * sizeof(T));
    pipe.InitBuffer(yb, td.padded * sizeof(T));
    LocalTensor<T> xl = xb.Get<T>();
    LocalTensor<T> yl = yb.Get<T>();
    DataCopy(xl, xGm, td.padded);
    Duplicate(yl, (T)-1, td.padded);
    PipeBarrier<PIPE_ALL>();
    RowCopy<T> k;
    k.Run<T>((__local_mem__ void *)yl.GetPhyAddr(), (__local_mem__ void *)xl.GetPhyAddr(), td.rows, td.n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, yl, td.padded);
}
"""


def test_post_update_steps_a_pointer_parameter_row_by_row(tmp_path: Path) -> None:
    # 3 rows of 5 read and written back to back (without the steps: the first row three times over itself)
    src = tmp_path / "row_copy.cpp"
    src.write_text(SOURCE, encoding="utf-8")
    x = np.arange(64, dtype=np.float32)
    result = run(str(src), {"x": x}, chip="950PR", block_dim=1, tiling={"rows": 3, "n": 5, "padded": 64},
                 outputs={"y": ((64,), "float32")})
    assert result.ok, [str(d) for d in result.findings]
    want = np.full(64, -1, np.float32)
    want[:15] = x[:15] + 100
    np.testing.assert_array_equal(result.outputs["y"], want)
