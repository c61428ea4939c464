"""A namespace-scope array in global memory (`static volatile __gm__ uint32_t flags[4] = {...};`), read and
written by the kernel's cores through a method of its class.

Vendor norm kernels keep such a flag array (NPUKernelBench DeepNormGrad's g_FixedOutputSync); the kernel lowering
reported every use of it as "global variable ... is not a constant" and left the statement out, so the simulator
could not run the kernel.
"""

from __future__ import annotations

from passes.sim import run

KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;

// one 64-byte cache line per core (16 words apart): cores writing one line through their data caches race
static volatile __gm__ uint32_t g_counts[48] = {10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 20};

class KernelCounts {
public:
    __aicore__ inline void Init(GM_ADDR y)
    {
        yGm.SetGlobalBuffer((__gm__ uint32_t *)y, 48);
    }
    __aicore__ inline void Process()
    {
        uint32_t idx = GetBlockIdx() * 16;
        g_counts[idx] += 5;
        g_counts[idx]++;
        for (uint32_t j = 0; j < 16; ++j) {
            yGm.SetValue(idx + j, g_counts[idx + j] * 2 + j);
        }
    }
private:
    GlobalTensor<uint32_t> yGm;
};

extern "C" __global__ __aicore__ void counts_kernel(GM_ADDR y)
{
    KernelCounts op;
    op.Init(y);
    op.Process();
}
"""


def test_a_namespace_scope_gm_array_starts_with_its_initialiser_and_holds_the_cores_writes() -> None:
    result = run(KERNEL, {}, block_dim=3, outputs={"y": ((48,), "uint32")})
    assert result.ok and not result.findings, [d.message for d in result.findings]
    # each core's first word: (initial + 5 + 1) * 2; the others start at 0
    expected = [(initial + 6) * 2 if j == 0 else j for initial in (10, 20, 0) for j in range(16)]
    assert result.outputs["y"].tolist() == expected
