"""Range-based for over a C array, and a local array of functions (issue 29: catlass 102's host code picks its
kernel with `for (auto handler : handlers) { if (handler(params, info)) break; }` over `HandlerPtr handlers[] =
{...}`, and its tiling takes the first fitting k1 of a listed std::vector in a range-for). Before, the loop was
'rangefor statements are not supported in device code' (ASC103, the loop left out) and the array of functions was
stored as undefined values (the run stopped at its declaration). Now the loop is the one over the array's positions
([stmt.ranged]/1; ascendir/lower/range_for.py) and the array of functions a table whose element at each position
is called directly (function_tables.declare_local). (The objects the functions change are assigned in the caller
too: a local that only a call through a variable writes by reference is not known to be written, as a direct
call's is: lower_inline.written_names goes by the callee's name.)"""

from __future__ import annotations

import numpy as np

from passes.sim import run

NUMBERS = """\
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void first_fit(GM_ADDR x, GM_ADDR y)
{
    AscendC::GlobalTensor<uint32_t> xg, yg;
    xg.SetGlobalBuffer((__gm__ uint32_t *)x, 4);
    yg.SetGlobalBuffer((__gm__ uint32_t *)y, 4);
    uint32_t sizes[] = {1024, 512, 256, 128};
    for (uint32_t i = 0; i < 4; ++i) {
        uint32_t limit = xg.GetValue(i);
        uint32_t chosen = 16;
        uint32_t seen = 0;
        for (const auto &s : sizes) {
            seen += 1;
            if (s <= limit) {
                chosen = s;
                break;
            }
        }
        yg.SetValue(i, chosen * 10 + seen);
    }
}
"""

FUNCTIONS = """\
#include "kernel_operator.h"
struct Params {
    uint32_t limit;
    uint32_t kind;
};
__aicore__ inline bool Small(Params &p) { if (p.limit < 10) { p.kind = 1; return true; } return false; }
__aicore__ inline bool Medium(Params &p) { if (p.limit < 100) { p.kind = 2; return true; } return false; }
__aicore__ inline bool Any(Params &p) { p.kind = 3; return true; }
extern "C" __global__ __aicore__ void select_kind(GM_ADDR x, GM_ADDR y)
{
    AscendC::GlobalTensor<uint32_t> xg, yg;
    xg.SetGlobalBuffer((__gm__ uint32_t *)x, 4);
    yg.SetGlobalBuffer((__gm__ uint32_t *)y, 8);
    using Handler = bool (*)(Params &p);
    Handler handlers[] = {Small, Medium, Any};
    for (uint32_t i = 0; i < 4; ++i) {
        Params p;
        p.limit = xg.GetValue(i);
        p.kind = 0;
        for (auto handler : handlers) {
            if (handler(p)) {
                break;
            }
        }
        yg.SetValue(i, p.kind);
        Params q;
        q.limit = xg.GetValue(i);
        q.kind = 0;
        handlers[1](q);  // Medium alone
        yg.SetValue(4 + i, q.kind);
    }
}
"""


def _run(tmp_path, text: str, n: int):
    (tmp_path / "k.cpp").write_text(text)
    x = np.array([5, 50, 300, 2000], np.uint32)
    result = run(str(tmp_path / "k.cpp"), {"x": x}, block_dim=1, outputs={"y": ((n,), "uint32")})
    assert result.ok and not result.findings, [str(f) for f in result.findings]
    return result.outputs["y"].tolist()


def test_a_range_for_over_an_array_visits_its_elements_in_order_and_breaks(tmp_path) -> None:
    # limit 5: no size fits (all 4 seen, 16 kept); 50: none; 300: 256 (3rd); 2000: 1024 (1st)
    assert _run(tmp_path, NUMBERS, 4) == [164, 164, 2563, 10241]


def test_an_array_of_functions_is_tried_in_turn(tmp_path) -> None:
    assert _run(tmp_path, FUNCTIONS, 8) == [1, 2, 3, 3, 2, 2, 0, 0]
