// Syntax-error twin of tests/corpus/template_library/dependent_templates.cpp: alias and variable templates, nested
// dependent templates, template template parameters, trailing and deduced return types, if constexpr and
// init-statements, each broken once.
#include "kernel_operator.h"

template <class T>
struct RemoveRef {
    using type = T;
};
template <class T>
using RemoveRefT = typename RemoveRef<T>::type  // expected-error {{expected ';' after}} [ASC001]

template <class T>
constexpr bool IS_HALF = std::is_same<T, half>::value;

template <class Policy, class T>
struct Block {
    using Tile = typename Policy::template Tile<T>::;  // expected-error {{unexpected ';'}} [ASC001]
};

template <template <class> Holder, class T>  // expected-error {{unexpected identifier 'Holder'}} [ASC001]
struct Rebind {
    using type = Holder<T>;
};

template <class T>
__aicore__ inline constexpr auto BytesOf(uint32_t count) -> decltype(count * sizeof(T)
{  // expected-error {{expected ')' before '{'}} [ASC001]
    return count * sizeof(T);
}

template <class T>
__aicore__ inline constexpr decltype(auto Identity(T &&value)  // expected-error {{expected ')' before identifier 'Identity'}} [ASC001]
{
    return static_cast<T &&>(value);
}

template <class T>
__aicore__ inline constexpr uint32_t ElementBytes()
{
    if constexpr IS_HALF<T>) {  // expected-error {{expected '(' after 'if'}} [ASC001]
        return 2;
    }
    return sizeof(T);
}

extern "C" __global__ __aicore__ void dependent_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    if (uint32_t bytes = ElementBytes<half>(); bytes != 2 {  // expected-error {{expected ')' before '{'}} [ASC001]
        return;
    }
    switch (uint32_t mode = 4 mode) {  // expected-error {{expected ')' before identifier 'mode'}} [ASC001]
        default:
            return;
    }
}
