/*
 * sigmoid_custom.cpp (kernel-launch sample, 2023 layout)
 *
 * y = 1 / (1 + exp(-x)) for fp32 with the primitive vector instructions
 * (Muls, Exp, Adds, Reciprocal). The tile count does not divide the core length evenly,
 * so the last tile of every core is shorter.
 */
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t TOTAL_LENGTH = 48 * 5000;
constexpr int32_t USE_CORE_NUM = 48;
constexpr int32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;  // 5000 floats per core
constexpr int32_t TILE_LENGTH = 1024;                          // floats per full tile
constexpr int32_t TILE_NUM = (BLOCK_LENGTH + TILE_LENGTH - 1) / TILE_LENGTH;
constexpr int32_t LAST_TILE_LENGTH = BLOCK_LENGTH - (TILE_NUM - 1) * TILE_LENGTH; // 904, 32B aligned
constexpr int32_t BUFFER_NUM = 2;

class KernelSigmoid {
public:
    __aicore__ inline KernelSigmoid() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ float*)x + BLOCK_LENGTH * GetBlockIdx(), BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ float*)y + BLOCK_LENGTH * GetBlockIdx(), BLOCK_LENGTH);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(calcBuf, TILE_LENGTH * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (int32_t i = 0; i < TILE_NUM; i++) {
            int32_t length = (i == TILE_NUM - 1) ? LAST_TILE_LENGTH : TILE_LENGTH;
            CopyIn(i, length);
            Compute(length);
            CopyOut(i, length);
        }
    }

private:
    __aicore__ inline void CopyIn(int32_t progress, int32_t length)
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        DataCopy(xLocal, xGm[progress * TILE_LENGTH], length);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute(int32_t length)
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        LocalTensor<float> tmp = calcBuf.Get<float>();
        Muls(tmp, xLocal, (float)-1.0, length);
        Exp(tmp, tmp, length);
        Adds(tmp, tmp, (float)1.0, length);
        Reciprocal(yLocal, tmp, length);
        outQueueY.EnQue<float>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(int32_t progress, int32_t length)
    {
        LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        DataCopy(yGm[progress * TILE_LENGTH], yLocal, length);
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    TBuf<QuePosition::VECCALC> calcBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
};

extern "C" __global__ __aicore__ void sigmoid_custom(GM_ADDR x, GM_ADDR y)
{
    KernelSigmoid op;
    op.Init(x, y);
    op.Process();
}

#ifndef __CCE_KT_TEST__
void sigmoid_custom_do(uint32_t blockDim, void* l2ctrl, void* stream, uint8_t* x, uint8_t* y)
{
    sigmoid_custom<<<blockDim, l2ctrl, stream>>>(x, y);
}
#endif
