"""The SIMT API's integer helpers in a launched thread (issue 28; ascendir/lower/simt_math.py): `Simt::UintDiv(n,
magic, shift)` with GetUintDivMagicAndShift's magic, uint32 and uint64 (ops-math transpose's SimtComputeDim*, 7 files
of the session-15 sweep), and `__umulhi` (ops-nn gather_nd_simt.h). Before, each was 'the call of UintDiv /
__umulhi, which the lowering could not resolve' (ASC958 when run)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

SOURCE = """#include "kernel_operator.h"
using namespace AscendC;

__simt_vf__ __aicore__ LAUNCH_BOUND(8) inline void DivThreads(__gm__ uint32_t* q, __gm__ uint32_t* hi,
                                                               __gm__ uint64_t* q64, __gm__ uint32_t* n,
                                                               uint32_t count, uint32_t magic, uint32_t shift,
                                                               uint64_t magic64, uint64_t shift64)
{
    for (uint32_t i = Simt::GetThreadIdx(); i < count; i += Simt::GetThreadNum()) {
        q[i] = Simt::UintDiv(n[i], magic, shift);
        hi[i] = __umulhi(n[i], 0x9E3779B9u);
        q64[i] = Simt::UintDiv(static_cast<uint64_t>(n[i]) * 1000003ull, magic64, shift64);
    }
}

extern "C" __global__ __aicore__ void simt_div(GM_ADDR n, GM_ADDR q, GM_ADDR hi, GM_ADDR q64, GM_ADDR workspace,
                                               GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    uint32_t magic = 0, shift = 0;
    GetUintDivMagicAndShift(magic, shift, td.divisor);
    uint64_t magic64 = 0, shift64 = 0;
    GetUintDivMagicAndShift(magic64, shift64, static_cast<uint64_t>(td.divisor));
    asc_vf_call<DivThreads>(dim3(8), (__gm__ uint32_t *)q, (__gm__ uint32_t *)hi, (__gm__ uint64_t *)q64,
                            (__gm__ uint32_t *)n, td.count, magic, shift, magic64, shift64);
}
"""


def test_uint_div_and_umulhi_per_thread(tmp_path: Path) -> None:
    path = tmp_path / "simt_div.cpp"
    path.write_text(SOURCE, encoding="utf-8")
    rng = np.random.default_rng(1)
    # UintDiv's sum is uint32 (the impl's `T sum = dividend + q`): dividends below 2^31 do not wrap it
    n = rng.integers(0, 2**31, 50, dtype=np.int64).astype(np.uint32)
    n[:3] = [0, 2**31 - 1, 7]
    d = 7
    result = run(str(path), {"n": n}, chip="950PR", block_dim=1, tiling={"divisor": d, "count": 50},
                 outputs={"q": ((50,), "uint32"), "hi": ((50,), "uint32"), "q64": ((50,), "uint64")})
    assert result.ok, [str(x) for x in result.findings]
    np.testing.assert_array_equal(result.outputs["q"], n // d)
    np.testing.assert_array_equal(result.outputs["hi"], ((n.astype(np.uint64) * 0x9E3779B9) >> 32).astype(np.uint32))
    want64 = np.array([int(v) * 1000003 // d for v in n], dtype=np.uint64)  # the 64-bit high half, exact
    np.testing.assert_array_equal(result.outputs["q64"], want64)
