"""Issue 28: the simulator's promise that a kernel lowered with gaps (ASC103) runs only where no core reaches a gap,
and otherwise says which construct stops it. Two silent paths closed here:
- a statement the device lowering left out had nothing in the simulator program, and the launch drops ASC103
  warnings, so a run through it showed only a wrong or unwritten output (catlass 13_basic_matmul_tla: "C unwritten").
  The lowering now marks it (ascendc.left_out, a `left_out` instruction): reached, it is ASC958 at the gap's line,
  once; on a branch no core takes it stays silent;
- a value the lowering left undefined (ascendc.undef: a header constant with no known value, a variable whose
  initialiser failed) read as 0 wherever it was used, so an InitBuffer of it or a UB offset by it gave a silently
  wrong layout (ops-nn mat_mul_v3 before TOTAL_UB_SIZE had a value). Its use as a size, an offset, a condition or a
  call's operand is now ASC958 naming the value.
The kernels are the team's.
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

# `noexcept(expr)` is a construct the device lowering does not model: the assignment is left out (ASC103)
GAP = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void gap(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 8);
    yGm.SetGlobalBuffer((__gm__ float *)y, 8);
    float scale = 2.0f;
    if (COND) {
        scale = noexcept(scale + 1.0f) ? 3.0f : 4.0f;
    }
    for (int i = 0; i < 8; i++) {
        yGm.SetValue(i, xGm.GetValue(i) * scale);
    }
    DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(yGm);
}
"""
GAP_LINE = GAP.split("noexcept")[0].count("\n") + 1

# a UB buffer sized, or a tensor placed, by TOTAL_VEC_LOCAL_SIZE, a header constant the lowering has no value for
SIZES = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void sizes(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, BYTES);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    yGm.SetGlobalBuffer((__gm__ float *)y, 64);
    LocalTensor<float> all = ub.Get<float>();
    LocalTensor<float> part = all[OFFSET / sizeof(float)];
    DataCopy(part, xGm, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, part, 64);
}
"""


def _errors(result):  # type: ignore[no-untyped-def]
    return [f for f in result.findings if f.severity.name == "ERROR"]


def _gap(cond: str):  # type: ignore[no-untyped-def]
    x = np.arange(8, dtype=np.float32)
    return x, run(GAP.replace("COND", cond), {"x": x}, block_dim=4, outputs={"y": ((8,), "float32")})


def test_a_left_out_statement_a_core_reaches_is_a_finding_at_its_line() -> None:
    _, result = _gap("true")
    [finding] = _errors(result)  # once, though four cores reach it
    assert finding.code == "ASC958" and finding.span is not None and finding.span.line == GAP_LINE
    assert "the lowering left out (noexcept(...) of an expression is not modelled)" in finding.message
    assert "may change what the kernel computes" in finding.message


def test_a_left_out_statement_on_a_branch_no_core_takes_is_silent() -> None:
    x, result = _gap("GetBlockIdx() > 8")
    assert _errors(result) == []
    np.testing.assert_array_equal(result.outputs["y"], 2 * x)


def _sizes(nbytes: str, offset: str):  # type: ignore[no-untyped-def]
    x = np.arange(64, dtype=np.float32)
    return x, run(SIZES.replace("BYTES", nbytes).replace("OFFSET", offset), {"x": x}, block_dim=1,
                  outputs={"y": ((64,), "float32")})


def test_an_undefined_buffer_size_is_a_finding_naming_it() -> None:
    _, result = _sizes("TOTAL_VEC_LOCAL_SIZE", "1024")
    [finding] = _errors(result)
    assert finding.code == "ASC958" and finding.span is not None
    assert finding.span.line == SIZES.split("InitBuffer")[0].count("\n") + 1
    assert "a buffer length is a value from 'TOTAL_VEC_LOCAL_SIZE', which the lowering left without one" in (
        finding.message)


def test_an_undefined_ub_offset_is_a_finding_naming_it() -> None:
    _, result = _sizes("4096", "TOTAL_VEC_LOCAL_SIZE / 2")
    [finding] = _errors(result)
    assert finding.code == "ASC958" and finding.span is not None
    assert finding.span.line == SIZES.split("all[")[0].count("\n") + 1
    assert "offset is a value from 'TOTAL_VEC_LOCAL_SIZE'" in finding.message


def test_defined_sizes_and_offsets_run_clean() -> None:
    x, result = _sizes("4096", "1024")
    assert _errors(result) == []
    np.testing.assert_array_equal(result.outputs["y"], x)
