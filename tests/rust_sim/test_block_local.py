"""`__BLOCK_LOCAL__` namespace-scope variables (ascendir/lower/block_local.py): each core has its own copy, zero
or as initialised at the start, kept from one function to the next. ops-nn's Matmul callbacks keep their state in
`__BLOCK_LOCAL__ __inline__ CallBackContext ctx;` (mat_mul_l1_full_load.h), set in the kernel's Process. Before,
every use was 'global variable 'ctx' is not a constant', a left-out statement (ASC958) where a core reached it."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from frontend import ast as A
from frontend.pipeline import load_text
from passes.sim import run

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
namespace Cb {
struct Ctx { bool isFirst; uint64_t step; };
__BLOCK_LOCAL__ __inline__ Ctx ctx;
__BLOCK_LOCAL__ __inline__ uint64_t procNum = 100;
}
__aicore__ inline void Step() {
    if (Cb::ctx.isFirst) {
        Cb::procNum += 10;
        Cb::ctx.isFirst = false;
    } else {
        Cb::procNum = Cb::procNum + Cb::ctx.step;
    }
}
extern "C" __global__ __aicore__ void k(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y + GetBlockIdx() * 16, 16);
    if (GetBlockIdx() == 0) {
        Cb::ctx.isFirst = true;
        Cb::ctx.step = 3;
    }
    Step();
    Step();
    for (int32_t i = 0; i < 16; i++) {
        yGm.SetValue(i, (int32_t)Cb::procNum);
    }
}
"""


def test_each_core_has_its_own_copy(tmp_path: Path) -> None:
    # core 0: 100 + 10 (first) + 3 (step); core 1 never set its ctx: zero-initialised, so 100 + 0 + 0. One copy
    # shared by the cores would give core 1 what core 0 left (113 or more).
    src = tmp_path / "k.cpp"
    src.write_text(KERNEL, encoding="utf-8")
    result = run(str(src), {}, block_dim=2, outputs={"y": ((32,), "int32")})
    assert result.ok and not result.findings, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], [113] * 16 + [100] * 16)


def test_a_shared_namespace_variable_stays_a_gap(tmp_path: Path) -> None:
    # without __BLOCK_LOCAL__ the variable is one copy for all cores, which the lowering does not model: reported
    src = tmp_path / "k.cpp"
    src.write_text(KERNEL.replace("__BLOCK_LOCAL__ __inline__ uint64_t", "uint64_t"), encoding="utf-8")
    result = run(str(src), {}, block_dim=2, outputs={"y": ((32,), "int32")})
    assert any(d.code == "ASC958" and d.span is not None and d.span.line == 10 for d in result.findings), \
        [str(d) for d in result.findings]  # (`Cb::procNum += 10;`)


def test_the_parser_keeps_block_local_among_the_specifiers() -> None:
    program = load_text("namespace N { __BLOCK_LOCAL__ __inline__ uint64_t n; [[maybe_unused]] int m; }\n", "t.cpp")
    assert not program.diagnostics
    specs = {d.name: v.specifiers for v in program.units[0].ast.walk() if isinstance(v, A.VarDecl)
             for d in v.declarators}
    assert A.BLOCK_LOCAL in specs["n"] and A.BLOCK_LOCAL not in specs["m"]
