// Variadic templates as template libraries write them: parameter packs expanded in base clauses, template
// arguments, mem-initialisers, calls and braced lists; sizeof...; fold expressions in all four forms.
#include "kernel_operator.h"

namespace tlib {

template <class T, T... Ns>
struct IntegerSequence {
    static constexpr size_t size() { return sizeof...(Ns); }
};

template <size_t... Is>
using IndexSequence = IntegerSequence<size_t, Is...>;

template <size_t N, class T>
struct Leaf {
    __aicore__ inline constexpr Leaf() : value{} {}
    __aicore__ inline constexpr Leaf(T const &v) : value{v} {}
    T value;
};

template <class Seq, class... Ts>
struct TupleBase;

// one base per element: `Leaf<I, Ts>...`, each initialised from its argument
template <size_t... I, class... Ts>
struct TupleBase<IndexSequence<I...>, Ts...> : Leaf<I, Ts>... {
    __aicore__ inline constexpr TupleBase(Ts const &... ts) : Leaf<I, Ts>(ts)... {}
};

template <class... Ts>
__aicore__ inline constexpr size_t Count(Ts const &...)
{
    return sizeof...(Ts);
}

template <class... Ts>
__aicore__ inline constexpr uint32_t Sum(Ts... values)
{
    return (values + ... + 0u);  // binary right fold
}

template <class... Ts>
__aicore__ inline constexpr uint32_t Product(Ts... values)
{
    return (... * values);  // unary left fold
}

template <class... Ts>
__aicore__ inline constexpr bool AllPositive(Ts... values)
{
    return ((values > 0) && ...);  // unary right fold
}

template <class... Ts>
__aicore__ inline constexpr uint32_t Max(uint32_t first, Ts... rest)
{
    uint32_t best = first;
    ((best = rest > best ? rest : best), ...);  // a comma fold over assignments
    return best;
}

template <uint32_t... Dims>
struct Shape {
    static constexpr uint32_t RANK = sizeof...(Dims);
    static constexpr uint32_t COUNT = (1u * ... * Dims);  // binary left fold
    static constexpr uint32_t dims[RANK] = {Dims...};
};

}  // namespace tlib

extern "C" __global__ __aicore__ void fold_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    using TileShape = tlib::Shape<16, 16>;
    constexpr uint32_t tile = TileShape::COUNT;
    static_assert(tlib::AllPositive(16, 16), "positive tile");
    uint32_t total = tlib::Sum(tile, tile, tile, tile);
    uint32_t blocks = total / tlib::Product(16u, 16u) * tlib::Count(x, y) / tlib::Max(1u, 2u);
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::GlobalTensor<half> xGm;
    AscendC::GlobalTensor<half> yGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, total);
    yGm.SetGlobalBuffer((__gm__ half *)y, total);
    pipe.InitBuffer(inQueue, 1, tile * sizeof(half));
    for (uint32_t i = 0; i < blocks; i++) {
        AscendC::LocalTensor<half> local = inQueue.AllocTensor<half>();
        AscendC::DataCopy(local, xGm[i * tile], tile);
        inQueue.EnQue(local);
        local = inQueue.DeQue<half>();
        AscendC::DataCopy(yGm[i * tile], local, tile);
        inQueue.FreeTensor(local);
    }
}
