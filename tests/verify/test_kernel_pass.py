"""A kernel that declares itself cube-only is read as the AIC pass of the split chips' compile
(frontend/kernel_pass.py): `__DAV_C220_CUBE__` defined, `__DAV_C220_VEC__` not. Before, every kernel source was the
vector pass, and ops-nn transpose_batch_mat_mul (AIC_ONLY in each template selection; its L0C -> GM Fixpipe and L1
buffers exist only under `#if defined(__DAV_C220_CUBE__)`) ran 4 instructions from its project and wrote nothing
(ASC961)."""

from __future__ import annotations

import pytest

from frontend.kernel_pass import cube_only
from frontend.readers import read_cpp
from passes.verify import load_for_check

KERNEL = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void k(GM_ADDR x)
{
    {declaration}
#if defined(__DAV_C220_CUBE__)
    int cubeSide = 1;
#endif
#if defined(__DAV_C220_VEC__)
    int vectorSide = 1;
#endif
}
"""


def _passes(declaration: str) -> set[str]:
    program, _ = load_for_check(read_cpp("/tmp/k.cpp", KERNEL.replace("{declaration}", declaration)))
    text = program.units[0].preprocessed.text
    return {side for side in ("cubeSide", "vectorSide") if side in text}


@pytest.mark.parametrize(("declaration", "expected"), [
    ("KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);", {"cubeSide"}),
    ("KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);", {"vectorSide"}),
    ("KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);", {"vectorSide"}),
    ("", {"vectorSide"}),  # no declaration: a mixed kernel is checked as its vector pass
])
def test_a_cube_only_kernel_is_read_as_the_cube_pass(declaration: str, expected: set[str]) -> None:
    assert _passes(declaration) == expected


def test_template_selections_declare_the_kernel_type_too() -> None:
    aic = "ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIC_ONLY), ASCENDC_TPL_UINT_SEL(A, 1, 0))"
    aiv = "ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIV_ONLY), ASCENDC_TPL_UINT_SEL(A, 1, 1))"
    assert cube_only([f"ASCENDC_TPL_SEL({aic}, {aic});"])
    assert not cube_only([f"ASCENDC_TPL_SEL({aic}, {aiv});"])  # another key runs on the vector cores
    assert not cube_only(["// KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);"])  # a comment declares nothing


def test_a_kernel_file_alone_declares_its_type_in_a_header_beside_it(tmp_path) -> None:
    # ops-nn transpose_batch_mat_mul.cpp run alone: its AIC_ONLY selections are in the tiling-key header it includes
    # (before: the vector pass, unless -U __DAV_C220_VEC__ -D __DAV_C220_CUBE__ was given)
    sel = "ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIC_ONLY), ASCENDC_TPL_UINT_SEL(A, 1, 0))"
    (tmp_path / "k_tiling_key.h").write_text(f"#pragma once\nASCENDC_TPL_SEL({sel});\n")
    source = tmp_path / "k.cpp"
    source.write_text('#include "k_tiling_key.h"\n' + KERNEL.replace("{declaration}", ""))
    program, _ = load_for_check(read_cpp(str(source), source.read_text()))
    assert "cubeSide" in program.units[0].preprocessed.text
    assert "vectorSide" not in program.units[0].preprocessed.text
