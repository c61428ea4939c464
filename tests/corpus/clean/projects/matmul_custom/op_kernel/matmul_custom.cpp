/**
 * @file matmul_custom.cpp
 * @brief MatmulCustom kernel (cube only). TilingKey 1: with bias, 2: without.
 */
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace matmul;

namespace mm_kernel {

using AType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using BType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using CType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using BiasType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using MatmulObj = Matmul<AType, BType, CType, BiasType, CFG_MDL>;

struct BlockCoord {
    int32_t offsetA;
    int32_t offsetB;
    int32_t offsetC;
    int32_t offsetBias;
    int32_t singleM;
    int32_t singleN;
};

__aicore__ inline BlockCoord LocateBlock(int32_t blockIdx, const TCubeTiling &t)
{
    const int32_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
    const int32_t mIdx = blockIdx % mBlocks;
    const int32_t nIdx = blockIdx / mBlocks;
    BlockCoord coord;
    coord.offsetA = mIdx * t.singleCoreM * t.Ka;
    coord.offsetB = nIdx * t.singleCoreN;
    coord.offsetC = mIdx * t.singleCoreM * t.N + nIdx * t.singleCoreN;
    coord.offsetBias = nIdx * t.singleCoreN;
    const int32_t restM = t.M - mIdx * t.singleCoreM;
    const int32_t restN = t.N - nIdx * t.singleCoreN;
    coord.singleM = restM < t.singleCoreM ? restM : t.singleCoreM;
    coord.singleN = restN < t.singleCoreN ? restN : t.singleCoreN;
    return coord;
}

template <bool WITH_BIAS>
__aicore__ inline void RunMatmul(MatmulObj &mm, GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, const TCubeTiling &t)
{
    const int32_t blockIdx = static_cast<int32_t>(AscendC::GetBlockIdx());
    if (blockIdx >= t.usedCoreNum) {
        return;
    }
    const BlockCoord coord = LocateBlock(blockIdx, t);

    AscendC::GlobalTensor<half> aGm;
    AscendC::GlobalTensor<half> bGm;
    AscendC::GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a) + coord.offsetA);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b) + coord.offsetB);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c) + coord.offsetC);

    mm.SetTail(coord.singleM, coord.singleN);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    if constexpr (WITH_BIAS) {
        AscendC::GlobalTensor<float> biasGm;
        biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(bias) + coord.offsetBias);
        mm.SetBias(biasGm);
    }
    mm.IterateAll(cGm);
    mm.End();
}

} // namespace mm_kernel

extern "C" __global__ __aicore__ void matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                                                    GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GET_TILING_DATA(tilingData, tiling);
    AscendC::TPipe pipe;
    mm_kernel::MatmulObj mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tilingData.cubeTilingData);
    if (TILING_KEY_IS(1)) {
        mm_kernel::RunMatmul<true>(mm, a, b, bias, c, tilingData.cubeTilingData);
    } else if (TILING_KEY_IS(2)) {
        mm_kernel::RunMatmul<false>(mm, a, b, bias, c, tilingData.cubeTilingData);
    }
}
