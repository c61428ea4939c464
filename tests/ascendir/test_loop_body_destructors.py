"""An object declared in a loop body is destroyed at the end of every iteration: its destructor runs there.
The lowering ran destructors at the end of plain blocks and functions only, so NPUKernelBench GroupGemm's
BlockEpilogue, made once per group, never waited for the flags its constructor set (its destructor's
WaitFlag<V_MTE2>), and the next group's MTE2 copies raced the epilogue's vector writes (ASC965)."""

from __future__ import annotations

import numpy as np

from passes.sim import run

SOURCE = """#include "kernel_operator.h"
using namespace AscendC;

class Mark {
public:
    __aicore__ inline Mark(__gm__ uint32_t *out, uint32_t i) : out_(out), i_(i) {}
    __aicore__ inline ~Mark() { out_[i_] = out_[i_] + 100 + i_; }
private:
    __gm__ uint32_t *out_;
    uint32_t i_;
};

extern "C" __global__ __aicore__ void marks(GM_ADDR n, GM_ADDR out)
{
    __gm__ uint32_t *res = (__gm__ uint32_t *)out;
    uint32_t count = ((__gm__ uint32_t *)n)[0];
    for (uint32_t k = 0; k < 8; ++k) {
        res[k] = 0;
    }
    for (uint32_t i = 0; i < count; ++i) {
        Mark m(res, i);
        res[i] = 1;
    }
    uint32_t j = 0;
    while (j < 2) {
        Mark m(res, 4 + j);
        ++j;
        if (j == 1) {
            continue;
        }
    }
}
"""


def test_destructor_runs_at_the_end_of_each_iteration(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "marks.cpp"
    path.write_text(SOURCE)
    result = run(str(path), {"n": np.array([3], dtype=np.uint32), "out": np.zeros(8, dtype=np.uint32)},
                 block_dim=1, outputs={"out": ((8,), "uint32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    # iterations 0..2 write 1, then the destructor adds 100 + i; the while loop's two objects (one left by
    # `continue`) add 104 and 105; the rest stays 0
    assert result.outputs["out"].tolist() == [101, 102, 103, 0, 104, 105, 0, 0]
