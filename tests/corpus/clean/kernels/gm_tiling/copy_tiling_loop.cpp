/**
 * @file copy_tiling_loop.cpp
 * @brief z = x - y  (or y - x when `reversed` is set), fp32, tiling copied word by word.
 *
 * The tiling struct is pulled from GM into a stack copy 32 bits at a time, which is how
 * kernel-launch samples read structs whose size is a multiple of 4 bytes.
 */
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

struct SubTiling {
    uint32_t blockLength; // elements per core, multiple of 8
    uint32_t tileLength;  // elements per tile, divides blockLength
    uint32_t reversed;    // 0: x - y, 1: y - x
    uint32_t reserved;    // keeps the struct 16 bytes
};

__aicore__ inline void CopyTiling(SubTiling *tiling, GM_ADDR tilingGM)
{
    int32_t *dst = reinterpret_cast<int32_t *>(tiling);
    auto src = reinterpret_cast<__gm__ int32_t *>(tilingGM);
    for (uint32_t i = 0; i < sizeof(SubTiling) / sizeof(int32_t); ++i, ++dst) {
        *dst = *(src + i);
    }
}

class KernelSub {
public:
    __aicore__ inline KernelSub() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const SubTiling &tiling)
    {
        blockLength = tiling.blockLength;
        tileLength = tiling.tileLength;
        reversed = tiling.reversed != 0;
        const uint64_t offset = static_cast<uint64_t>(blockLength) * AscendC::GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ float *)x + offset, blockLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + offset, blockLength);
        zGm.SetGlobalBuffer((__gm__ float *)z + offset, blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        const uint32_t loops = blockLength / tileLength;
        for (uint32_t i = 0; i < loops; ++i) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
        AscendC::DataCopy(xLocal, xGm[i * tileLength], tileLength);
        AscendC::DataCopy(yLocal, yGm[i * tileLength], tileLength);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }

    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = inQueueY.DeQue<float>();
        AscendC::LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
        const AscendC::LocalTensor<float> &lhs = reversed ? yLocal : xLocal;
        const AscendC::LocalTensor<float> &rhs = reversed ? xLocal : yLocal;
        AscendC::Sub(zLocal, lhs, rhs, tileLength);
        outQueueZ.EnQue(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t i)
    {
        AscendC::LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
        AscendC::DataCopy(zGm[i * tileLength], zLocal, tileLength);
        outQueueZ.FreeTensor(zLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueY;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueZ;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    AscendC::GlobalTensor<float> zGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    bool reversed = false;
};

extern "C" __global__ __aicore__ void sub_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tilingGM)
{
    SubTiling tiling;
    CopyTiling(&tiling, tilingGM);
    KernelSub op;
    op.Init(x, y, z, tiling);
    op.Process();
}
