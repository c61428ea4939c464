"""A tuple that keeps each element in a base class of its own (issue 29: catlass tla's `tla::tuple`, whose
`tla::get<0>(L1TileShape{})` stopped 13_basic_matmul_tla). Our own miniature of the idiom:

- `TupleBase<seq<I...>, T...> : Slot<I, T>...`: the partial specialisation's pattern ends in a pack that takes the
  arguments the others leave (C++ [temp.deduct.type]/9), and the pack expansion in the base list gives one base per
  element (C++ [temp.variadic]/5), each initialised by the expanded mem-initializer `Slot<I, T>(t)...`;
- sibling bases each declaring `t_` are separate subobjects ([class.mi]): each part's code reads its own;
- `get_slot<I>(t)` deduces T from the one base `Slot<I, T, false>` of the argument's class (C++ [temp.deduct.call]/4.3),
  and the overload for empty elements (`Slot<N, T, true>`), which no base matches, is dropped;
- a constructor with a function parameter pack (`tuple(T const&... t)`) takes any number of arguments;
- an element that is an integral-constant class converts to a number through its conversion operator where a
  number is wanted ([class.conv.fct]): `static constexpr uint32_t M = get<0>(Shape{})`.

Before: every value read as 0 with no finding (get's result was a value the lowering left undefined) and the
constants were ASC103 'cannot convert C<128> to uint32_t'."""

from __future__ import annotations

import numpy as np

from passes.sim import run

SOURCE = """\
#include "kernel_operator.h"
#include <type_traits>
namespace mini {
template <auto v>
struct C {
    static constexpr auto value = v;
    using value_type = decltype(v);
    __aicore__ constexpr operator value_type() const noexcept { return value; }
};
template <size_t... I> struct seq {};
template <size_t N, class T, bool IsEmpty = std::is_empty<T>::value>
struct Slot;
template <size_t N, class T>
struct Slot<N, T, true> {
    __aicore__ constexpr Slot() {}
    __aicore__ constexpr Slot(T const &) {}
};
template <size_t N, class T>
__aicore__ constexpr T get_slot(Slot<N, T, true> const &) { return {}; }
template <size_t N, class T>
struct Slot<N, T, false> {
    __aicore__ constexpr Slot() : t_{} {}
    __aicore__ constexpr Slot(T const &t) : t_{t} {}
    T t_;
};
template <size_t N, class T>
__aicore__ constexpr T const &get_slot(Slot<N, T, false> const &x) { return x.t_; }
template <class Seq, class... T>
struct TupleBase;
template <size_t... I, class... T>
struct TupleBase<seq<I...>, T...> : Slot<I, T>... {
    __aicore__ constexpr TupleBase() {}
    __aicore__ constexpr TupleBase(T const &...t) : Slot<I, T>(t)... {}
};
template <class... T>
struct tuple : TupleBase<seq<0, 1, 2>, T...> {
    __aicore__ constexpr tuple() {}
    __aicore__ constexpr tuple(T const &...t) : TupleBase<seq<0, 1, 2>, T...>(t...) {}
};
template <size_t I, class... T>
__aicore__ constexpr decltype(auto) get(tuple<T...> const &t) { return get_slot<I>(t); }
using Tile = tuple<C<128>, C<256>, C<64>>;
template <class S>
struct Kernel {
    static constexpr uint32_t M = get<0>(S{});
    static constexpr uint32_t N = get<1>(S{});
    static constexpr uint32_t K = get<2>(S{});
};
}

extern "C" __global__ __aicore__ void tuples(GM_ADDR x, GM_ADDR y)
{
    AscendC::GlobalTensor<int32_t> xg;
    xg.SetGlobalBuffer((__gm__ int32_t *)x, 8);
    AscendC::GlobalTensor<int32_t> yg;
    yg.SetGlobalBuffer((__gm__ int32_t *)y, 8);
    uint32_t a = xg.GetValue(0);
    yg.SetValue(0, mini::Kernel<mini::Tile>::M);
    yg.SetValue(1, mini::Kernel<mini::Tile>::N);
    yg.SetValue(2, mini::Kernel<mini::Tile>::K);
    mini::tuple<uint32_t, int32_t, uint32_t> t(a, 7, a + 1);
    yg.SetValue(3, mini::get<0>(t));
    yg.SetValue(4, mini::get<1>(t));
    yg.SetValue(5, mini::get<2>(t));
    mini::tuple<uint32_t, mini::C<16>, int32_t> mixed(a * 2, mini::C<16>{}, -3);
    yg.SetValue(6, mini::get<0>(mixed) + mini::get<1>(mixed));
    yg.SetValue(7, mini::get<2>(mixed));
}
"""


def test_tuple_elements_held_by_their_own_bases() -> None:
    result = run(SOURCE, [np.full(8, 5, np.int32)], outputs={"y": ((8,), "int32")}, block_dim=1)
    assert [f"{d.code} {d.message}" for d in result.findings] == []
    assert result.outputs["y"].tolist() == [128, 256, 64, 5, 7, 6, 26, -3]
