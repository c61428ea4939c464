"""A scalar read of memory nothing wrote is judged where its value goes (rust_sim/src/taint.rs).

NPUKernelBench AbsMath's int64 answer copies 4 int64 (one 32-byte block) from a 1-element tensor: elements 1-3
are the allocation's padding. It GetValues all 4, computes |x| with the scalar unit and SetValues them into the
output tile, which goes back to y's padding. Nothing the caller sees depends on the padding, so that is clean;
the same values used for an output element, a branch, a loop bound or a vector scalar are ASC952 at that line.
"""

from __future__ import annotations

import numpy as np

from passes.sim import run

# {use} is spliced in after the value is computed; the marked lines are found by their text
KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void absk(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<int64_t> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ int64_t *)x);
    yGm.SetGlobalBuffer((__gm__ int64_t *)y);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, 32);
    pipe.InitBuffer(outQ, 1, 32);
    LocalTensor<int64_t> a = inQ.AllocTensor<int64_t>();
    DataCopy(a, xGm, 4);
    inQ.EnQue(a);
    a = inQ.DeQue<int64_t>();
    LocalTensor<int64_t> b = outQ.AllocTensor<int64_t>();
    int64_t acc = 0;
    for (int32_t i = 0; i < 4; i++) {{
        int64_t v = a.GetValue(i);
        int64_t sign = v >> 63;
        v = (v ^ sign) - sign;
{use}
        b.SetValue(i, v);
    }}
{after}
    outQ.EnQue(b);
    inQ.FreeTensor(a);
    b = outQ.DeQue<int64_t>();
    DataCopy(yGm, b, 4);  // copy out
    outQ.FreeTensor(b);
}}
"""


def simulate(use: str = "", after: str = "") -> tuple[object, str]:
    src = KERNEL.format(use=use, after=after)
    x = np.array([-5], dtype=np.int64)
    return run(src, {"x": x}, block_dim=1, tiling={"n": 1}, outputs={"y": ((1,), "int64")}), src


def line_of(src: str, text: str) -> int:
    return next(i for i, ln in enumerate(src.splitlines(), 1) if text in ln)


def uninitialised(result: object) -> list:
    return [d for d in result.findings if d.code == "ASC952"]


def test_values_from_padding_that_only_reach_padding_are_clean() -> None:
    result, _ = simulate()
    assert result.completed and not uninitialised(result), [str(d) for d in result.findings]
    assert result.outputs["y"].tolist() == [5]


def test_a_value_from_padding_in_an_output_element_is_reported_at_the_write() -> None:
    # the sum of all four lands in y[0]
    result, src = simulate(use="        acc += v;", after="    b.SetValue(0, acc);")
    hits = uninitialised(result)
    assert len(hits) == 1 and hits[0].is_error, [str(d) for d in result.findings]
    assert hits[0].span is not None and hits[0].span.line == line_of(src, "// copy out")
    assert "output 'y'" in hits[0].message


def test_a_branch_on_a_value_from_padding_is_reported_at_the_branch() -> None:
    result, src = simulate(use="        if (v > 100) { v = 100; }  // branch")
    hits = uninitialised(result)
    assert len(hits) == 1 and hits[0].is_error, [str(d) for d in result.findings]
    assert hits[0].span is not None and hits[0].span.line == line_of(src, "// branch")
    # the message names the GetValue the value came from
    assert f":{line_of(src, 'a.GetValue(i)')}:" in hits[0].message, hits[0].message


def test_a_loop_bound_from_padding_is_reported_at_the_loop() -> None:
    use = "        for (int64_t j = 0; j < v; j++) { acc += 1; }  // loop"
    result, src = simulate(use=use)
    hits = uninitialised(result)
    assert hits and all(d.span is not None and d.span.line == line_of(src, "// loop") for d in hits), \
        [str(d) for d in result.findings]


def test_a_vector_scalar_from_padding_is_reported_at_the_call() -> None:
    # v after the loop is element 3's |x|, from the padding
    result, src = simulate(after="    int64_t last = a.GetValue(3);\n    Duplicate(b.ReinterpretCast<int32_t>(), "
                                 "(int32_t)last, 8);  // dup")
    hits = uninitialised(result)
    assert hits and hits[0].span is not None and hits[0].span.line == line_of(src, "// dup"), \
        [str(d) for d in result.findings]
