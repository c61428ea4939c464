"""SIMT launches on the 950's vector unit (issue 28): `asc_vf_call<F>(dim3(n), args...)` and
`Simt::VF_CALL<F>(Simt::Dim3(x, y), args...)` run F once per thread, threads one after another in the order of their
linear index (ascendir/lower/simt_launch.py: threadIdx / blockDim / blockIdx, Simt::GetThreadIdx<d>() /
GetThreadNum<d>(), as asc-devkit's SIMT pages define them). A launch whose threads synchronise (asc_syncthreads)
runs them together (test_simt_meet.py); one whose threads reach its barrier unevenly hangs, and says so. Before,
every launch was 'the call of asc_vf_call / dim3, which the lowering could not resolve' (ASC958 when run) and wrote
nothing."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

SOURCE = """#include "kernel_operator.h"
using namespace AscendC;
using T = float;
constexpr uint32_t THREADS = 16;

__simt_vf__ __aicore__ LAUNCH_BOUND(THREADS) inline void GatherRows(__ubuf__ T* dst, __gm__ T* src,
                                                                    __ubuf__ int32_t* index, uint32_t n)
{
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) {
        dst[i] = src[index[i]] + static_cast<T>(blockIdx.x * 1000);
    }
}

__simt_vf__ __aicore__ LAUNCH_BOUND(32) inline void Grid2D(__gm__ T* out, uint32_t base)
{
    // out[y][x] = the thread's linear index, written by the thread itself
    uint32_t x = Simt::GetThreadIdx<0>();
    uint32_t y = Simt::GetThreadIdx<1>();
    uint32_t linear = x + y * Simt::GetThreadNum<0>();
    out[base + linear] = static_cast<T>(linear * 10 + Simt::GetThreadNum<1>());
}

extern "C" __global__ __aicore__ void simt_gather(GM_ADDR x, GM_ADDR idx, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                  GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<int32_t> iGm;
    GlobalTensor<T> yGm;
    iGm.SetGlobalBuffer((__gm__ int32_t *)idx, 64);
    yGm.SetGlobalBuffer((__gm__ T *)y, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> ib, yb;
    pipe.InitBuffer(ib, 64 * sizeof(int32_t));
    pipe.InitBuffer(yb, 64 * sizeof(T));
    LocalTensor<int32_t> il = ib.Get<int32_t>();
    LocalTensor<T> yl = yb.Get<T>();
    DataCopy(il, iGm, 64);
    Duplicate(yl, (T)-1, 64);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<GatherRows>(dim3(THREADS), (__ubuf__ T *)yl.GetPhyAddr(), (__gm__ T *)x,
                            (__ubuf__ int32_t *)il.GetPhyAddr(), td.n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, yl, 64);
    Simt::VF_CALL<Grid2D>(Simt::Dim3(4, 4), (__gm__ T *)z, 0u);
}
"""


def test_threads_gather_by_index_and_a_2d_launch_sees_its_thread_indices(tmp_path: Path) -> None:
    src = tmp_path / "simt_gather.cpp"
    src.write_text(SOURCE, encoding="utf-8")
    x = np.arange(100, dtype=np.float32) * 0.5
    idx = (np.arange(64, dtype=np.int32) * 7) % 100
    result = run(str(src), {"x": x, "idx": idx}, chip="950PR", block_dim=1, tiling={"n": 50},
                 outputs={"y": ((64,), "float32"), "z": ((16,), "float32")})
    assert result.ok, [str(d) for d in result.findings]
    want = np.full(64, -1, np.float32)
    want[:50] = x[idx[:50]]  # 16 threads stride over 50 elements: each element once
    np.testing.assert_array_equal(result.outputs["y"], want)
    # Dim3(4, 4): thread (x, y) writes its linear index x + 4 y, times 10, plus GetThreadNum<1>() = 4
    np.testing.assert_array_equal(result.outputs["z"], np.arange(16, dtype=np.float32) * 10 + 4)


def test_a_barrier_in_a_loop_of_uneven_trips_hangs(tmp_path: Path) -> None:
    # 16 threads striding over 50 elements: threads 0 and 1 take a fourth trip and wait at its barrier, which
    # the others, returned, never reach (asc_syncthreads.md: the block's threads all reach it, or they hang)
    source = SOURCE.replace("dst[i] = src[index[i]] + static_cast<T>(blockIdx.x * 1000);",
                            "dst[i] = src[index[i]];\n        asc_syncthreads();")
    src = tmp_path / "simt_sync.cpp"
    src.write_text(source, encoding="utf-8")
    x = np.arange(100, dtype=np.float32)
    idx = np.zeros(64, np.int32)
    result = run(str(src), {"x": x, "idx": idx}, chip="950PR", block_dim=1, tiling={"n": 50},
                 outputs={"y": ((64,), "float32"), "z": ((16,), "float32")})
    assert any(d.code == "ASC956" and "2 of the launch's 16 threads wait at asc_syncthreads" in d.message
               for d in result.findings), \
        [str(d) for d in result.findings]
