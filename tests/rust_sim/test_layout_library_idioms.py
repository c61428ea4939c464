"""The C++ of a CuTe-like layout library (issue 29: catlass's tla, which 13_basic_matmul_tla and 14_optimized_matmul_tla
are written in), each idiom in a miniature of our own that fails without its rule:

- compile-time integers as objects: `C<1>{} + C<2>{}` is the program's `operator+(C<t>, C<u>)`, a C<3>, not the
  built-in `+` on the converted numbers ([over.match.oper]/3, [over.ics.rank]/3.3);
- alias templates are transparent: `seq<I...>` in a parameter deduces from an IntegerSequence<int, 0, 1>, and
  `Shape<Ts...>` in a return type splices the pack ([temp.alias]/2); an unnamed parameter must still be given;
- a pack given no explicit argument is deduced (`get<0>(t)` of `template <size_t I, class... T>`); an overload whose
  explicit arguments are of the wrong kind, whose template parameter nothing deduces, or whose enable_if on a
  deduced type is false is dropped ([temp.deduct]/2, [temp.deduct.call]/1, [temp.deduct]/8);
- `std::is_integral<T>` is the standard trait, also through an alias, beside the program's own is_integral
  ([namespace.qual]); `std::integral_constant` beside the program's homonym still holds its `value`;
- of two overloads the one needing no user-defined conversion wins (`Make<half, Tag>(m, k)`);
- a call qualified with a namespace takes that namespace's function, and inside it an alias of that namespace hides a
  class of the same name elsewhere ([namespace.qual], [basic.lookup.unqual]);
- a member alias hides a class template of that name (`using Layout = Layout_;`), a braced `{t}` of an object copies
  it, and a pack expansion pattern (`Int<Is * 0>...`) gives one argument per element."""

from __future__ import annotations

import numpy as np

from passes.sim import run

LIBRARY = """\
#include "kernel_operator.h"
#include <type_traits>
namespace lib {
template <auto v>
struct C {
    static constexpr auto value = v;
    using value_type = decltype(v);
    __aicore__ constexpr operator value_type() const noexcept { return value; }
};
template <auto t, auto u>
__aicore__ constexpr C<(t + u)> operator+(C<t>, C<u>) { return {}; }
template <class T, T... Ns>
struct IntegerSequence { static constexpr size_t size() { return sizeof...(Ns); } };
template <int... Ns>
using int_sequence = IntegerSequence<int, Ns...>;
template <int... Ns>
using seq = int_sequence<Ns...>;
template <class T>
using is_std_integral = std::is_integral<T>;
template <class T>
struct is_integral : C<is_std_integral<T>::value> {};
template <class T>
using remove_cvref_t = std::remove_cv_t<std::remove_reference_t<T>>;
template <class... T>
struct pair2;
template <class A, class B>
struct pair2<A, B> {
    __aicore__ constexpr pair2() {}
    __aicore__ constexpr pair2(A const &a, B const &b) : a_(a), b_(b) {}
    A a_;
    B b_;
};
template <class... Ts>
using Shape = pair2<Ts...>;
template <class... Ts>
__aicore__ constexpr Shape<Ts...> MakeShape(Ts const &...t) { return {t...}; }
template <size_t I, class... T>
__aicore__ constexpr auto get(pair2<T...> const &p) { if constexpr (I == 0) { return p.a_; } else { return p.b_; } }
template <size_t I, class T, typename std::enable_if<is_integral<remove_cvref_t<T>>::value>::type * = nullptr>
__aicore__ constexpr T get(T const &t) { return t + 1000; }
template <size_t I0, size_t I1, class T>
__aicore__ constexpr auto get(T const &t) { return get<I1>(get<I0>(t)); }
template <class T, class F, int... I>
__aicore__ constexpr int apply(T const &t, F f, seq<I...>) { return f(get<I>(t)...); }
struct Sum {
    template <class... T>
    __aicore__ constexpr int operator()(T const &...v) const { return (0 + ... + v); }
};
template <class T, class F>
__aicore__ constexpr int apply(T const &t, F f) { return apply(t, f, seq<0, 1>{}); }
struct Tag { __aicore__ Tag(uint32_t n = 0) : n_(n) {} uint32_t n_; };
template <class A, class B>
__aicore__ constexpr int Make(A const &a, B const &b) { return 1; }
template <class E, class G, class T, class U>
__aicore__ constexpr int Make(T const &t, U const &u) { return 2; }
template <class Inner>
struct Holder {
    using Shape = Inner;
    __aicore__ Holder(Inner const &s) : s_{s} {}
    pair2<int, Shape> pairs() const { return {7, s_}; }
    Shape s_;
};
template <int... Is>
__aicore__ constexpr int count(IntegerSequence<int, Is...>) { return sizeof...(Is); }
template <class T>
using Zeros = pair2<C<sizeof(T) * 0>, C<sizeof(T) * 0>>;
template <class T, T v>
struct integral_constant : C<v> {};
template <class T>
struct three : std::integral_constant<size_t, 3> {};
}
namespace other {
template <int N, class T>
struct Shape { T first; };
__aicore__ inline int MakeShape(uint32_t a, uint32_t b) { return -1; }
}
"""

KERNEL = LIBRARY + """
extern "C" __global__ __aicore__ void idioms(GM_ADDR x, GM_ADDR y)
{
    AscendC::GlobalTensor<int32_t> xg;
    xg.SetGlobalBuffer((__gm__ int32_t *)x, 16);
    AscendC::GlobalTensor<int32_t> yg;
    yg.SetGlobalBuffer((__gm__ int32_t *)y, 16);
    uint32_t a = xg.GetValue(0);
    using Three = decltype(lib::C<1>{} + lib::C<2>{});
    yg.SetValue(0, Three::value);
    auto s = lib::MakeShape(a, a + 2);
    yg.SetValue(1, lib::get<0>(s));
    yg.SetValue(2, lib::get<1>(s));
    yg.SetValue(3, lib::apply(s, lib::Sum{}));
    yg.SetValue(4, lib::get<0>(a));
    auto nested = lib::MakeShape(s, 9);
    yg.SetValue(5, lib::get<0, 1>(nested));
    yg.SetValue(6, lib::is_integral<uint32_t>::value ? 1 : 0);
    yg.SetValue(7, lib::is_integral<lib::Tag>::value ? 1 : 0);
    yg.SetValue(8, lib::Make<half, lib::Tag>(a, a));
    lib::Holder<lib::pair2<int, int>> h(lib::MakeShape(3, 4));
    yg.SetValue(9, lib::get<1>(h.s_));
    yg.SetValue(10, lib::count(lib::seq<4, 5, 6>{}));
    yg.SetValue(11, lib::IntegerSequence<int, 1, 2>::size());
    using Zero = decltype(lib::get<0>(lib::Zeros<int>{}));
    yg.SetValue(12, Zero::value + 20);
    yg.SetValue(13, lib::three<int>::value);
}
"""


def test_layout_library_idioms() -> None:
    result = run(KERNEL, [np.full(16, 5, np.int32)], outputs={"y": ((16,), "int32")}, block_dim=1)
    assert [f"{d.code} {d.message}" for d in result.findings if d.code != "ASC961"] == []
    assert result.outputs["y"].tolist()[:14] == [3, 5, 7, 12, 1005, 7, 1, 0, 2, 4, 3, 2, 20, 3]
