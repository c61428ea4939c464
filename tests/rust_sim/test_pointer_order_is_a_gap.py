"""A relational comparison of two pointers (`p < end`, [expr.rel]/4) is a gap at its line, not a constant: the
lowering answered every pointer comparison but `==` with "not equal", so `p < end` was false with no finding and
a loop over a pointer range ran no iteration (found by session 17's review)."""

from __future__ import annotations

from pathlib import Path

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 8);
    __gm__ int32_t *begin = (__gm__ int32_t *)x;
    __gm__ int32_t *end = begin + 8;
    int32_t ordered = begin < end ? 1 : 2;
    yGm.SetValue(0, ordered);
}
"""


def test_pointer_order_is_reported_where_it_runs(tmp_path: Path) -> None:
    src = tmp_path / "k.cpp"
    src.write_text(KERNEL, encoding="utf-8")
    result = run(str(src), {"x": __import__("numpy").zeros(8, "int32")}, block_dim=1,
                 outputs={"y": ((8,), "int32")})
    gaps = [d for d in result.findings if d.code in ("ASC958", "ASC103") and d.span is not None and d.span.line == 8]
    assert gaps, [str(d) for d in result.findings]
    assert 2 not in list(result.outputs["y"][:1])  # (not the silent 'not ordered' answer)
