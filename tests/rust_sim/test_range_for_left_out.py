"""Range-based for loops the lowering cannot follow are reported, never lowered into a wrong result (review of
e8c4618; ascendir/lower/range_for.py). Each of these ran with 0 findings and a silently wrong value:

- `for (auto &x : a) x *= 2;`: x bound as `auto &x = a[i]`, whose writes do not reach the array here (sum 10,
  not 20);
- `for (auto &row : m) for (int32_t v : row)` over a 2-D array: the rows read 0 (21 expected);
- `for (auto h : handlers) if (h(n, k)) break;` with k a local never otherwise written, given to the
  functions' `int32_t &` parameter: k stayed 0 (2 expected)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
__aicore__ inline bool Small(int32_t n, int32_t &k) { if (n < 10) { k = 1; return true; } return false; }
__aicore__ inline bool Mid(int32_t n, int32_t &k) { if (n < 100) { k = 2; return true; } return false; }
using H = bool (*)(int32_t, int32_t &);
extern "C" __global__ __aicore__ void k(GM_ADDR cfg, GM_ADDR y) {
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 4);
    int32_t a[4] = {1, 2, 3, 4};
    for (auto &x : a) { x *= 2; }
    int32_t s = 0;
    for (int32_t x : a) { s += x; }
    yGm.SetValue(0, s);
    int32_t m[2][3] = {{1, 2, 3}, {4, 5, 6}};
    int32_t t = 0;
    for (auto &row : m) { for (int32_t v : row) { t += v; } }
    yGm.SetValue(1, t);
    H handlers[] = {Small, Mid};
    int32_t kk = 0;
    int32_t n = *((__gm__ int32_t *)cfg);
    for (auto h : handlers) { if (h(n, kk)) { break; } }
    yGm.SetValue(2, kk);
    int32_t c = 0;
    for (int32_t x : a) { if (x == 4) continue; c += 1; }
    yGm.SetValue(3, c);
}
"""


def test_range_for_loops_not_followed_are_gaps_at_their_lines(tmp_path: Path) -> None:
    src = tmp_path / "k.cpp"
    src.write_text(KERNEL)
    result = run(str(src), {"cfg": np.array([50], np.int32)}, block_dim=1, outputs={"y": ((4,), "int32")})
    gaps = sorted(f.span.line for f in result.findings if f.code == "ASC958" and f.span is not None)
    assert gaps == [10, 16, 21], [str(f) for f in result.findings]
    assert result.outputs["y"].tolist()[3] == 3  # (a loop it follows: continue skips 4)
