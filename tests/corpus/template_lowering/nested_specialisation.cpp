// An explicit specialisation of a member class template (our own, as catlass's OptimizedMatmul declares its
// LayoutHelper): `template <> struct Helper<void>` inside the class is chosen for void only, and the primary stays
// the member template for every other argument. The layout a Params field takes comes through it. Each core
// scales its part by the rows of a RowMajor layout (2, Kernel<Source<RowMajor>>), then by a plain count
// (3, Kernel<void>): y = x * 6. Were the specialisation taken for both, the first field would be void.
#include "kernel_operator.h"

namespace Lib {
struct RowMajor {
    uint32_t rows;
    __aicore__ inline uint32_t shape(int) const { return rows; }
};

template <class L>
struct Source {
    using LayoutIn = L;
    __aicore__ inline Source() {}
};

template <class P>
struct Kernel {
    template <class T>
    struct Helper {
        using type = typename T::LayoutIn;
    };
    template <>
    struct Helper<void> {
        using type = void;
    };
    using LayoutA = std::conditional_t<std::is_void_v<P>, uint32_t, typename Helper<P>::type>;
    struct Params {
        LayoutA layoutA;
    };

    __aicore__ inline void operator()(Params const &params, AscendC::LocalTensor<float> const &t, uint32_t n)
    {
        uint32_t factor;
        if constexpr (std::is_void_v<P>) {
            factor = params.layoutA;
        } else {
            factor = params.layoutA.shape(0);
        }
        AscendC::Muls(t, t, (float)(int32_t)factor, n);
        AscendC::PipeBarrier<PIPE_V>();
    }
};
}  // namespace Lib

extern "C" __global__ __aicore__ void nested_specialisation(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
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
    using WithLayout = Lib::Kernel<Lib::Source<Lib::RowMajor>>;
    Lib::RowMajor layout{2};
    typename WithLayout::Params first{layout};
    WithLayout withLayout;
    withLayout(first, ub, t.length);
    using Plain = Lib::Kernel<void>;
    typename Plain::Params second{3};
    Plain plain;
    plain(second, ub, t.length);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::DataCopy(yGm, ub, t.length);
}
