"""A write through a non-const reference declared to a local scalar reaches the local (review of this session's
range-for and reference handling; ascendir/lower/astwalk.py facts().assigned).

`int32_t x = 1; int32_t &rx = x; rx = 9;` leaves x == 9 ([dcl.ref]/1: the reference is another name of x). The
lowering decides which locals are storage (cells) by the names a function writes, and a write through `rx` named
only `rx`: x stayed a constant 1 and read 1 afterwards, silently. The declaration `T &r = x;` now counts as a
possible write of x."""

from __future__ import annotations

from pathlib import Path

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 2);
    int32_t x = 1;
    int32_t &rx = x;
    rx = 9;
    yGm.SetValue(0, x);
    int32_t n = 2;
    const int32_t &cn = n;
    yGm.SetValue(1, cn);
}
"""


def test_a_write_through_a_reference_reaches_the_local(tmp_path: Path) -> None:
    src = tmp_path / "k.cpp"
    src.write_text(KERNEL)
    result = run(str(src), {}, block_dim=1, outputs={"y": ((2,), "int32")})
    assert result.ok and not result.findings, [str(f) for f in result.findings]
    assert result.outputs["y"].tolist() == [9, 2]
