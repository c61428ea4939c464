"""A using-declaration in a function's block names the namespace variable it brings in (issue 28, review of
a4fa364; ascendir/lower/namespace_lookup.py declare_block_using).

`using A::cnt;` in a block declares `cnt` there ([namespace.udecl]/1), and unqualified lookup searches the block
before any namespace ([basic.lookup.unqual]): `cnt` in that block is A::cnt, after the block the global `cnt`
again. Before, the lowering skipped the statement and `cnt` read the global variable silently (5, not 1)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t cnt = 5;
namespace A {
constexpr int32_t cnt = 1;
}
namespace B {
constexpr int32_t cnt = 2;
}
__aicore__ inline int32_t Local() { using A::cnt; return cnt; }
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 4);
    yGm.SetValue(0, Local());
    {
        using B::cnt;
        yGm.SetValue(1, cnt);
    }
    yGm.SetValue(2, cnt);
    yGm.SetValue(3, Local() + cnt);
}
"""


def test_a_block_using_declaration_names_its_namespace_variable(tmp_path: Path) -> None:
    src = tmp_path / "k.cpp"
    src.write_text(KERNEL)
    result = run(str(src), {}, block_dim=1, outputs={"y": ((4,), "int32")})
    assert result.ok and not result.findings, [str(f) for f in result.findings]
    assert result.outputs["y"].tolist() == [1, 2, 5, 6]
