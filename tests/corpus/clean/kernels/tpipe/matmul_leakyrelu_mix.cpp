/**
 * @file matmul_leakyrelu_mix.cpp
 * @brief C = LeakyReLU(A * B + bias) as a mixed cube/vector kernel.
 *
 * The cube side runs the Matmul API; every baseM x baseN result block is fetched into UB with
 * GetTensorC, activated on the vector unit and written to its place in C with a strided copy.
 * The host fixes the traversal order to M-first, which CopyOut relies on.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace matmul;

namespace {
constexpr uint32_t BLOCK_BYTES = 32;
}

template <typename AT, typename BT, typename CT, typename BiasT>
class MatmulLeakyReluKernel {
    using A_TYPE = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, AT>;
    using B_TYPE = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, BT>;
    using C_TYPE = MatmulType<AscendC::TPosition::VECIN, CubeFormat::ND, CT>;
    using BIAS_TYPE = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, BiasT>;

public:
    __aicore__ inline MatmulLeakyReluKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, const TCubeTiling &cubeTiling,
                                float negativeSlope, AscendC::TPipe *pipe)
    {
        tiling = cubeTiling;
        slope = static_cast<CT>(negativeSlope);
        aGlobal.SetGlobalBuffer((__gm__ AT *)a, tiling.M * tiling.Ka);
        bGlobal.SetGlobalBuffer((__gm__ BT *)b, tiling.Kb * tiling.N);
        cGlobal.SetGlobalBuffer((__gm__ CT *)c, tiling.M * tiling.N);
        biasGlobal.SetGlobalBuffer((__gm__ BiasT *)bias, tiling.N);

        const int32_t mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
        const int32_t blockIdx = static_cast<int32_t>(AscendC::GetBlockIdx());
        const int32_t mIdx = blockIdx % mBlocks;
        const int32_t nIdx = blockIdx / mBlocks;
        aGlobal = aGlobal[mIdx * tiling.singleCoreM * tiling.Ka];
        bGlobal = bGlobal[nIdx * tiling.singleCoreN];
        cGlobal = cGlobal[mIdx * tiling.singleCoreM * tiling.N + nIdx * tiling.singleCoreN];
        biasGlobal = biasGlobal[nIdx * tiling.singleCoreN];

        pipe->InitBuffer(reluOutQueue, 1, tiling.baseM * tiling.baseN * sizeof(CT));
    }

    __aicore__ inline void Process()
    {
        matmulObj.SetTensorA(aGlobal);
        matmulObj.SetTensorB(bGlobal);
        matmulObj.SetBias(biasGlobal);

        uint32_t round = 0;
        while (matmulObj.template Iterate<true>()) {
            AscendC::LocalTensor<CT> cLocal = reluOutQueue.AllocTensor<CT>();
            matmulObj.template GetTensorC<true>(cLocal, false, true);
            AscendC::LeakyRelu(cLocal, cLocal, slope, tiling.baseM * tiling.baseN);
            reluOutQueue.EnQue(cLocal);
            CopyOut(round);
            ++round;
        }
        matmulObj.End();
    }

    Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> matmulObj;

private:
    __aicore__ inline void CopyOut(uint32_t round)
    {
        const uint32_t roundM = tiling.singleCoreM / tiling.baseM;
        const uint32_t mIter = round % roundM;
        const uint32_t nIter = round / roundM;
        const uint64_t dstOffset = static_cast<uint64_t>(mIter) * tiling.baseM * tiling.N + nIter * tiling.baseN;

        AscendC::DataCopyParams params;
        params.blockCount = static_cast<uint16_t>(tiling.baseM);
        params.blockLen = static_cast<uint16_t>(tiling.baseN * sizeof(CT) / BLOCK_BYTES);
        params.srcStride = 0;
        params.dstStride = static_cast<uint16_t>((tiling.N - tiling.baseN) * sizeof(CT) / BLOCK_BYTES);

        AscendC::LocalTensor<CT> cLocal = reluOutQueue.DeQue<CT>();
        AscendC::DataCopy(cGlobal[dstOffset], cLocal, params);
        reluOutQueue.FreeTensor(cLocal);
    }

    // VECOUT: its EnQue / DeQue order the LeakyRelu (PIPE_V) before CopyOut (PIPE_MTE3), and its FreeTensor /
    // AllocTensor the copy before the next GetTensorC, which writes as the vector pipe does
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> reluOutQueue;
    AscendC::GlobalTensor<AT> aGlobal;
    AscendC::GlobalTensor<BT> bGlobal;
    AscendC::GlobalTensor<CT> cGlobal;
    AscendC::GlobalTensor<BiasT> biasGlobal;
    TCubeTiling tiling;
    CT slope;
};

extern "C" __global__ __aicore__ void matmul_leakyrelu_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    AscendC::TPipe pipe;
    MatmulLeakyReluKernel<half, half, float, float> kernel;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), kernel.matmulObj, &tilingData.cubeTilingData);
    kernel.Init(a, b, bias, c, tilingData.cubeTilingData, tilingData.negativeSlope, &pipe);
    if ASCEND_IS_AIV {
        kernel.Process();
    }
}
