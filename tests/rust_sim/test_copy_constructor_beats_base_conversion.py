"""A copy of an object is made by its class's copy constructor even where another constructor could take the
object through a conversion (C++ [over.ics.ref]/1: binding `T const &` to a T is the identity, an exact match;
binding a base's reference is a derived-to-base Conversion and loses, [over.ics.rank]/3.2, /4.4). Issue 29:
catlass's tla::Layout derives from tuple<Shape, Stride> and declares `Layout(Shape const &shape = {}, Stride const
&stride = {})`; `LayoutIn layout = other;`, a by-value Layout parameter and a mem-initializer `layout(layout_)`
took the copied layout as the Shape (the class named like the base, its template arguments not compared) and left
the copy's elements undefined: 14_optimized_matmul_tla's padding kernel read a row length of 0 and divided by it.
Our own miniature of the idiom."""

from __future__ import annotations

import numpy as np

from passes.sim import run

SOURCE = """\
#include "kernel_operator.h"
template <class A, class B>
struct Pair {
    A first;
    B second;
    __aicore__ Pair() {}
    __aicore__ Pair(A const &a, B const &b) : first(a), second(b) {}
};
template <class Shape, class Stride>
struct Layout : private Pair<Shape, Stride> {
    __aicore__ Layout(Shape const &shape = {}, Stride const &stride = {}) : Pair<Shape, Stride>(shape, stride) {}
    __aicore__ Shape const &shape() const { return this->first; }
    __aicore__ Stride const &stride() const { return this->second; }
};
using Dims = Pair<uint32_t, uint32_t>;
using Rows = Layout<Dims, Dims>;
template <class L>
struct Holder {
    L layout;
    __aicore__ Holder(L const &layout_) : layout(layout_) {}
};
__aicore__ inline uint32_t Cols(Rows layout) { return layout.shape().second; }

extern "C" __global__ __aicore__ void copies(GM_ADDR x, GM_ADDR y)
{
    AscendC::GlobalTensor<int32_t> xg;
    xg.SetGlobalBuffer((__gm__ int32_t *)x, 4);
    AscendC::GlobalTensor<int32_t> yg;
    yg.SetGlobalBuffer((__gm__ int32_t *)y, 5);
    Rows original(Dims(xg.GetValue(0), xg.GetValue(1)), Dims(xg.GetValue(2), xg.GetValue(3)));
    Rows copied = original;
    Rows braced{original};
    Holder<Rows> held(original);
    yg.SetValue(0, copied.shape().first);
    yg.SetValue(1, copied.stride().second);
    yg.SetValue(2, braced.shape().second);
    yg.SetValue(3, held.layout.stride().first);
    yg.SetValue(4, Cols(original));
}
"""


def test_a_copy_takes_the_copy_constructor() -> None:
    result = run(SOURCE, [np.array([3, 4, 5, 6], np.int32)], block_dim=1, outputs={"y": np.zeros(5, np.int32)})
    assert result.ok, result.findings
    assert result.outputs["y"].tolist() == [3, 6, 4, 5, 4]
