"""A class template named with its namespace (`tile::CopyIn<int, GType<float, RowMajor>>`) inside a class that
declares a member alias of the same name (`using CopyIn = tile::CopyIn<int, GType<int8_t, RowMajor>>;`, as
catlass's DequantFP8toFP16 does with CopyGm2Ub). C++ finds the namespace's template: a qualified name never names
a member alias of the enclosing class. Before (issue 29): the alias was taken, the float copy became the int8 one,
and its call was ASC106 (LocalTensor<float> passed where LocalTensor<int8_t> is taken) with z never written."""

from __future__ import annotations

import numpy as np

from passes.sim import run

KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;

namespace lay { struct RowMajor {}; }
template <class E, class L> struct GType { using Element = E; };
namespace tile {
template <class A, class G> struct CopyIn {};
template <typename Element> struct CopyIn<int, GType<Element, lay::RowMajor>> {
    __aicore__ inline void operator()(LocalTensor<Element> const &dst, GlobalTensor<Element> const &src, uint32_t n)
    {
        DataCopy(dst, src, n);
    }
};
}

struct Loader {
    using CopyIn = tile::CopyIn<int, GType<int8_t, lay::RowMajor>>;
    using CopyInF32 = tile::CopyIn<int, GType<float, lay::RowMajor>>;
    CopyIn copyIn;
    CopyInF32 copyInF32;
    __aicore__ inline void Run(GlobalTensor<int8_t> &xg, GlobalTensor<float> &fg, LocalTensor<int8_t> &a,
        LocalTensor<float> &f)
    {
        copyIn(a, xg, 32);
        copyInF32(f, fg, 8);
    }
};

extern "C" __global__ __aicore__ void load_two(GM_ADDR x, GM_ADDR fx, GM_ADDR y, GM_ADDR z)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    GlobalTensor<int8_t> xg;
    xg.SetGlobalBuffer((__gm__ int8_t *)x, 32);
    GlobalTensor<float> fg;
    fg.SetGlobalBuffer((__gm__ float *)fx, 8);
    GlobalTensor<int8_t> yg;
    yg.SetGlobalBuffer((__gm__ int8_t *)y, 32);
    GlobalTensor<float> zg;
    zg.SetGlobalBuffer((__gm__ float *)z, 8);
    LocalTensor<int8_t> a = buf.Get<int8_t>();
    LocalTensor<float> f = buf.GetWithOffset<float>(8, 512);
    Loader loader;
    loader.Run(xg, fg, a, f);
    pipe_barrier(PIPE_ALL);
    DataCopy(yg, a, 32);
    DataCopy(zg, f, 8);
}
"""


def test_namespaced_template_is_not_the_member_alias_of_its_name() -> None:
    x = (np.arange(32) - 16).astype(np.int8)
    f = np.arange(8).astype(np.float32) + 0.5
    result = run(KERNEL, [x, f], outputs={"y": ((32,), "int8"), "z": ((8,), "float32")}, block_dim=1)
    assert not result.findings, result.findings  # before: 2 x ASC106, ASC959 and ASC952
    assert result.outputs["y"].tolist() == x.tolist()
    assert result.outputs["z"].tolist() == f.tolist()
