"""A constructor writes the caller's variable through a non-const reference parameter ([dcl.init]/17.6.2: `S s(k);`
calls S's constructor as a function, [dcl.fct]/[dcl.ref]: its reference parameter names k itself). The lowering
made a variable a cell (something a write can reach) only when a function or method took it by reference; a
constructor's parameters were not looked at, so k stayed the constant 0 and the constructor's write went to a copy:
the kernel stored 0, silently (issue 28, review of session 16)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

SOURCE = """#include "kernel_operator.h"
using namespace AscendC;
template <typename T>
class Counter {
public:
    __aicore__ inline Counter(T &n, T by) { n = n + by; }
};
struct Five {
    __aicore__ inline Five(int32_t &n) { n = 5; }
};
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 4);
    int32_t a = 1, b = 2, c = 3, d = 0;
    Counter<int32_t> s1{a, 10};
    for (int32_t i = 0; i < 3; i++) {
        Counter<int32_t> s2(b, i);
    }
    Counter<int32_t>(c, 7);
    Five f(d);
    yGm.SetValue(0, a);
    yGm.SetValue(1, b);
    yGm.SetValue(2, c);
    yGm.SetValue(3, d);
}
"""


def test_a_constructor_writes_through_its_reference_parameter(tmp_path: Path) -> None:
    # braced, in a loop, a temporary, parenthesised: each writes the caller's variable
    src = tmp_path / "k.cpp"
    src.write_text(SOURCE, encoding="utf-8")
    result = run(str(src), {}, block_dim=1, outputs={"y": ((4,), "int32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], [11, 5, 10, 5])


@pytest.mark.parametrize("param", ["const int32_t &n", "int32_t n"])
def test_a_constructor_taking_a_copy_leaves_the_variable(param: str, tmp_path: Path) -> None:
    # by value or by const reference the constructor cannot write k (a local copy changes): k stays 0
    src = tmp_path / "k.cpp"
    src.write_text("""#include "kernel_operator.h"
using namespace AscendC;
struct S {
    __aicore__ inline S(PARAM) { int32_t m = n; m = m + 5; v = m; }
    int32_t v = 0;
};
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 2);
    int32_t k = 0;
    S s(k);
    yGm.SetValue(0, k);
    yGm.SetValue(1, s.v);
}
""".replace("PARAM", param), encoding="utf-8")
    result = run(str(src), {}, block_dim=1, outputs={"y": ((2,), "int32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], [0, 5])
