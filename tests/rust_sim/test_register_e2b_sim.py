"""Load distributions E2B, BLK, US and DS (issue 28, session 12), by asc-devkit's LoadAlign page
(docs .../Reg数据搬入/连续对齐搬入（LoadAlign）.md, table 3): `DIST_E2B_B32` loads VL / 32 = 8 floats and broadcasts each to a 32-byte
block (lane i is element i // 8), `DIST_E2B_B16` 8 halves over 16 lanes each, `DIST_BLK` repeats one 32-byte
block over the register, `DIST_US_B16` repeats each of VL / 2 bytes' halves twice, `DIST_DS_B16` keeps every other
half of 2 * VL bytes. ops-nn gather_nd's vgather key loads its index strides with E2B; before, each was a
named ASC958 ('LoadDist::DIST_E2B_B32 is not modelled')."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__simd_vf__ inline void LoadVF(__ubuf__ T* yAddr, __ubuf__ T* xAddr)
{
    Reg::RegTensor<T> a;
    Reg::MaskReg all = Reg::CreateMask<T>();
    Reg::LoadAlign<T, Reg::LoadDist::DIST>(a, xAddr);
    Reg::StoreAlign(yAddr, a, all);
}

extern "C" __global__ __aicore__ void reg_e2b(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<TYPE> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ TYPE *)x, NX);
    yGm.SetGlobalBuffer((__gm__ TYPE *)y, NY);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb;
    pipe.InitBuffer(xb, NX * sizeof(TYPE));
    pipe.InitBuffer(yb, NY * sizeof(TYPE));
    LocalTensor<TYPE> xl = xb.Get<TYPE>();
    LocalTensor<TYPE> yl = yb.Get<TYPE>();
    DataCopy(xl, xGm, NX);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<LoadVF<TYPE>>((__ubuf__ TYPE *)yl.GetPhyAddr(), (__ubuf__ TYPE *)xl.GetPhyAddr());
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, yl, NY);
}
"""


@pytest.mark.parametrize("dist, ctype, dtype, lane", [
    ("DIST_E2B_B32", "float", np.float32, lambda i: i // 8),
    ("DIST_E2B_B16", "half", np.float16, lambda i: i // 16),
    ("DIST_BLK", "float", np.float32, lambda i: i % 8),
    ("DIST_US_B16", "half", np.float16, lambda i: i // 2),
    ("DIST_DS_B16", "half", np.float16, lambda i: 2 * i),
])
def test_e2b_and_blk_loads_equal_numpy(tmp_path: Path, dist: str, ctype: str, dtype, lane) -> None:
    n = 256 // np.dtype(dtype).itemsize
    x = np.random.default_rng(0).standard_normal(2 * n).astype(dtype)  # DS reads two registers' worth
    src = tmp_path / "reg_e2b.cpp"
    src.write_text(KERNEL.replace("DIST>", dist + ">").replace("TYPE", ctype).replace("NX", str(2 * n))
                   .replace("NY", str(n)), encoding="utf-8")
    result = run(str(src), {"x": x}, chip="950PR", block_dim=1, outputs={"y": ((n,), np.dtype(dtype).name)})
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], x[[lane(i) for i in range(n)]])


BLOCKS = """
#include "kernel_operator.h"
using namespace AscendC;

__simd_vf__ inline void BlocksVF(__ubuf__ float* yAddr, __ubuf__ float* xAddr)
{
    Reg::RegTensor<float> a;
    Reg::MaskReg all = Reg::CreateMask<float>();
    Reg::MaskReg first = Reg::CreateMask<float, Reg::MaskPattern::PATTERN>();
    Reg::LoadAlign<float, Reg::DataCopyMode::DATA_BLOCK_COPY>(a, xAddr, 2, first);
    Reg::StoreAlign<float, Reg::DataCopyMode::DATA_BLOCK_COPY>(yAddr, a, 1, all);
    Reg::LoadAlign<float, Reg::DataCopyMode::DATA_BLOCK_COPY>(a, xAddr, 1, all);
    Reg::StoreAlign<float, Reg::DataCopyMode::DATA_BLOCK_COPY>(yAddr + 64, a, 2, first);
}

extern "C" __global__ __aicore__ void reg_blocks(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 256);
    yGm.SetGlobalBuffer((__gm__ float *)y, 256);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb;
    pipe.InitBuffer(xb, 256 * sizeof(float));
    pipe.InitBuffer(yb, 256 * sizeof(float));
    LocalTensor<float> xl = xb.Get<float>();
    LocalTensor<float> yl = yb.Get<float>();
    DataCopy(xl, xGm, 256);
    Duplicate(yl, -1.0f, 256);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<BlocksVF>((__ubuf__ float *)yl.GetPhyAddr(), (__ubuf__ float *)xl.GetPhyAddr());
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, yl, 256);
}
"""


def _blocks(tmp_path: Path, pattern: str):
    x = np.arange(256, dtype=np.float32)
    src = tmp_path / "reg_blocks.cpp"
    src.write_text(BLOCKS.replace("PATTERN", pattern), encoding="utf-8")
    return x, run(str(src), {"x": x}, chip="950PR", block_dim=1, outputs={"y": ((256,), "float32")})


def test_data_block_copy_moves_32_byte_blocks_at_a_stride(tmp_path: Path) -> None:
    # DATA_BLOCK_COPY (非连续对齐搬入/搬出（LoadAlign / StoreAlign）.md): block k at addr + k * stride * 32 bytes; a
    # load leaves a block with no selected element 0, a store leaves it unwritten
    x, result = _blocks(tmp_path, "VL16")  # elements 0..15: blocks 0 and 1
    assert result.ok, [str(d) for d in result.findings]
    want = np.full(256, -1.0, np.float32)
    want[:8], want[8:16], want[16:64] = x[:8], x[16:24], 0.0  # x's blocks 0 and 2 (stride 2), the rest zero
    want[64:72], want[80:88] = x[:8], x[8:16]  # blocks 0, 1 of x to y + 64 at stride 2
    np.testing.assert_array_equal(result.outputs["y"], want)


def test_data_block_copy_store_of_a_partly_selected_block_is_named(tmp_path: Path) -> None:
    _, result = _blocks(tmp_path, "VL4")  # half of block 0
    assert any(d.code == "ASC958" and "4 of its 8 elements selected" in d.message for d in result.findings), \
        [str(d) for d in result.findings]
