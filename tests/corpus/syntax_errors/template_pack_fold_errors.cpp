// Syntax-error twin of tests/corpus/template_library/packs_and_folds.cpp: pack expansions, sizeof... and fold
// expressions, each broken once.
#include "kernel_operator.h"

template <size_t N, class T>
struct Leaf {
    T value;
};

template <class Seq, class... Ts>
struct TupleBase;

template <size_t... I, class... Ts>
struct TupleBase<IndexSequence<I...>, Ts...> : Leaf<I, Ts>.. {  // expected-error {{unexpected '.'}} [ASC001]
};

template <class... Ts>
__aicore__ inline constexpr size_t Count(Ts const &...)
{
    return sizeof...(;  // expected-error {{unexpected ';'}} [ASC001]
}

template <class... Ts>
__aicore__ inline constexpr uint32_t Sum(Ts... values)
{
    return (values + ... + );  // expected-error {{expected expression before ')'}} [ASC001]
}

template <class... Ts>
__aicore__ inline constexpr uint32_t Product(Ts... values)
{
    return (values * 2 * ...);  // expected-error {{unexpected '...'}} [ASC001]
}

template <class... Ts>
__aicore__ inline constexpr bool AllPositive(Ts... values)
{
    return (... && values;  // expected-error {{expected ')' before ';'}} [ASC001]
}

template <class... Ts>
__aicore__ inline constexpr uint32_t Last(Ts... values)
{
    return (values, ..., 0, 1);  // expected-error {{expected ')' before ','}} [ASC001]
}

extern "C" __global__ __aicore__ void fold_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    uint32_t total = Sum(1u, 2u, 3u);
}
