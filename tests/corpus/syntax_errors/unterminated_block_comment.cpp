// Reciprocal kernel: a block comment opened before CopyOut is never closed, swallowing the rest.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelReciprocal {
public:
    __aicore__ inline KernelReciprocal() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t blockLength, uint32_t tileLength)
    {
        this->blockLength = blockLength;
        this->tileLength = tileLength;
        xGm.SetGlobalBuffer((__gm__ float *)x + blockLength * GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + blockLength * GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < blockLength / tileLength; i++) {
            LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
            DataCopy(xLocal, xGm[i * tileLength], tileLength);
            inQueue.EnQue(xLocal);
            LocalTensor<float> src = inQueue.DeQue<float>();
            LocalTensor<float> dst = outQueue.AllocTensor<float>();
            Reciprocal(dst, src, tileLength);
            outQueue.EnQue(dst);
            inQueue.FreeTensor(src);
            CopyOut(i);
        }
    }

private:
    // expected-error@+1 {{unterminated comment}} [ASC009]
    /* CopyOut: move one finished tile back to GM.
     * The tile is always full here because blockLength is a multiple of tileLength.
    __aicore__ inline void CopyOut(uint32_t i)
    {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopy(yGm[i * tileLength], yLocal, tileLength);
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint32_t blockLength;
    uint32_t tileLength;
};

extern "C" __global__ __aicore__ void reciprocal_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelReciprocal op;
    op.Init(x, y, tilingData.blockLength, tilingData.tileLength);
    op.Process();
}
