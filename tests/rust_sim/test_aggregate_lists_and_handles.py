"""Aggregates (ascendir/lower/aggregates.py, lower_objects._aggregate_init / _copy_members), issue 28 review of
session 16, three silent wrong values:
- a copy of an object holding a tensor beside plain data (`struct P { LocalTensor<int32_t> t; int32_t v[2]; }`)
  was the same object: `P b = a; b.v[0] = 9;` and a by-value argument's writes changed a. C++ copies each member
  ([class.copy.ctor]/14): v is b's own, t the same handle on the same buffer (a tensor's copy refers to it);
- `S a = {1, {2, 3, 4, 5}};` for a class with methods stored the inner list whole into the array member, leaving it
  undefined (ASC958); its elements are now stored one by one ([dcl.init.aggr]/4.2);
- the members such a list leaves out kept what their cells held (`S c = {i};` in a loop read the last trip's
  c.v[2] + 1: 1, 2, 3); they are value-initialised ([dcl.init.aggr]/5).
Each program writes the values C++ gives to y; the struct and the class forms run alike."""

from __future__ import annotations

import pytest

from passes.sim import run

HEAD = """#include "kernel_operator.h"
using namespace AscendC;
"""
STRUCT = """struct S {
    int32_t n;
    int32_t v[4];
};
struct P {
    LocalTensor<int32_t> t;
    int32_t v[2];
    int32_t n;
};
"""
CLASS = """class S {
public:
    __aicore__ inline int32_t Get(int i) const { return v[i]; }
    int32_t n;
    int32_t v[4];
};
class P {
public:
    __aicore__ inline int32_t First() const { return v[0]; }
    LocalTensor<int32_t> t;
    int32_t v[2];
    int32_t n;
};
"""
KERNEL = """
__aicore__ inline int32_t Bump(P p) { p.v[0] = 99; p.n = 7; p.t.SetValue(0, 5); return p.v[0] + p.n; }
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, %d);
%s
}
"""

CASES = {
    "copy_with_a_tensor": ("""
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    P a;
    a.t = buf.Get<int32_t>();
    a.v[0] = 1; a.v[1] = 2; a.n = 3;
    a.t.SetValue(0, 4);
    P b = a;
    b.v[0] = 9; b.n = 8;
    int32_t r = Bump(a);
    yGm.SetValue(0, a.v[0]); yGm.SetValue(1, a.n); yGm.SetValue(2, b.v[0]); yGm.SetValue(3, b.v[1]);
    yGm.SetValue(4, a.t.GetValue(0)); yGm.SetValue(5, r); yGm.SetValue(6, b.t.GetValue(0));
""", [1, 3, 9, 2, 5, 106, 5]),
    "nested_list_of_an_array_member": ("""
    S a = {1, {2, 3, 4, 5}};
    S b = a;
    b.v[0] = 9;
    yGm.SetValue(0, a.n); yGm.SetValue(1, a.v[0]); yGm.SetValue(2, a.v[3]); yGm.SetValue(3, b.v[0]);
""", [1, 2, 5, 9]),
    "members_left_out_are_zero": ("""
    for (int32_t i = 0; i < 3; i++) {
        S c = {i};
        c.v[2] = c.v[2] + 1;
        yGm.SetValue(i, c.v[2]);
    }
    S d = {7, {1}};
    yGm.SetValue(3, d.v[0]); yGm.SetValue(4, d.v[3]);
""", [1, 1, 1, 1, 0]),
}


@pytest.mark.parametrize("form", ["struct", "class"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_aggregates_get_the_values_cpp_gives(form: str, case: str) -> None:
    body, want = CASES[case]
    source = HEAD + (STRUCT if form == "struct" else CLASS) + KERNEL % (len(want), body)
    result = run(source, {}, block_dim=1, outputs={"y": ((len(want),), "int32")})
    assert result.ok and not result.findings, [str(f) for f in result.findings]
    assert result.outputs["y"].tolist() == want
