// Muls kernel: empty call arguments, which only a macro may take (OP_CHECK_IF(c, , return x)): a trailing
// comma, and an empty statement where the last argument belongs.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelMuls {
public:
    __aicore__ inline KernelMuls() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t blockLength, uint32_t tileLength, float scale)
    {
        this->blockLength = blockLength;
        this->tileLength = tileLength;
        this->scale = scale;
        xGm.SetGlobalBuffer((__gm__ float *)x + blockLength * GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + blockLength * GetBlockIdx(), blockLength, ); // expected-error {{expected expression before ')'}} [ASC001]
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < blockLength / tileLength; i++) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopy(xLocal, xGm[progress * tileLength], tileLength);
        inQueue.EnQue(xLocal);
    }
    __aicore__ inline void Compute()
    {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        Muls(yLocal, xLocal, scale, ;); // expected-error {{expected expression before ';'}} [ASC001]
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress)
    {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopy(yGm[progress * tileLength], yLocal, tileLength);
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint32_t blockLength;
    uint32_t tileLength;
    float scale;
};

extern "C" __global__ __aicore__ void muls_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelMuls op;
    op.Init(x, y, tilingData.blockLength, tilingData.tileLength, tilingData.scale);
    op.Process();
}
