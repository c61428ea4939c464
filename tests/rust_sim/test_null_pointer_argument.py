"""A null pointer passed on to a helper is null there: ops-nn dynamic_quant's entry calls
`op.Init(x, smooth, y, scale, nullptr, ...)` and Init's `if (offset != nullptr) isAsymmetrical = true;` took every
pointer for a kernel argument, never null, so the symmetric op wrote an offset output through a null GlobalTensor
(ASC950). The kernel is written for the test."""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;
class K {
public:
    __aicore__ inline void InitParams(GM_ADDR off)
    {
        if (off != nullptr) {
            flag = true;
        }
    }
    __aicore__ inline void Init(GM_ADDR y, GM_ADDR off)
    {
        InitParams(off);
        yGm.SetGlobalBuffer((__gm__ float*)y, 8);
    }
    __aicore__ inline void Run() { yGm.SetValue(0, flag ? 1.0f : (NULL == nullptr ? 2.0f : 3.0f)); }
    bool flag = false;
    GlobalTensor<float> yGm;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y)
{
    K op;
    op.Init(y, ARG);
    op.Run();
}
"""


def _first(tmp_path, arg: str) -> float:
    path = tmp_path / "k.cpp"
    path.write_text(KERNEL.replace("ARG", arg))
    x, y = np.zeros(8, np.float32), np.zeros(8, np.float32)
    result = run(str(path), [x, y], block_dim=1, inplace=["y"])
    assert result.completed, [str(f) for f in result.findings]
    return float(y[0])


def test_a_null_pointer_argument_compares_equal_to_nullptr(tmp_path) -> None:
    assert _first(tmp_path, "nullptr") == 2.0


def test_a_kernel_argument_is_not_null(tmp_path) -> None:
    assert _first(tmp_path, "x") == 1.0
