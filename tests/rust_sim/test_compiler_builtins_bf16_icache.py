"""The compilers' `__bf16` is bfloat16_t, and `icache_preload(n)` (the CCE builtin behind AscendC::ICachePreLoad) is
the instruction-cache hint it is: catlass's 19_mla declares `using ElementQ = __bf16;` for its bf16 kernel, whose
CopyL0CToGm picks `CopyL0CToGmQuantMode<AtlasA2, float, bfloat16_t, NO_QUANT>::VALUE`, and calls
`icache_preload(1)` first; its kernels set the cross-core flags' FFTS address with `AscendC::SetSyncBaseAddr`.
Before (issue 29): `__bf16` was unknown, so no specialisation matched ('undeclared identifier Mode::VALUE', ASC102),
icache_preload was an undeclared identifier too, and SetSyncBaseAddr a call the simulator stops at (ASC958)."""

from __future__ import annotations

from passes.sim import run

KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;

template <class Src, class Dst>
struct Mode {
    static_assert(sizeof(Src) == 0, "no such conversion");
};

template <>
struct Mode<float, bfloat16_t> {
    static constexpr uint32_t VALUE = 7;
};

template <class Dst>
__aicore__ inline uint32_t ModeOf()
{
    return Mode<float, Dst>::VALUE;
}

extern "C" __global__ __aicore__ void bf16_mode(GM_ADDR y)
{
    icache_preload(1);
    AscendC::SetSyncBaseAddr(0);
    GlobalTensor<uint32_t> yg;
    yg.SetGlobalBuffer((__gm__ uint32_t *)y, 8);
    yg.SetValue(0, ModeOf<__bf16>());
    yg.SetValue(1, sizeof(__bf16));
}
"""


def test_bf16_is_bfloat16_and_icache_preload_is_a_hint() -> None:
    result = run(KERNEL, [], outputs={"y": ((8,), "uint32")}, block_dim=1)
    assert [d.code for d in result.findings if d.code != "ASC961"] == [], result.findings  # before: ASC102 twice
    assert result.outputs["y"].tolist()[:2] == [7, 2]
