// Partial specialisations ordered as C++ orders them (our own, catlass-style): where several match, the most
// specialised one is compiled, wherever it is declared. Op<Arch, Type<E>> is declared first for any element
// type, Op<Arch, Type<float>> after it for float; Combine<T, U> for any pair, Combine<T, T> for a pair of one
// type. Each core computes y = (x + 1) * 4 on its part: the generic Op would double, the generic Combine subtract.
#include "kernel_operator.h"

namespace Lib {
struct A2 {};

template <class Element_, class Layout_ = int>
struct Type {
    using Element = Element_;
};

template <class Arch, class T>
struct Op {
    static_assert(sizeof(Arch) == 0, "no Op for these types");
};

template <class Arch, class E>
struct Op<Arch, Type<E>> {
    __aicore__ inline void operator()(AscendC::LocalTensor<E> const &x, uint32_t n)
    {
        AscendC::Muls(x, x, (E)2, n);
    }
};

template <class Arch>
struct Op<Arch, Type<float>> {
    __aicore__ inline void operator()(AscendC::LocalTensor<float> const &x, uint32_t n)
    {
        AscendC::Adds(x, x, 1.0f, n);
    }
};

template <class T, class U>
struct Combine {
    static constexpr float FACTOR = 1.0f;
};

template <class T, class U>
struct Combine<T, Type<U>> {
    static constexpr float FACTOR = -1.0f;
};

template <class T>
struct Combine<T, Type<T>> {
    static constexpr float FACTOR = 4.0f;
};
}  // namespace Lib

extern "C" __global__ __aicore__ void specialisation_order(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    uint64_t start = (uint64_t)AscendC::GetBlockIdx() * t.length;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + start, t.length);
    yGm.SetGlobalBuffer((__gm__ float *)y + start, t.length);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, t.length * sizeof(float));
    AscendC::LocalTensor<float> ub = buf.Get<float>();
    AscendC::DataCopy(ub, xGm, t.length);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(0);
    Lib::Op<Lib::A2, Lib::Type<float>> op;
    op(ub, t.length);
    AscendC::Muls(ub, ub, Lib::Combine<float, Lib::Type<float>>::FACTOR, t.length);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::DataCopy(yGm, ub, t.length);
}
