"""A tiling-key declaration whose values are namespace-scope constants (issue 28; ascendir/lower/kernel_entry.py
_tpl_bindings). `ASCENDC_TPL_UINT_DECL(MODE, ..., MODE_A, MODE_B)` with `constexpr uint32_t MODE_A = 3;` is folded
by the lowering, which looked the name up before any frame existed: an internal error (ASC000, IndexError) and no
kernel at all. The declarations are read in a frame of their own; the kernel runs as key 0's instance (MODE_A)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from passes.sim import run

SOURCE = """#include "kernel_operator.h"
#include "ascendc/host_api/tiling/template_argument.h"
using namespace AscendC;
constexpr uint32_t MODE_A = 3;
constexpr uint32_t MODE_B = 5;
ASCENDC_TPL_ARGS_DECL(tk, ASCENDC_TPL_UINT_DECL(MODE, ASCENDC_TPL_4_BW, ASCENDC_TPL_UI_LIST, MODE_A, MODE_B), );
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(MODE, ASCENDC_TPL_UI_LIST, MODE_A, MODE_B)));

template <uint32_t MODE>
__global__ __aicore__ void tk(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<int32_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int32_t *)y, 8);
    for (int i = 0; i < 8; i++) {
        yGm.SetValue(i, MODE);
    }
}
"""


def test_constants_named_in_the_declaration_are_folded(tmp_path: Path) -> None:
    path = tmp_path / "tk.cpp"
    path.write_text(SOURCE, encoding="utf-8")
    result = run(str(path), {}, chip="910B2", block_dim=1, outputs={"y": ((8,), "int32")})
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], np.full(8, 3, np.int32))
