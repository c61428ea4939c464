"""One element read or written through a raw UB pointer (issue 28): `rowOf[k]`, `*(y + 64) = v`, `y[65] = x[i]` on
`__ubuf__ T *` parameters of a vector function (ops-nn scatter_add_deterministic.h reads its row numbers so,
`updatesOriginIdexAddr[idLocation + k]`; SIMT threads address UB the same way). Each is the scalar GetValue /
SetValue of the UB memory at the pointer's address (`ascendc.ub_ptr_tensor`, the simulator's `ub2ptr`). Before,
each was ASC103 'indexing a value of type __ubuf__ uint32_t*' and the row numbers unknown."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

SOURCE = """#include "kernel_operator.h"
using namespace AscendC;
using T = float;

__simd_vf__ inline void SumRowsVF(__ubuf__ T* yAddr, __ubuf__ T* xAddr, __ubuf__ uint32_t* rowOf, uint32_t rows)
{
    AscendC::MicroAPI::RegTensor<T> acc, v;
    AscendC::MicroAPI::MaskReg mask = AscendC::MicroAPI::CreateMask<T>();
    AscendC::MicroAPI::Duplicate(acc, (T)0, mask);
    for (uint16_t k = 0; k < rows; k++) {
        uint32_t r = rowOf[k];
        AscendC::MicroAPI::LoadAlign(v, xAddr + r * 64);
        AscendC::MicroAPI::Add(acc, acc, v, mask);
    }
    AscendC::MicroAPI::StoreAlign(yAddr, acc, mask);
    *(yAddr + 64) = (T)rowOf[0];
    yAddr[65] = xAddr[rowOf[1] * 64 + 1];
}

extern "C" __global__ __aicore__ void ubread(GM_ADDR x, GM_ADDR idx, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<uint32_t> iGm;
    xGm.SetGlobalBuffer((__gm__ T *)x, 256);
    iGm.SetGlobalBuffer((__gm__ uint32_t *)idx, 8);
    yGm.SetGlobalBuffer((__gm__ T *)y, 128);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, ib, yb;
    pipe.InitBuffer(xb, 256 * sizeof(T));
    pipe.InitBuffer(ib, 8 * sizeof(uint32_t));
    pipe.InitBuffer(yb, 128 * sizeof(T));
    LocalTensor<T> xl = xb.Get<T>();
    LocalTensor<uint32_t> il = ib.Get<uint32_t>();
    LocalTensor<T> yl = yb.Get<T>();
    DataCopy(xl, xGm, 256);
    DataCopy(il, iGm, 8);
    Duplicate(yl, (T)-1, 128);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<SumRowsVF>((__ubuf__ T *)yl.GetPhyAddr(), (__ubuf__ T *)xl.GetPhyAddr(),
                           (__ubuf__ uint32_t *)il.GetPhyAddr(), td.rows);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, yl, 128);
}
"""


def test_row_numbers_read_through_a_ub_pointer_pick_the_rows_summed(tmp_path: Path) -> None:
    src = tmp_path / "ubread.cpp"
    src.write_text(SOURCE, encoding="utf-8")
    x = np.arange(256, dtype=np.float32)
    rows = np.array([3, 1, 3, 0, 0, 0, 0, 0], dtype=np.uint32)
    result = run(str(src), {"x": x, "idx": rows}, chip="950PR", block_dim=1, tiling={"rows": 3},
                 outputs={"y": ((128,), "float32")})
    assert result.ok, [str(d) for d in result.findings]
    y = result.outputs["y"]
    np.testing.assert_array_equal(y[:64], x.reshape(4, 64)[[3, 1, 3]].sum(axis=0))
    assert y[64] == 3 and y[65] == x[1 * 64 + 1]  # `*(yAddr + 64) = rowOf[0]`, `yAddr[65] = xAddr[rowOf[1] * 64 + 1]`
    np.testing.assert_array_equal(y[66:], np.full(62, -1, np.float32))
