/*
 * mul_add_custom.cpp (kernel-launch sample, 2023 layout)
 *
 * out = x * y + z for fp32, three inputs, fixed shape. Shows three VECIN queues sharing the
 * pipe and the product kept in the output tensor before the add.
 */
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t TOTAL_LENGTH = 32 * 1024;
constexpr int32_t USE_CORE_NUM = 32;
constexpr int32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;   // 1024 floats per core
constexpr int32_t TILE_NUM = 4;
constexpr int32_t BUFFER_NUM = 2;
constexpr int32_t TILE_LENGTH = BLOCK_LENGTH / TILE_NUM / BUFFER_NUM;

class KernelMulAdd {
public:
    __aicore__ inline KernelMulAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR out)
    {
        int32_t offset = BLOCK_LENGTH * GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ float*)x + offset, BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ float*)y + offset, BLOCK_LENGTH);
        zGm.SetGlobalBuffer((__gm__ float*)z + offset, BLOCK_LENGTH);
        outGm.SetGlobalBuffer((__gm__ float*)out + offset, BLOCK_LENGTH);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(inQueueZ, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        int32_t loopCount = TILE_NUM * BUFFER_NUM;
        for (int32_t i = 0; i < loopCount; i++) {
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(int32_t progress)
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
        LocalTensor<float> zLocal = inQueueZ.AllocTensor<float>();
        DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
        DataCopy(yLocal, yGm[progress * TILE_LENGTH], TILE_LENGTH);
        DataCopy(zLocal, zGm[progress * TILE_LENGTH], TILE_LENGTH);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
        inQueueZ.EnQue(zLocal);
    }
    __aicore__ inline void Compute(int32_t progress)
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> yLocal = inQueueY.DeQue<float>();
        LocalTensor<float> zLocal = inQueueZ.DeQue<float>();
        LocalTensor<float> outLocal = outQueue.AllocTensor<float>();
        Mul(outLocal, xLocal, yLocal, TILE_LENGTH);
        Add(outLocal, outLocal, zLocal, TILE_LENGTH);
        outQueue.EnQue<float>(outLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
        inQueueZ.FreeTensor(zLocal);
    }
    __aicore__ inline void CopyOut(int32_t progress)
    {
        LocalTensor<float> outLocal = outQueue.DeQue<float>();
        DataCopy(outGm[progress * TILE_LENGTH], outLocal, TILE_LENGTH);
        outQueue.FreeTensor(outLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY, inQueueZ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<float> xGm, yGm, zGm, outGm;
};

extern "C" __global__ __aicore__ void mul_add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR out)
{
    KernelMulAdd op;
    op.Init(x, y, z, out);
    op.Process();
}

#ifndef __CCE_KT_TEST__
void mul_add_custom_do(uint32_t blockDim, void* l2ctrl, void* stream, uint8_t* x, uint8_t* y, uint8_t* z,
                       uint8_t* out)
{
    mul_add_custom<<<blockDim, l2ctrl, stream>>>(x, y, z, out);
}
#endif
