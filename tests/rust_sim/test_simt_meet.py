"""SIMT launches whose threads meet (issue 28): asc_syncthreads and the warp functions (asc-devkit's
docs/zh/api/SIMT-API/同步与内存栅栏/同步接口/asc_syncthreads.md and Warp函数/: asc_shfl / _up / _down / _xor,
asc_all / asc_ballot, asc_reduce_add, and the builtins __shfl, ... they are). The loop over the threads is marked
and the simulator runs the threads each with its own registers, switching at the barrier and the warp functions
(ascendir/lower/simt_launch.py, rust_sim/src/simt.rs). Before, such a launch was one named gap
('asc_vf_call<F> (its threads call asc_syncthreads)', ASC958 when run) and wrote nothing."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

SOURCE = """#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t THREADS = 64;

__aicore__ inline float TreeSum(__ubuf__ float* tmp, uint32_t t)
{
    // a barrier in a loop of a called function: every thread takes the same trips
    for (uint32_t half = blockDim.x / 2; half > 0; half /= 2) {
        if (t < half) {
            tmp[t] = tmp[t] + tmp[t + half];
        }
        asc_syncthreads();
    }
    return tmp[0];
}

__simt_vf__ __aicore__ LAUNCH_BOUND(THREADS) inline void Meet(__ubuf__ float* tmp, __gm__ float* x, __gm__ float* out)
{
    uint32_t t = threadIdx.x;
    float mine = x[t];
    tmp[t] = mine;
    asc_syncthreads();
    float total = TreeSum(tmp, t);  // each thread's `mine` and `t` survive the barriers (its own registers)
    out[t] = total + mine;
    out[64 + t] = asc_shfl_down(mine, 1);
    out[128 + t] = __shfl(mine, 3, 16);
    out[192 + t] = static_cast<float>(asc_all(mine > 0.0f ? 1 : 0));
    out[256 + t] = static_cast<float>(asc_ballot(t % 3 == 0 ? 1 : 0) & 0xFFFF);
    out[320 + t] = asc_reduce_add(mine);
    out[384 + t] = asc_shfl_xor(mine, 1);
    out[448 + t] = asc_shfl_up(mine, 2, 8);
}

extern "C" __global__ __aicore__ void simt_meet(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(tb, THREADS * sizeof(float));
    LocalTensor<float> tl = tb.Get<float>();
    asc_vf_call<Meet>(dim3(THREADS), (__ubuf__ float *)tl.GetPhyAddr(), (__gm__ float *)x, (__gm__ float *)y);
}
"""


def _run(tmp_path: Path, source: str, x: np.ndarray):  # noqa: ANN202 - passes.sim's result
    src = tmp_path / "simt_meet.cpp"
    src.write_text(source, encoding="utf-8")
    return run(str(src), {"x": x}, chip="950PR", block_dim=1, outputs={"y": ((512,), "float32")})


def test_threads_meet_at_barriers_and_warp_functions(tmp_path: Path) -> None:
    x = np.arange(64, dtype=np.float32) + 1
    result = _run(tmp_path, SOURCE, x)
    assert result.ok, [str(d) for d in result.findings]
    y = result.outputs["y"].reshape(8, 64)
    lane = np.arange(64) % 32
    warp_base = np.arange(64) - lane
    np.testing.assert_array_equal(y[0], x.sum() + x)  # the tree sum every thread reads after the barriers
    # asc_shfl_down(v, 1): lane + 1, the last lane of the warp its own value
    np.testing.assert_array_equal(y[1], np.where(lane < 31, x[np.minimum(np.arange(64) + 1, 63)], x))
    # __shfl(v, 3, 16): lane 3 of the caller's group of 16
    np.testing.assert_array_equal(y[2], x[np.arange(64) // 16 * 16 + 3])
    np.testing.assert_array_equal(y[3], np.ones(64, np.float32))  # asc_all: every value is positive
    # asc_ballot: bit k for lane k of a thread whose index is a multiple of 3
    bits = [sum(1 << k for k in range(16) if (w + k) % 3 == 0) for w in (0, 32)]
    np.testing.assert_array_equal(y[4], np.repeat(np.float32(bits), 32))
    np.testing.assert_array_equal(y[5], np.repeat([x[:32].sum(), x[32:].sum()], 32))  # asc_reduce_add per warp
    np.testing.assert_array_equal(y[6], x[warp_base + (lane ^ 1)])  # asc_shfl_xor(v, 1)
    # asc_shfl_up(v, 2, 8): lane - 2 within the caller's group of 8, its own value at the group's start
    up = np.where(lane % 8 >= 2, np.arange(64) - 2, np.arange(64))
    np.testing.assert_array_equal(y[7], x[up])


def test_a_barrier_some_threads_never_reach_hangs(tmp_path: Path) -> None:
    # threads 0..31 return before the first barrier: the others wait there forever (asc_syncthreads.md)
    source = SOURCE.replace("    tmp[t] = mine;\n    asc_syncthreads();",
                            "    tmp[t] = mine;\n    if (t < 32) {\n        return;\n    }\n    asc_syncthreads();")
    result = _run(tmp_path, source, np.ones(64, np.float32))
    hangs = [d for d in result.findings if d.code == "ASC956"]
    assert hangs and "32 of the launch's 64 threads wait at asc_syncthreads" in hangs[0].message, \
        [str(d) for d in result.findings]


ATOMICS = """#include "kernel_operator.h"
using namespace AscendC;

__simt_vf__ __aicore__ LAUNCH_BOUND(64) inline void Atomics(__ubuf__ int32_t* counter, __gm__ float* x,
                                                             __gm__ float* out, __gm__ int32_t* slots)
{
    uint32_t t = threadIdx.x;
    if (t == 0) {
        __builtin_cce_dcci(nullptr, 1, 0);            // the data cache's clean-and-invalidate: nothing here
    }
    asc_atomic_add(&out[t % 4], x[t]);                // four bins, each thread adding its value (GM)
    __threadfence();                                  // a fence orders writes: nothing to do here
    int32_t slot = asc_atomic_add(counter, 1);        // the value before: each thread a slot of its own (UB)
    slots[slot] = static_cast<int32_t>(t);
    asc_atomic_max(&slots[64], static_cast<int32_t>(t) * 3 - 100);
    asc_atomic_cas(&slots[65], 0, static_cast<int32_t>(t) + 7);  // only the first thread finds 0
    Simt::AtomicAdd(&slots[66], 2);                   // the C++ form (kernel_simt_atomic_intf.h)
    out[4 + t] = __expf(x[t] * 0.125f) + rintf(x[t] * 0.25f) + asinf(0.5f);
}

extern "C" __global__ __aicore__ void simt_atomics(GM_ADDR x, GM_ADDR y, GM_ADDR s, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(tb, 32);
    LocalTensor<int32_t> tl = tb.Get<int32_t>();
    Duplicate(tl, 0, 8);
    PipeBarrier<PIPE_ALL>();
    AtomicExch<int32_t>((__gm__ int32_t *)s + 67, 5);  // the basic API's scalar GM atomic, outside a launch
    asc_vf_call<Atomics>(dim3(64), (__ubuf__ int32_t *)tl.GetPhyAddr(), (__gm__ float *)x, (__gm__ float *)y,
                         (__gm__ int32_t *)s);
}
"""


def test_atomics_and_float_functions_in_threads(tmp_path: Path) -> None:
    # asc_atomic_add on GM and UB (返回值: the element before), asc_atomic_max, asc_atomic_cas, Simt::AtomicAdd and
    # the basic API's AtomicExch (AtomicExch.md: a scalar GM atomic, the 950's); __expf, rintf, asinf
    # of the SIMT math library (correctly rounded float here: the pages state no error bound); __threadfence and
    # __builtin_cce_dcci (no gap: before, each was a call the lowering could not resolve, ASC958 when run)
    src = tmp_path / "simt_atomics.cpp"
    src.write_text(ATOMICS, encoding="utf-8")
    x = np.arange(64, dtype=np.float32)
    y0 = np.zeros(68, np.float32)
    s0 = np.zeros(68, np.int32)
    result = run(str(src), {"x": x, "y": y0, "s": s0}, chip="950PR", block_dim=1,
                 outputs={"y": ((68,), "float32"), "s": ((68,), "int32")}, inplace=["y", "s"])
    assert result.ok, [str(d) for d in result.findings]
    y, s = result.outputs["y"], result.outputs["s"]
    np.testing.assert_array_equal(y[:4], x.reshape(16, 4).sum(axis=0))
    np.testing.assert_array_equal(s[:64], np.arange(64))  # thread t took slot t (threads run in index order)
    assert s[64] == 63 * 3 - 100 and s[65] == 7 and s[66] == 128 and s[67] == 5
    want = (np.exp(np.float64(x) * 0.125).astype(np.float32) + np.rint(x * np.float32(0.25))
            + np.float32(np.arcsin(0.5)))
    np.testing.assert_allclose(y[4:], want, rtol=1e-6)


AFTER_DUPLICATE = """#include "kernel_operator.h"
using namespace AscendC;

__simt_vf__ __aicore__ LAUNCH_BOUND(16) inline void ReadTmp(__ubuf__ float* tmp, __gm__ float* out)
{
    out[threadIdx.x] = tmp[threadIdx.x % 8] + static_cast<float>(threadIdx.x);
}

extern "C" __global__ __aicore__ void after_duplicate(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(tb, 32);
    LocalTensor<float> tl = tb.Get<float>();
    Duplicate(tl, 0.5f, 8);
    asc_vf_call<ReadTmp>(dim3(16), (__ubuf__ float *)tl.GetPhyAddr(), (__gm__ float *)y);
}
"""


def test_a_launch_comes_after_the_vector_instructions_before_it(tmp_path: Path) -> None:
    # nll_loss_simt.h's pattern: Duplicate(tmp, 0) on PIPE_V, then the launch whose threads read tmp. The launch is
    # a vector function, run by the vector unit after that Duplicate: no race (before: ASC965 V/S at the threads'
    # first read, a thread's UB element being a scalar GetValue here)
    src = tmp_path / "after_duplicate.cpp"
    src.write_text(AFTER_DUPLICATE, encoding="utf-8")
    result = run(str(src), {}, chip="950PR", block_dim=1, outputs={"y": ((16,), "float32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], np.arange(16, dtype=np.float32) + 0.5)
