"""A function returning `auto` from branches chosen at run time (issue 29: catlass's alignment.hpp `Min` / `Max`,
`if (a < b) { return a; } else { return b; }`, on 23_flash_attention_infer's mask path and in 33_basic_conv2d's
kernel). C++ gives every return of such a function the one deduced type; the lowering kept the auto type only for
a return its constant conditions chose, and each call was ASC103 'returns auto from a branch chosen at run time'
(its value void, the statement using it left out). Now the first return in a branch gives the type and the result
cell is made where the body starts."""

from __future__ import annotations

import numpy as np

from passes.sim import run

SOURCE = """\
#include "kernel_operator.h"
template <class T, class U>
__aicore__ constexpr auto Min(T const &a, U const &b)
{
    if (a < b) {
        return a;
    } else {
        return b;
    }
}
template <class T>
__aicore__ inline auto Clamp(T v, T hi)
{
    if (v > hi) {
        return hi;
    }
    return v;
}
extern "C" __global__ __aicore__ void auto_min(GM_ADDR x, GM_ADDR y)
{
    AscendC::GlobalTensor<uint32_t> xg, yg;
    xg.SetGlobalBuffer((__gm__ uint32_t *)x, 4);
    yg.SetGlobalBuffer((__gm__ uint32_t *)y, 4);
    uint32_t a = xg.GetValue(0), b = xg.GetValue(1);
    yg.SetValue(0, Min(a, b));
    yg.SetValue(1, Min(b, a) + 1);
    yg.SetValue(2, Clamp(a, b));
    yg.SetValue(3, Clamp(b, a));
}
"""


def test_auto_returned_from_branches_chosen_at_run_time() -> None:
    x = np.array([7, 3, 0, 0], dtype=np.uint32)
    result = run(SOURCE, [x], outputs={"y": ((4,), "uint32")}, block_dim=1)
    assert [f"{d.code} {d.message}" for d in result.findings] == []
    assert result.outputs["y"].tolist() == [3, 4, 3, 3]
