// A kernel in the style of a CATLASS-like template library: the kernel class is a function object whose call
// operator is a member template specialised per core type, and helper types are reached through explicit
// operator calls (`coord.operator[](0)`, `this->operator()(params)`, `op.template operator()<AIV>(params)`).
#include "kernel_operator.h"

namespace tlib {

template <uint32_t RANK, class Index = uint32_t>
struct Coord {
    __aicore__ inline Index &operator[](uint32_t i) { return idx[i]; }
    __aicore__ inline Index const &operator[](uint32_t i) const { return idx[i]; }
    Index idx[RANK];
};

struct Params {
    GM_ADDR x;
    GM_ADDR y;
    uint32_t length;
};

template <class Element>
struct CopyKernel {
    static constexpr uint32_t TILE = 256;

    template <int32_t CORE_TYPE = g_coreType>
    __aicore__ inline void operator()(Params const &params);

    // explicit specialisations of the member operator template, one per core type
    template <>
    __aicore__ inline void operator()<AscendC::AIC>(Params const &params) {}

    template <>
    __aicore__ inline void operator()<AscendC::AIV>(Params const &params)
    {
        Coord<2> shape;
        shape.operator[](0) = params.length;
        shape[1] = TILE;
        xGm.SetGlobalBuffer((__gm__ Element *)params.x, params.length);
        yGm.SetGlobalBuffer((__gm__ Element *)params.y, params.length);
        pipe.InitBuffer(inQueue, 1, TILE * sizeof(Element));
        for (uint32_t i = 0; i < shape.operator[](0) / shape[1]; i++) {
            AscendC::LocalTensor<Element> local = inQueue.AllocTensor<Element>();
            AscendC::DataCopy(local, xGm[i * TILE], TILE);
            inQueue.EnQue(local);
            local = inQueue.DeQue<Element>();
            AscendC::DataCopy(yGm[i * TILE], local, TILE);
            inQueue.FreeTensor(local);
        }
    }

    __aicore__ inline void Run(Params const &params)
    {
        this->operator()(params);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::GlobalTensor<Element> xGm;
    AscendC::GlobalTensor<Element> yGm;
};

}  // namespace tlib

extern "C" __global__ __aicore__ void copy_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    tlib::Params params{x, y, 4096};
    tlib::CopyKernel<half> op;
    op.template operator()<AscendC::AIV>(params);
}
