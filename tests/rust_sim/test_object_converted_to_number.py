"""A class object given where a number is declared is that number, converted by the class's conversion operator
(C++ [dcl.init]/17.6.3), also for a parameter and a local declared `uint32_t`: the variable's type is the declared
one, whatever a template deduces from it afterwards. Issue 29: catlass 14_optimized_matmul_tla's host code calls
`GetPaddingLayout(tagA, get<0>(L1TileShape{}), ...)` whose `uint32_t blockRows` is given tla's `Int<128>{}`; the
lowering bound the parameter as the Int<128> object, so `MakeShape(blockRows, ...)` made a shape of Int<128>, not
of uint32_t, `is_same_v<typename Tensor::Layout, LayoutInnerDstGm>` in PaddingMatrixBlockND was false, and the
padding AIVs transposed the row-major workspace (its cores wrote overlapping rows, ASC953). Our own miniature: a
Box<A> made by a deduced MakeBox from the parameter or local."""

from __future__ import annotations

import numpy as np

from passes.sim import run

SOURCE = """\
#include "kernel_operator.h"
#include <type_traits>
template <uint32_t N>
struct Const {
    static constexpr uint32_t value = N;
    __aicore__ constexpr operator uint32_t() const { return N; }
};
template <class A>
struct Box {
    A a;
};
template <class A>
__aicore__ inline Box<A> MakeBox(A a) { return Box<A>{a}; }
__aicore__ inline auto ByValue(uint32_t r) { return MakeBox(r); }
__aicore__ inline auto ByConstRef(uint32_t const &r) { return MakeBox(r); }
template <class T>
__aicore__ inline auto InTemplate(T, uint32_t r) { return MakeBox(r); }
struct Holder {
    uint32_t v;
    __aicore__ Holder(uint32_t x) : v(x) {}
};

extern "C" __global__ __aicore__ void object_to_number(GM_ADDR y)
{
    AscendC::GlobalTensor<int32_t> yg;
    yg.SetGlobalBuffer((__gm__ int32_t *)y, 8);
    auto b = ByValue(Const<128>{});
    auto c = ByConstRef(Const<64>{});
    auto d = InTemplate(1, Const<32>{});
    uint32_t local = Const<7>{};
    auto e = MakeBox(local);
    Holder h(Const<11>{});
    auto f = MakeBox(h.v);
    yg.SetValue(0, std::is_same_v<decltype(b), Box<uint32_t>> ? 1 : 2);
    yg.SetValue(1, std::is_same_v<decltype(c), Box<uint32_t>> ? 1 : 2);
    yg.SetValue(2, std::is_same_v<decltype(d), Box<uint32_t>> ? 1 : 2);
    yg.SetValue(3, std::is_same_v<decltype(e), Box<uint32_t>> ? 1 : 2);
    yg.SetValue(4, std::is_same_v<decltype(f), Box<uint32_t>> ? 1 : 2);
    yg.SetValue(5, sizeof(b) + sizeof(e));
    yg.SetValue(6, b.a + c.a + d.a);
    yg.SetValue(7, e.a + f.a);
}
"""


def test_a_number_parameter_or_local_given_an_object_holds_the_number() -> None:
    result = run(SOURCE, [], block_dim=1, outputs={"y": np.zeros(8, np.int32)})
    assert result.ok, result.findings
    # before: [2, 2, 2, 2, 1, 2, 224, 18] (b, c, d, e boxes of Const<N>, an empty class of 1 byte)
    assert result.outputs["y"].tolist() == [1, 1, 1, 1, 1, 8, 224, 18]
