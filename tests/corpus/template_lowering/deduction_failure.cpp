// Function templates whose deduction fails are no candidates (our own, tla-style): `min(C<t>, C<u>)` and its
// mixed overloads take compile-time constants, so `min(length, Tile::N)` on two uint32_t, seen through
// `using namespace cst`, is the builtin min, and so is `max`. Each core doubles its first min(length, 96)
// elements and writes max(length, 96) - 96 ones after them: a chosen C<> overload would leave a C<> value.
#include "kernel_operator.h"

namespace cst {
template <auto v>
struct C {
    static constexpr auto value = v;
    using value_type = decltype(v);
    __aicore__ constexpr operator value_type() const noexcept { return value; }
};

template <auto t, auto u>
__aicore__ constexpr auto min(C<t>, C<u>) { return C<(t < u ? t : u)>{}; }
template <auto t, class U>
__aicore__ constexpr auto min(C<t>, U u) { return u; }
template <class T, auto u>
__aicore__ constexpr auto min(T t, C<u>) { return t; }
template <auto t, auto u>
__aicore__ constexpr auto max(C<t>, C<u>) { return C<(t < u ? u : t)>{}; }
}  // namespace cst

using namespace cst;

template <uint32_t N_>
struct Tile {
    static constexpr uint32_t N = N_;
};

template <class TileShape>
struct Block {
    __aicore__ inline void operator()(AscendC::GlobalTensor<float> const &xGm, AscendC::GlobalTensor<float> const &yGm,
                                      AscendC::LocalTensor<float> const &ub, uint32_t length)
    {
        uint32_t actual = min(length, TileShape::N);
        uint32_t extra = max(length, TileShape::N) - TileShape::N;
        AscendC::DataCopy(ub, xGm, actual);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(0);
        AscendC::Muls(ub, ub, 2.0f, actual);
        AscendC::Duplicate(ub[actual], 1.0f, extra);
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
        AscendC::DataCopy(yGm, ub, actual + extra);
        actual = extra;  // an assignment: `actual` is a uint32_t variable
    }
};

extern "C" __global__ __aicore__ void deduction_failure(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
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
    Block<Tile<96>> block;
    block(xGm, yGm, buf.Get<float>(), t.length);
}
