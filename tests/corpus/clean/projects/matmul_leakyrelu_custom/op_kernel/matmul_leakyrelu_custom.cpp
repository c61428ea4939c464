/**
 * @file matmul_leakyrelu_custom.cpp
 * @brief MatmulLeakyreluCustom kernel (MIX 1:2). Each vector core takes one part of C (singleCoreM x
 *        singleCoreN, less at the edges), has the Matmul object compute a @ b + bias into it, then reads its
 *        part back row by row through UB and applies LeakyReLU in place. The cube cores serve the Matmul
 *        object from REGIST_MATMUL_OBJ on.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace matmul;

namespace leaky_kernel {
using AType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using BType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using CType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using BiasType = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using MatmulObj = Matmul<AType, BType, CType, BiasType>;

__aicore__ inline int32_t Min(int32_t a, int32_t b)
{
    return a < b ? a : b;
}

class MatmulLeakyreluKernel {
public:
    __aicore__ inline MatmulLeakyreluKernel() {}

    __aicore__ inline bool Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, const TCubeTiling &tiling,
                                float alpha, uint32_t rowTile)
    {
        const int32_t blockIdx = static_cast<int32_t>(AscendC::GetBlockIdx());
        if (blockIdx >= tiling.usedCoreNum) {
            return false;
        }
        const int32_t mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
        const int32_t mIdx = blockIdx % mBlocks;
        const int32_t nIdx = blockIdx / mBlocks;
        this->n = tiling.N;
        this->alpha = alpha;
        this->rowTile = static_cast<int32_t>(rowTile);
        this->curM = Min(tiling.singleCoreM, tiling.M - mIdx * tiling.singleCoreM);
        this->curN = Min(tiling.singleCoreN, tiling.N - nIdx * tiling.singleCoreN);
        aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a) + mIdx * tiling.singleCoreM * tiling.Ka);
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b) + nIdx * tiling.singleCoreN);
        biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(bias) + nIdx * tiling.singleCoreN);
        cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c) + mIdx * tiling.singleCoreM * tiling.N +
                            nIdx * tiling.singleCoreN);
        pipe.InitBuffer(inQueue, 1, this->rowTile * sizeof(float));
        pipe.InitBuffer(outQueue, 1, this->rowTile * sizeof(float));
        return true;
    }

    __aicore__ inline void Process(MatmulObj &mm)
    {
        mm.SetTail(curM, curN);
        mm.SetTensorA(aGm);
        mm.SetTensorB(bGm);
        mm.SetBias(biasGm);
        mm.IterateAll(cGm);
        mm.End();
        for (int32_t row = 0; row < curM; row++) {
            for (int32_t col = 0; col < curN; col += rowTile) {
                LeakyReluPiece(row * n + col, Min(rowTile, curN - col));
            }
        }
    }

    AscendC::TPipe pipe; // REGIST_MATMUL_OBJ registers the object with it


private:
    __aicore__ inline void LeakyReluPiece(int32_t offset, int32_t count)
    {
        AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        AscendC::DataCopyPad(xLocal, cGm[offset], params, pad);
        inQueue.EnQue(xLocal);
        xLocal = inQueue.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        AscendC::LeakyRelu(yLocal, xLocal, alpha, count);
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
        yLocal = outQueue.DeQue<float>();
        AscendC::DataCopyPad(cGm[offset], yLocal, params);
        outQueue.FreeTensor(yLocal);
    }

    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
    AscendC::GlobalTensor<half> aGm;
    AscendC::GlobalTensor<half> bGm;
    AscendC::GlobalTensor<float> biasGm;
    AscendC::GlobalTensor<float> cGm;
    int32_t n;
    int32_t curM;
    int32_t curN;
    int32_t rowTile;
    float alpha;
};
} // namespace leaky_kernel

extern "C" __global__ __aicore__ void matmul_leakyrelu_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(tilingData, tiling);
    leaky_kernel::MatmulLeakyreluKernel op;
    leaky_kernel::MatmulObj mm;
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), mm, &tilingData.cubeTilingData);
    if (op.Init(a, b, bias, c, tilingData.cubeTilingData, tilingData.alpha, tilingData.rowTile)) {
        op.Process(mm);
    }
}
