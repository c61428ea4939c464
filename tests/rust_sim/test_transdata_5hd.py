"""TransDataTo5HDImpl on arrays of raw UB pointers (`__ubuf__ T *srcList[16]`, filled from `GetPhyAddr()` with
pointer arithmetic in a loop), the form NPUKernelBench LayerNormV4's transpose path uses. The lowering holds a
UB pointer as its byte address (ascendir/lower/ub_pointer.py); the simulator reads the 16 source blocks and
writes the 16 destination blocks per repeat (rust_sim/src/vector/transdata.rs). Before, the pointer array was
lowered as a float array and the call was not simulated (ASC958). Expected values by hand: a half repeat is
the 16 x 16 transpose of its blocks; a float repeat takes column j of the 16 x 8 blocks into dstList[2j]
(rows 0..7) and dstList[2j + 1] (rows 8..15).
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__aicore__ inline void Transpose16(LocalTensor<T> &dst, LocalTensor<T> &src, uint32_t rowLen)
{
    constexpr uint32_t perBlock = 32 / sizeof(T);
    __ubuf__ T *srcAddr = (__ubuf__ T *)src.GetPhyAddr();
    __ubuf__ T *dstAddr = (__ubuf__ T *)dst.GetPhyAddr();
    __ubuf__ T *srcList[16];
    __ubuf__ T *dstList[16];
    for (uint32_t i = 0; i < 16; i++) {
        srcList[i] = srcAddr + rowLen * i;
        dstList[i] = dstAddr + perBlock * i;
    }
    struct TransDataTo5HDParams params;
    params.repeatTimes = rowLen / perBlock;
    params.srcRepStride = 1;
    params.dstRepStride = 16;
    TransDataTo5HDImpl(dstList, srcList, params);
}

extern "C" __global__ __aicore__ void t5hd(GM_ADDR xh, GM_ADDR xf, GM_ADDR yh, GM_ADDR yf, GM_ADDR workspace,
                                           GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 4096);
    GlobalTensor<half> xhGm, yhGm;
    GlobalTensor<float> xfGm, yfGm;
    xhGm.SetGlobalBuffer((__gm__ half *)xh, 512);
    yhGm.SetGlobalBuffer((__gm__ half *)yh, 512);
    xfGm.SetGlobalBuffer((__gm__ float *)xf, 256);
    yfGm.SetGlobalBuffer((__gm__ float *)yf, 256);
    LocalTensor<half> srcH = ub.GetWithOffset<half>(512, 0);
    LocalTensor<half> dstH = ub.GetWithOffset<half>(512, 1024);
    LocalTensor<float> srcF = ub.GetWithOffset<float>(256, 2048);
    LocalTensor<float> dstF = ub.GetWithOffset<float>(256, 3072);
    DataCopy(srcH, xhGm, 512);
    DataCopy(srcF, xfGm, 256);
    PipeBarrier<PIPE_ALL>();
    Transpose16(dstH, srcH, 32);
    Transpose16(dstF, srcF, 16);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yhGm, dstH, 512);
    DataCopy(yfGm, dstF, 256);
}
"""


def test_half_and_float_blocks_transpose() -> None:
    xh = (np.arange(512) % 1000).astype(np.float16).reshape(16, 32)
    xf = np.arange(256, dtype=np.float32).reshape(16, 16) * 0.5
    result = run(KERNEL, {"xh": xh.reshape(-1), "xf": xf.reshape(-1)}, block_dim=1,
                 outputs={"yh": ((512,), "float16"), "yf": ((256,), "float32")})
    errors = [f for f in result.findings if f.severity.name == "ERROR"]
    assert errors == [], errors
    # half: repeat r transposes columns 16r..16r+15 of the 16 x 32 rows into dst blocks 16r..16r+15
    np.testing.assert_array_equal(result.outputs["yh"].reshape(32, 16), xh.T)
    # float: dst block 2j + h of repeat r holds rows 8h..8h+7 of column 8r + j, so the blocks read in order are
    # the 16 x 16 transpose
    np.testing.assert_array_equal(result.outputs["yf"].reshape(16, 16), xf.T)
