"""Reads of namespace-scope variables in kernel code (ascendir/lower/lower_names.py, namespace_writes.py).

1. `Ns::x` is looked up in namespace Ns only ([basic.lookup.qual]/1, [namespace.qual]): a local `x` in scope does
   not hide it. Before, the qualifier was dropped and the local read (Ns::x gave the local's 3, not 7; Ns::b, a
   __BLOCK_LOCAL__ variable, gave the local b before and after `Ns::b = 9`).
2. A namespace variable that is neither const nor __BLOCK_LOCAL__ is one copy shared by the cores, whose writes
   the lowering does not model (a gap). Where the program writes it anywhere, a read is that gap too; before, the
   read silently gave the initial value (7, 7 around Bump()). One that nothing writes still reads its initial
   value, also where a function writes a local of the same name."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

SHADOWED = """#include "kernel_operator.h"
using namespace AscendC;
namespace Ns {
constexpr int32_t x = 7;
__BLOCK_LOCAL__ __inline__ int32_t b = 5;
}
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 8);
    int32_t x = 3;
    int32_t b = 4;
    yGm.SetValue(0, x);
    yGm.SetValue(1, Ns::x);
    yGm.SetValue(2, b);
    yGm.SetValue(3, Ns::b);
    Ns::b = 9;
    yGm.SetValue(4, Ns::b);
    yGm.SetValue(5, b);
    yGm.SetValue(6, Ns::x + x);
    yGm.SetValue(7, AscendC::GetBlockIdx());
}
"""

SHARED = """#include "kernel_operator.h"
using namespace AscendC;
namespace Ns {
int32_t count = 7;
}
__aicore__ inline void Bump() { %s }
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 2);
    yGm.SetValue(0, Ns::count);
    Bump();
    yGm.SetValue(1, Ns::count);
}
"""


def _run(tmp_path: Path, text: str, n: int) -> object:
    src = tmp_path / "k.cpp"
    src.write_text(text, encoding="utf-8")
    return run(str(src), {}, block_dim=1, outputs={"y": ((n,), "int32")})


def test_a_qualified_name_is_not_hidden_by_a_local(tmp_path: Path) -> None:
    result = _run(tmp_path, SHADOWED, 8)
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], [3, 7, 4, 5, 9, 4, 10, 0])


def test_a_written_shared_variable_is_a_gap_where_read(tmp_path: Path) -> None:
    for write in ("Ns::count = Ns::count + 1;", "Ns::count++;", "int32_t &c = Ns::count; c = 1;"):
        result = _run(tmp_path, SHARED % write, 2)
        lines = {d.span.line for d in result.findings if d.code == "ASC958" and d.span is not None
                 and "'count', which the program writes" in d.message}
        assert {10, 12} <= lines, (write, [str(d) for d in result.findings])
        assert 7 not in list(result.outputs["y"]), write  # (no initial value read as if nothing wrote it)


def test_an_unwritten_shared_variable_reads_its_initial_value(tmp_path: Path) -> None:
    # nothing writes Ns::count: `count` in Bump is a local of its own
    result = _run(tmp_path, SHARED % "int32_t count = 1; count += 2; (void)count;", 2)
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], [7, 7])
