"""`p == q` / `p != q` of two pointers compares where they point (issue 28; ascendir/lower/pointer_compare.py).

The lowering answered "not equal" for every pair of pointers but a null one (the reading it keeps for a kernel
pointer against nullptr), so `p == q` after `q = p + 0`, or `&a[1] == a + 1`, was false with no finding. Now GM
and UB pointers compare their addresses at run time, pointers into local arrays their storage and indices (also
indices known only at run time), addresses of local variables which variable; a pair whose targets the lowering
does not follow is a gap at its line."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<int32_t> xGm;
    GlobalTensor<int32_t> yGm;
    xGm.SetGlobalBuffer((__gm__ int32_t *)x, 4);
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 16);
    __gm__ int32_t *p = (__gm__ int32_t *)x;
    __gm__ int32_t *q = p + 0;
    __gm__ int32_t *r = p + 1;
    __gm__ int32_t *other = (__gm__ int32_t *)z;
    yGm.SetValue(0, p == q ? 1 : 2);
    yGm.SetValue(1, p != q ? 1 : 2);
    yGm.SetValue(2, p == r ? 1 : 2);
    yGm.SetValue(3, r == q + 1 ? 1 : 2);
    yGm.SetValue(4, p == other ? 1 : 2);
    int32_t a[4] = {1, 2, 3, 4};
    int32_t b[4] = {1, 2, 3, 4};
    int32_t *s = a + 1;
    yGm.SetValue(5, &a[1] == a + 1 ? 1 : 2);
    yGm.SetValue(6, s == &a[2] ? 1 : 2);
    yGm.SetValue(7, s != &a[3] ? 1 : 2);
    yGm.SetValue(8, a == b ? 1 : 2);
    int32_t i = xGm.GetValue(1);
    int32_t j = xGm.GetValue(2);
    yGm.SetValue(9, &a[i] == a + j ? 1 : 2);
    yGm.SetValue(10, &a[i] == a + 1 ? 1 : 2);
    int32_t v = 1;
    int32_t w = 2;
    int32_t *pv = &v;
    yGm.SetValue(11, pv == &v ? 1 : 2);
    yGm.SetValue(12, pv == &w ? 1 : 2);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    LocalTensor<int32_t> t = buf.Get<int32_t>();
    __ubuf__ int32_t *u = (__ubuf__ int32_t *)t.GetPhyAddr();
    __ubuf__ int32_t *u2 = u + 2;
    yGm.SetValue(13, u + 2 == u2 ? 1 : 2);
    yGm.SetValue(14, u == u2 ? 1 : 2);
    yGm.SetValue(15, p != nullptr ? 1 : 2);
}
"""

UNFOLLOWED = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 1);
    __gm__ int32_t *p = (__gm__ int32_t *)x;
    int32_t a[4] = {1, 2, 3, 4};
    yGm.SetValue(0, (int32_t *)p == a ? 1 : 2);
}
"""


def test_pointers_to_the_same_place_are_equal(tmp_path: Path) -> None:
    src = tmp_path / "k.cpp"
    src.write_text(KERNEL, encoding="utf-8")
    x = np.array([0, 2, 2, 0], dtype=np.int32)
    result = run(str(src), {"x": x, "z": np.zeros(4, np.int32)}, block_dim=1, outputs={"y": ((16,), "int32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], [1, 2, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1])


def test_pointers_whose_targets_are_not_followed_are_a_gap(tmp_path: Path) -> None:
    src = tmp_path / "k.cpp"
    src.write_text(UNFOLLOWED, encoding="utf-8")
    result = run(str(src), {"x": np.zeros(4, np.int32)}, block_dim=1, outputs={"y": ((1,), "int32")})
    gaps = [d for d in result.findings if d.code in ("ASC958", "ASC103") and d.span is not None and d.span.line == 8]
    assert gaps, [str(d) for d in result.findings]
    assert result.outputs["y"][0] != 2  # (not the silent 'not equal')
