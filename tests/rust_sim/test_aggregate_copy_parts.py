"""An object taken by value is the callee's own copy when the callee changes a part of it, not only the whole
(ascendir/lower/aggregates.written). The by-value parameter is copied only where the callee may change it; before,
a change through a member was not seen: `s.inner.Set(5)`, `Inner &r = s.inner; r.n = 6;`, `Fill(s.inner)` with
`Fill(Inner &)`, and `Inner *p = &s.inner;` each wrote through to the caller's object, silently (the caller read
5, 6, 7, 8 where C++ gives 1)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

SOURCE = """#include "kernel_operator.h"
using namespace AscendC;
class Inner {
public:
    __aicore__ inline void Set(int32_t x) { n = x; }
    __aicore__ inline int32_t Get() const { return n; }
    int32_t n;
};
class S {
public:
    Inner inner;
    int32_t m;
};
__aicore__ inline void Fill(Inner &x, int32_t v) { x.n = v; }
__aicore__ inline int32_t Change(S s) { CHANGE; return s.inner.n + s.m; }
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 2);
    S a;
    a.inner.n = 1;
    a.m = 10;
    int32_t r = Change(a);
    yGm.SetValue(0, a.inner.n);
    yGm.SetValue(1, r);
}
"""

# how the callee changes (or reads) its copy, and what the callee returns; the caller's a.inner.n stays 1
CASES = {
    "method_of_a_member": ("s.inner.Set(5)", 15),
    "reference_to_a_member": ("Inner &r = s.inner; r.n = 6", 16),
    "member_passed_by_reference": ("Fill(s.inner, 7)", 17),
    "address_of_a_member": ("Inner *p = &s.inner; p->n = 8", 18),
    "const_method_of_a_member": ("int32_t g = s.inner.Get(); s.m = g + 3", 5),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_change_to_a_part_of_a_by_value_parameter_stays_in_the_copy(case: str, tmp_path: Path) -> None:
    change, returned = CASES[case]
    src = tmp_path / "k.cpp"
    src.write_text(SOURCE.replace("CHANGE", change), encoding="utf-8")
    result = run(str(src), {}, block_dim=1, outputs={"y": ((2,), "int32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], [1, returned])
