"""A kernel with no op description given its tensors by the parameters' names binds each to the parameter of its
name. Given fewer than it has parameters ({"x": ...} for add(x, y, z)), the launch bound them in order and then
called 'y' an output (ASC961 'no core writes ... output y', the output z a 0-byte buffer: ASC950); a parameter
no name gives is now said by name and the run does not start (issue 30, found by fuzzrun). Tensors given in
order keep the positional rule (inputs, then outputs)."""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void add(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, 256);
    pipe.InitBuffer(b, 256);
    GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    yGm.SetGlobalBuffer((__gm__ float *)y, 64);
    zGm.SetGlobalBuffer((__gm__ float *)z, 64);
    LocalTensor<float> ta = a.Get<float>();
    LocalTensor<float> tb = b.Get<float>();
    DataCopy(ta, xGm, 64);
    DataCopy(tb, yGm, 64);
    PipeBarrier<PIPE_ALL>();
    Add(ta, ta, tb, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, ta, 64);
}
"""
X = np.arange(64, dtype=np.float32)
Z = {"z": ((64,), "float32")}


def test_a_parameter_no_name_gives_is_named() -> None:
    result = run(KERNEL, {"x": X}, block_dim=1, outputs=Z)
    assert not result.completed
    assert [d.code for d in result.findings] == ["ASC958"], [d.message for d in result.findings]
    message = result.findings[0].message
    assert "parameter 'y'" in message and "--input y=" in message, message
    assert "ASC961" not in [d.code for d in result.findings]


def test_every_parameter_left_out_is_listed() -> None:
    result = run(KERNEL, {"x": X}, block_dim=1)
    assert [d.code for d in result.findings] == ["ASC958"]
    assert "parameters 'y', 'z'" in result.findings[0].message


def test_names_in_any_order_bind_by_name() -> None:
    result = run(KERNEL, {"y": X + 1, "x": X}, block_dim=1, outputs=Z)
    assert result.completed and not result.findings, [d.message for d in result.findings]
    assert np.array_equal(result.outputs["z"], 2 * X + 1)


def test_tensors_in_order_keep_the_positional_rule() -> None:
    result = run(KERNEL, [X, X + 1], block_dim=1, outputs=Z)
    assert result.completed and not result.findings, [d.message for d in result.findings]
    assert np.array_equal(result.outputs["z"], 2 * X + 1)
    # names that are not the parameters' are in order too (the caller's own names for them)
    result = run(KERNEL, {"a": X, "b": X + 1}, block_dim=1, outputs={"c": ((64,), "float32")})
    assert result.completed and not result.findings, [d.message for d in result.findings]
    assert np.array_equal(result.outputs["c"], 2 * X + 1)
