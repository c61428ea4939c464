"""A mem-initializer's expression is lowered once (ascendir/lower/lower_objects.py): `a_{Next(g)}` for a member of
class type runs Next once, as C++ does. 379a98d lowered the one item of a braced list to see whether it was an
object of the member's class, then lowered it again to initialise the member: a call in it ran twice, silently
(here the counter read 4 and the members 2 and 14, where C++ gives 2, 1 and 12)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

SOURCE = """#include "kernel_operator.h"
using namespace AscendC;
class Inner {
public:
    __aicore__ inline Inner() {}
    __aicore__ inline Inner(int32_t x) : n(x) {}
    int32_t n = 0;
};
__aicore__ inline int32_t Next(GlobalTensor<int32_t> g) { int32_t v = g.GetValue(0) + 1; g.SetValue(0, v); return v; }
__aicore__ inline Inner Make(GlobalTensor<int32_t> g) { return Inner(Next(g) + 10); }
class Outer {
public:
    __aicore__ inline Outer(GlobalTensor<int32_t> g) : INIT {}
    Inner a_;
    Inner b_;
};
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 3);
    yGm.SetValue(0, 0);
    Outer o(yGm);
    yGm.SetValue(1, o.a_.n);
    yGm.SetValue(2, o.b_.n);
}
"""


@pytest.mark.parametrize("init", ["a_{Next(g)}, b_{Make(g)}", "a_(Next(g)), b_(Make(g))"])
def test_a_member_initialiser_runs_its_calls_once(init: str, tmp_path: Path) -> None:
    # a_ from a number (the constructor Inner(int32_t)), b_ from an object of its class (a copy)
    src = tmp_path / "k.cpp"
    src.write_text(SOURCE.replace("INIT", init), encoding="utf-8")
    result = run(str(src), {}, block_dim=1, outputs={"y": ((3,), "int32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], [2, 1, 12])
