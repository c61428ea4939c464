// Type-level code of template libraries: alias and variable templates, `typename P::template Tile<T>`, template
// template parameters, decltype / auto / decltype(auto) return types, trailing return types, constexpr functions,
// `if constexpr`, if / switch with an init-statement, static constants naming each other.
#include "kernel_operator.h"

namespace tlib {

template <class T>
struct RemoveRef {
    using type = T;
};
template <class T>
struct RemoveRef<T &> {
    using type = T;
};
template <class T>
using RemoveRefT = typename RemoveRef<T>::type;  // an alias template

template <class T>
constexpr bool IS_HALF = std::is_same<T, half>::value;  // a variable template

template <uint32_t M_ = 1, uint32_t N_ = 1>
struct TileShape {
    static constexpr uint32_t M = M_;
    static constexpr uint32_t N = N_;
    static constexpr uint32_t COUNT = M * N;  // naming the class's other constants
};

struct VectorPolicy {
    template <class T>
    struct Tile {
        using Element = T;
        using Shape = TileShape<8, 32>;
    };
};

template <class Policy, class T>
struct Block {
    using Tile = typename Policy::template Tile<T>;  // a member template of a dependent type
    using Element = typename Tile::Element;
    static constexpr uint32_t LENGTH = Tile::Shape::COUNT;
};

template <template <class> class Holder, class T>  // a template template parameter
struct Rebind {
    using type = Holder<T>;
};

template <class T>
struct Box {
    T value;
};

template <uint32_t ALIGN, class T>
__aicore__ inline constexpr T RoundUp(T value)  // a constexpr function
{
    static_assert(ALIGN != 0, "ALIGN must not be 0");
    return (value + ALIGN - 1) / ALIGN * ALIGN;
}

template <class T>
__aicore__ inline constexpr auto BytesOf(uint32_t count) -> decltype(count * sizeof(T))  // a trailing return
{
    return count * sizeof(T);
}

template <class T>
__aicore__ inline constexpr decltype(auto) Identity(T &&value) noexcept
{
    return static_cast<T &&>(value);
}

template <class T>
__aicore__ inline constexpr uint32_t ElementBytes()
{
    if constexpr (IS_HALF<T>) {
        return 2;
    } else {
        return sizeof(T);
    }
}

}  // namespace tlib

extern "C" __global__ __aicore__ void dependent_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    using B = tlib::Block<tlib::VectorPolicy, half>;
    using Element = tlib::RemoveRefT<B::Element>;
    using Boxed = typename tlib::Rebind<tlib::Box, uint32_t>::type;
    constexpr uint32_t length = tlib::RoundUp<32>(B::LENGTH);
    Boxed blocks{4};
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::GlobalTensor<Element> xGm;
    AscendC::GlobalTensor<Element> yGm;
    xGm.SetGlobalBuffer((__gm__ Element *)x, length * blocks.value);
    yGm.SetGlobalBuffer((__gm__ Element *)y, length * blocks.value);
    pipe.InitBuffer(inQueue, 1, tlib::BytesOf<Element>(length));
    if (uint32_t bytes = tlib::ElementBytes<Element>(); bytes != 2) {
        return;
    }
    switch (uint32_t mode = tlib::Identity(blocks.value); mode) {
        case 4:
            break;
        default:
            return;
    }
    for (uint32_t i = 0; i < blocks.value; i++) {
        AscendC::LocalTensor<Element> local = inQueue.AllocTensor<Element>();
        AscendC::DataCopy(local, xGm[i * length], length);
        inQueue.EnQue(local);
        local = inQueue.DeQue<Element>();
        AscendC::DataCopy(yGm[i * length], local, length);
        inQueue.FreeTensor(local);
    }
}
