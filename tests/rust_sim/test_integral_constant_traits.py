"""`X<...>::value` where the value is a base class's (issue 29: catlass tla's type traits). tla declares
`tuple_size<T, class = void>` and specialises it for `tla::tuple<T...>` deriving from `std::integral_constant<size_t,
sizeof...(T)>`, and asks `is_tuple<T>::value` of `struct is_tuple : decltype(detail::has_tuple_size((T*)0))`,
whose overloads (declared, never defined) return `bool_constant<(0 <= tuple_size<T>::value)>` where that
substitutes, else `false_type`. Before, all three were ASC102 'use of undeclared identifier' (the pack of the
specialisation's pattern matched no instance; integral_constant's value and the decltype base were not looked
into) and the kernel wrote nothing. Now: the pack takes the instance's arguments, a standard integral constant
holds its last argument, and the unevaluated call takes the overload whose return type substitutes. With them,
tla's `rank_v<S>` (a variable template), `rank<Is...>(t)` (a pack not given: empty), `make_seq<Layout::rank>` (a
member, not the function rank) and MakeIntegerSequenceImpl's recursion (a pack spliced into an argument list)."""

from __future__ import annotations

from passes.sim import run

SOURCE = """\
#include "kernel_operator.h"
#include <type_traits>
namespace mini {
template <class T, class = void>
struct tuple_size;
template <class... T>
struct tuple {};
template <class... T>
struct tuple_size<mini::tuple<T...>> : std::integral_constant<size_t, sizeof...(T)> {};
template <class T, class U>
struct tuple_size<mini::tuple<T, U, T>> : std::integral_constant<size_t, 30> {};
namespace detail {
template <class T>
auto has_tuple_size(T*) -> std::bool_constant<(0 <= tuple_size<T>::value)>;
auto has_tuple_size(...) -> std::false_type;
}
template <class T>
struct is_tuple : decltype(detail::has_tuple_size((T*)0)) {};
struct always : std::true_type {};
template <class T>
constexpr size_t size_v = tuple_size<T>::value;
template <int... Is, class Tuple>
__aicore__ inline size_t count(Tuple const &t) { return sizeof...(Is) + tuple_size<Tuple>::value; }
template <int N>
struct Holder { static constexpr int value = N * 10; };
template <class T>
__aicore__ inline int rank(T const &) { return 0; }
template <class S>
struct Lay { static constexpr int rank = size_v<S>; };
template <class L>
__aicore__ inline int HeldRank() { return Holder<L::rank>::value; }
template <typename T, T... Ns>
struct Seq { static constexpr size_t size = sizeof...(Ns); };
template <typename S, typename T, size_t N>
struct MakeImpl;
template <typename T, size_t... Ns>
struct MakeImpl<Seq<T, Ns...>, T, 0> { using type = Seq<T, Ns...>; };
template <typename T, size_t N, size_t... Ns>
struct MakeImpl<Seq<T, Ns...>, T, N> { using type = typename MakeImpl<Seq<T, N - 1, Ns...>, T, N - 1>::type; };
}

extern "C" __global__ __aicore__ void traits(GM_ADDR y)
{
    AscendC::GlobalTensor<int32_t> yg;
    yg.SetGlobalBuffer((__gm__ int32_t *)y, 10);
    yg.SetValue(0, mini::is_tuple<mini::tuple<int, float>>::value ? 1 : 0);
    yg.SetValue(1, mini::is_tuple<int>::value ? 1 : 0);
    yg.SetValue(2, mini::tuple_size<mini::tuple<int, int, float>>::value);
    yg.SetValue(3, mini::tuple_size<mini::tuple<>>::value);
    yg.SetValue(4, mini::tuple_size<mini::tuple<half, int, half>>::value);
    yg.SetValue(5, mini::always::value ? 1 : 0);
    yg.SetValue(6, mini::size_v<mini::tuple<int, int>>);
    yg.SetValue(7, mini::count(mini::tuple<int, int, float>{}));
    yg.SetValue(8, mini::HeldRank<mini::Lay<mini::tuple<int, int>>>());
    yg.SetValue(9, mini::MakeImpl<mini::Seq<size_t>, size_t, 4>::type::size);
}
"""


def test_values_held_by_integral_constant_bases() -> None:
    result = run(SOURCE, [], outputs={"y": ((10,), "int32")}, block_dim=1)
    assert [f"{d.code} {d.message}" for d in result.findings] == []
    # (tuple<half, int, half> matches both patterns: the more specialised <T, U, T> is chosen)
    # a variable template for its arguments; an empty pack neither given nor deduced; `L::rank` a member of
    # the class, not the function rank; `Ns...` spliced into the recursion's argument list, which ends at 0
    assert result.outputs["y"].tolist() == [1, 0, 3, 0, 30, 1, 2, 3, 20, 4]
