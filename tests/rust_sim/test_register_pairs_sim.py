"""Two-register tensors (issue 28, session 12): `RegTensor<T, RegTraitNumTwo>` of a 64-bit T holds VL / 4 elements
in two registers, reg[0] the low and reg[1] the high 32 bits of each (asc-devkit docs .../RegTensor.md), with the
b32 masks of `UpdateMask<T, RegTraitNumTwo>` / `CreateMask<T, pattern, RegTraitNumTwo>` (plt_b32 / pset_b32). The
team kernel below is the pooling kernels' int64 path (a `std::conditional` alias choosing the two-register type,
Max / Adds / Duplicate, masked StoreAlign of the tail), gather_nd_mix's b64 Gather by uint32_t indices into such a
tensor and its `(RegTensor<int32_t>&)two.reg[0]` read, and avg_pool's stores of `res.reg[k]` parts. Before, every
one of these was an ASC958 ('the template argument RegTraitNumTwo', 'argument dst is no vector register')."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__simd_vf__ inline void PairVF(__ubuf__ T* zAddr, __ubuf__ T* xAddr, __ubuf__ T* yAddr, __ubuf__ uint32_t* idxAddr,
                               __ubuf__ T* gAddr, __ubuf__ int32_t* loAddr, __ubuf__ int32_t* hiAddr)
{
    using RegT = typename std::conditional<sizeof(T) == 8, Reg::RegTensor<T, Reg::RegTraitNumTwo>,
                                           Reg::RegTensor<T>>::type;
    RegT a;
    RegT b;
    RegT c;
    Reg::RegTensor<uint32_t> idx;
    Reg::RegTensor<int32_t> low;
    uint32_t n = COUNT;
    for (uint16_t i = 0; i < 2; i++) {
        Reg::MaskReg m = Reg::UpdateMask<T, Reg::RegTraitNumTwo>(n);
        Reg::LoadAlign(a, xAddr + i * 64);
        Reg::LoadAlign(b, yAddr + i * 64);
        Reg::Max(c, a, b, m);
        Reg::Adds(c, c, (T)1, m);
        Reg::StoreAlign(zAddr + i * 64, c, m);
    }
    Reg::MaskReg all = Reg::CreateMask<T, Reg::MaskPattern::ALL, Reg::RegTraitNumTwo>();
    Reg::LoadAlign(idx, idxAddr);
    Reg::Gather(a, xAddr, idx, all);
    Reg::StoreAlign(gAddr, a, all);
    low = (Reg::RegTensor<int32_t>&)a.reg[0];
    Reg::MaskReg m32 = Reg::CreateMask<int32_t>();
    Reg::StoreAlign(loAddr, low, m32);
    Reg::StoreAlign(hiAddr, (Reg::RegTensor<int32_t>&)a.reg[1], m32);
}

extern "C" __global__ __aicore__ void reg_pair(GM_ADDR x, GM_ADDR y, GM_ADDR idx, GM_ADDR z, GM_ADDR g, GM_ADDR lo,
                                               GM_ADDR hi, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<int64_t> xGm, yGm, zGm, gGm;
    GlobalTensor<uint32_t> idxGm;
    GlobalTensor<int32_t> loGm, hiGm;
    xGm.SetGlobalBuffer((__gm__ int64_t *)x, 128);
    yGm.SetGlobalBuffer((__gm__ int64_t *)y, 128);
    idxGm.SetGlobalBuffer((__gm__ uint32_t *)idx, 64);
    zGm.SetGlobalBuffer((__gm__ int64_t *)z, 128);
    gGm.SetGlobalBuffer((__gm__ int64_t *)g, 64);
    loGm.SetGlobalBuffer((__gm__ int32_t *)lo, 64);
    hiGm.SetGlobalBuffer((__gm__ int32_t *)hi, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb, ib, zb, gb, lb, hb;
    pipe.InitBuffer(xb, 128 * sizeof(int64_t));
    pipe.InitBuffer(yb, 128 * sizeof(int64_t));
    pipe.InitBuffer(ib, 64 * sizeof(uint32_t));
    pipe.InitBuffer(zb, 128 * sizeof(int64_t));
    pipe.InitBuffer(gb, 64 * sizeof(int64_t));
    pipe.InitBuffer(lb, 64 * sizeof(int32_t));
    pipe.InitBuffer(hb, 64 * sizeof(int32_t));
    LocalTensor<int64_t> xl = xb.Get<int64_t>();
    LocalTensor<int64_t> yl = yb.Get<int64_t>();
    LocalTensor<uint32_t> il = ib.Get<uint32_t>();
    LocalTensor<int64_t> zl = zb.Get<int64_t>();
    LocalTensor<int64_t> gl = gb.Get<int64_t>();
    LocalTensor<int32_t> ll = lb.Get<int32_t>();
    LocalTensor<int32_t> hl = hb.Get<int32_t>();
    DataCopy(xl, xGm, 128);
    DataCopy(yl, yGm, 128);
    DataCopy(il, idxGm, 64);
    DataCopy(zl, xGm, 128);
    PipeBarrier<PIPE_ALL>();
    asc_vf_call<PairVF<int64_t>>((__ubuf__ int64_t *)zl.GetPhyAddr(), (__ubuf__ int64_t *)xl.GetPhyAddr(),
        (__ubuf__ int64_t *)yl.GetPhyAddr(), (__ubuf__ uint32_t *)il.GetPhyAddr(), (__ubuf__ int64_t *)gl.GetPhyAddr(),
        (__ubuf__ int32_t *)ll.GetPhyAddr(), (__ubuf__ int32_t *)hl.GetPhyAddr());
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, zl, 128);
    DataCopy(gGm, gl, 64);
    DataCopy(loGm, ll, 64);
    DataCopy(hiGm, hl, 64);
}
"""

OUTPUTS = {"z": ((128,), "int64"), "g": ((64,), "int64"), "lo": ((64,), "int32"), "hi": ((64,), "int32")}


def _inputs() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    x = rng.integers(-(1 << 40), 1 << 40, 128, dtype=np.int64)
    x[0] = 0xFFFFFFFF  # + 1 carries into the high word
    y = rng.integers(-(1 << 40), 1 << 40, 128, dtype=np.int64)
    y[0] = -5
    idx = ((np.arange(64) * 7) % 128).astype(np.uint32)
    return {"x": x, "y": y, "idx": idx}


def simulate(tmp_path: Path, count: int):
    src = tmp_path / "reg_pair.cpp"
    src.write_text(KERNEL.replace("COUNT", str(count)), encoding="utf-8")
    return run(str(src), _inputs(), chip="950PR", block_dim=1, outputs=OUTPUTS)


def test_two_register_int64_max_gather_and_parts_equal_numpy(tmp_path: Path) -> None:
    result = simulate(tmp_path, 100)
    assert result.ok, [str(d) for d in result.findings]
    inp = _inputs()
    x, y, idx = inp["x"], inp["y"], inp["idx"]
    want = x.copy()  # z's UB held x: the masked stores leave elements 100.. as they were
    want[:100] = np.maximum(x[:100], y[:100]) + 1
    np.testing.assert_array_equal(result.outputs["z"], want)
    assert result.outputs["z"][0] == 1 << 32
    gathered = x[idx]
    np.testing.assert_array_equal(result.outputs["g"], gathered)
    np.testing.assert_array_equal(result.outputs["lo"], (gathered & 0xFFFFFFFF).astype(np.uint32).view(np.int32))
    np.testing.assert_array_equal(result.outputs["hi"], (gathered >> 32).astype(np.int32))
