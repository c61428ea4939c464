"""An AscendC API called with its namespace and template arguments (`AscendC::Cast<half, uint8_t>(dst, src,
mode, n)`) in a class whose caller declares a member alias of the same name (`using Cast = Dequant<...>;`: catlass's
FP8Matmul names its block dequantiser so, and the dequantiser calls AscendC::Cast). The parser reads a name as a
type once any scope declares a type of that name, so the call came as a functional cast. Before (issue 29): the
lowering built a temporary of an unknown type Cast and discarded it (ASC103), no cast ran, and the output was
memory nothing wrote (ASC952). A name that names no type where it is written, but a function or an API, is called."""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;

template <uint32_t N>
struct Widen {
    __aicore__ inline void Run(LocalTensor<int8_t> &src, LocalTensor<half> &dst)
    {
        AscendC::Cast<half, uint8_t>(dst.template ReinterpretCast<half>(), src.template ReinterpretCast<uint8_t>(),
            AscendC::RoundMode::CAST_NONE, N);
        pipe_barrier(PIPE_V);
    }
};

template <uint32_t N>
struct Outer {
    using Cast = Widen<N>;
    __aicore__ inline void operator()(LocalTensor<int8_t> &a, LocalTensor<half> &b)
    {
        Cast cast;
        cast.Run(a, b);
    }
};

extern "C" __global__ __aicore__ void widen(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    GlobalTensor<int8_t> xg;
    xg.SetGlobalBuffer((__gm__ int8_t *)x, 128);
    GlobalTensor<half> yg;
    yg.SetGlobalBuffer((__gm__ half *)y, 128);
    LocalTensor<int8_t> a = buf.Get<int8_t>();
    LocalTensor<half> b = buf.GetWithOffset<half>(128, 256);
    DataCopy(a, xg, 128);
    pipe_barrier(PIPE_ALL);
    Outer<128> outer;
    outer(a, b);
    pipe_barrier(PIPE_ALL);
    DataCopy(yg, b, 128);
}
"""


def test_namespaced_api_call_is_a_call_where_an_alias_shares_its_name() -> None:
    x = (np.arange(128) - 64).astype(np.int8)
    result = run(KERNEL, [x], outputs={"y": ((128,), "float16")}, block_dim=1)
    assert not result.findings, result.findings  # before: ASC952, y never written (the Cast was not called)
    # the bytes read as uint8 (-64 is 192), widened to half
    assert result.outputs["y"].tolist() == x.view(np.uint8).astype(np.float16).tolist()
