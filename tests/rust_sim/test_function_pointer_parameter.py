"""A function pointer parameter given a function's name, then called (issue 28; ascendir/lower/calls.py).

ops-nn layer_norm_grad_v3 (layer_norm_grad_v3_single_read.h) passes AscendC's `Sub` and `Mul` to
`BinElemWithInlinedLastBrcFP32(..., void (*func)(const LocalTensor<float>&, ..., const BinaryRepeatParams&))`,
which calls `func(dst, src0, src1, mask, repeat, params)`. The call was left out ('call of 'func', which is a
variable', sim_gaps 20 instructions, and 20 `<not lowered>` ones for the queues in reach): nothing was computed.
A call through the parameter calls the function the argument named ([expr.call]/1)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passes.sim import run

SOURCE = """#include "kernel_operator.h"
using namespace AscendC;
using T = float;

__aicore__ inline void Twice(const LocalTensor<T> &dst, const LocalTensor<T> &a, const LocalTensor<T> &b,
                             const int32_t &n)
{
    Add(dst, a, a, n);
}

class K {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ T *)x, 64);
        yGm.SetGlobalBuffer((__gm__ T *)y, 128);
        pipe.InitBuffer(buf, 192 * sizeof(T));
    }
    __aicore__ inline void Apply(const LocalTensor<T> &dst, const LocalTensor<T> &a, const LocalTensor<T> &b,
                                 void (*func)(const LocalTensor<T> &, const LocalTensor<T> &, const LocalTensor<T> &,
                                              const int32_t &))
    {
        func(dst, a, b, 64);
        PipeBarrier<PIPE_V>();
    }
    __aicore__ inline void Process()
    {
        LocalTensor<T> l = buf.Get<T>();
        DataCopy(l, xGm, 64);
        PipeBarrier<PIPE_ALL>();
        Apply(l[64], l, l, FIRST);
        Apply(l[128], l[64], l, Mul);
        PipeBarrier<PIPE_ALL>();
        DataCopy(yGm, l[64], 128);
    }
private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<T> xGm, yGm;
};

extern "C" __global__ __aicore__ void fp(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    K k;
    k.Init(x, y);
    k.Process();
}
"""


@pytest.mark.parametrize("first", ["Add", "Twice"])  # an AscendC API, a function of the program
def test_a_call_through_the_parameter_calls_the_named_function(tmp_path: Path, first: str) -> None:
    path = tmp_path / "fp.cpp"
    path.write_text(SOURCE.replace("FIRST", first), encoding="utf-8")
    x = np.arange(64, dtype=np.float32)
    result = run(str(path), {"x": x}, chip="910B2", block_dim=1, outputs={"y": ((128,), "float32")})
    assert result.ok, [str(d) for d in result.findings]
    y = result.outputs["y"]
    np.testing.assert_array_equal(y[:64], x + x)
    np.testing.assert_array_equal(y[64:], (x + x) * x)


TEMPLATED = """#include "kernel_operator.h"
using namespace AscendC;
using T = float;

template <int M>
__aicore__ inline void Scale(const LocalTensor<T> &dst, const LocalTensor<T> &a, const int32_t &n)
{
    Muls(dst, a, (T)M, n);
}

template <int M>
__aicore__ inline void Apply(const LocalTensor<T> &dst, const LocalTensor<T> &a,
                             void (*func)(const LocalTensor<T> &, const LocalTensor<T> &, const int32_t &))
{
    func(dst, a, 64);
    PipeBarrier<PIPE_V>();
}

template <int M>
class K {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ T *)x, 64);
        yGm.SetGlobalBuffer((__gm__ T *)y, 64);
        pipe.InitBuffer(buf, 128 * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<T> l = buf.Get<T>();
        DataCopy(l, xGm, 64);
        PipeBarrier<PIPE_ALL>();
        Apply<5>(l[64], l, Scale<M>);
        PipeBarrier<PIPE_ALL>();
        DataCopy(yGm, l[64], 64);
    }
private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<T> xGm, yGm;
};

extern "C" __global__ __aicore__ void fp(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    K<3> k;
    k.Init(x, y);
    k.Process();
}
"""


def test_template_arguments_are_those_where_the_function_was_named(tmp_path: Path) -> None:
    # `Apply<5>(l[64], l, Scale<M>)` in K<3>: func is Scale<3> ([conv.func], the arguments evaluated where the
    # name is written); Apply's own M is 5. Before, the call through func re-read `Scale<M>` in Apply's frame and
    # scaled by 5, with no finding.
    path = tmp_path / "fp.cpp"
    path.write_text(TEMPLATED, encoding="utf-8")
    result = run(str(path), {"x": np.ones(64, dtype=np.float32)}, chip="910B2", block_dim=1,
                 outputs={"y": ((64,), "float32")})
    assert result.ok, [str(d) for d in result.findings]
    np.testing.assert_array_equal(result.outputs["y"], np.full(64, 3, np.float32))
