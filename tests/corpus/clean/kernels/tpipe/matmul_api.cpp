/**
 * @file matmul_api.cpp
 * @brief C = A * B (+ bias) with the Matmul high-level API, cube cores only.
 *
 * A [M, K] fp16, B [K, N] fp16, bias [N] fp32, C [M, N] fp32, all ND in GM.
 * The host fills TCubeTiling with MultiCoreMatmulTiling; every AIC takes one
 * singleCoreM x singleCoreN block of C and shrinks it at the matrix edges with SetTail.
 * TilingKey 1: with bias, TilingKey 2: without bias.
 */
#define ASCENDC_CUBE_ONLY
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

template <typename T>
__aicore__ inline T CeilDiv(T a, T b)
{
    return (b == 0) ? a : (a + b - 1) / b;
}

template <typename T>
__aicore__ inline T MinOf(T a, T b)
{
    return a < b ? a : b;
}

template <typename AT, typename BT, typename CT, typename BiasT>
class MatmulKernel {
public:
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, AT>;
    using BType = MatmulType<TPosition::GM, CubeFormat::ND, BT>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, CT>;
    using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, BiasT>;

    __aicore__ inline MatmulKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, const TCubeTiling &tiling)
    {
        this->tiling = tiling;
        aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ AT *>(a), static_cast<uint64_t>(tiling.M) * tiling.Ka);
        bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ BT *>(b), static_cast<uint64_t>(tiling.Kb) * tiling.N);
        cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ CT *>(c), static_cast<uint64_t>(tiling.M) * tiling.N);
        biasGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ BiasT *>(bias), tiling.N);

        int32_t offsetA = 0;
        int32_t offsetB = 0;
        int32_t offsetC = 0;
        int32_t offsetBias = 0;
        CalcOffset(GetBlockIdx(), offsetA, offsetB, offsetC, offsetBias);
        aGlobal = aGlobal[offsetA];
        bGlobal = bGlobal[offsetB];
        cGlobal = cGlobal[offsetC];
        biasGlobal = biasGlobal[offsetBias];
    }

    __aicore__ inline void Process(bool withBias)
    {
        if (GetBlockIdx() >= static_cast<uint32_t>(tiling.usedCoreNum)) {
            return;
        }
        matmulObj.SetTensorA(aGlobal);
        matmulObj.SetTensorB(bGlobal);
        if (withBias) {
            matmulObj.SetBias(biasGlobal);
        }
        matmulObj.IterateAll(cGlobal);
        matmulObj.End();
    }

    Matmul<AType, BType, CType, BiasType> matmulObj;

private:
    __aicore__ inline void CalcOffset(int32_t blockIdx, int32_t &offsetA, int32_t &offsetB, int32_t &offsetC,
                                      int32_t &offsetBias)
    {
        const int32_t mBlocks = CeilDiv(tiling.M, tiling.singleCoreM);
        const int32_t mIdx = blockIdx % mBlocks;
        const int32_t nIdx = blockIdx / mBlocks;

        offsetA = mIdx * tiling.singleCoreM * tiling.Ka;
        offsetB = nIdx * tiling.singleCoreN;
        offsetC = mIdx * tiling.singleCoreM * tiling.N + nIdx * tiling.singleCoreN;
        offsetBias = nIdx * tiling.singleCoreN;

        const int32_t tailM = MinOf(tiling.M - mIdx * tiling.singleCoreM, tiling.singleCoreM);
        const int32_t tailN = MinOf(tiling.N - nIdx * tiling.singleCoreN, tiling.singleCoreN);
        if (tailM < tiling.singleCoreM || tailN < tiling.singleCoreN) {
            matmulObj.SetTail(tailM, tailN);
        }
    }

    GlobalTensor<AT> aGlobal;
    GlobalTensor<BT> bGlobal;
    GlobalTensor<CT> cGlobal;
    GlobalTensor<BiasT> biasGlobal;
    TCubeTiling tiling;
};

extern "C" __global__ __aicore__ void matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                                                    GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GET_TILING_DATA(tilingData, tiling);
    MatmulKernel<half, half, float, float> kernel;
    TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), kernel.matmulObj, &tilingData.cubeTilingData);
    kernel.Init(a, b, bias, c, tilingData.cubeTilingData);
    if (TILING_KEY_IS(1)) {
        kernel.Process(true);
    } else if (TILING_KEY_IS(2)) {
        kernel.Process(false);
    }
}
