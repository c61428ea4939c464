// Sigmoid kernel with a hand-written tiling struct that is missing its closing ';'.
#include "kernel_operator.h"

using namespace AscendC;

struct SigmoidTiling {
    uint32_t totalLength;
    uint32_t blockLength;
    uint32_t tileLength;
    // expected-error@+1 {{expected ';' after}} [ASC001]
}
constexpr int32_t BUFFER_NUM = 2;

class KernelSigmoid {
public:
    __aicore__ inline KernelSigmoid() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SigmoidTiling &t)
    {
        blockLength = t.blockLength;
        tileLength = t.tileLength;
        xGm.SetGlobalBuffer((__gm__ float *)x + blockLength * GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + blockLength * GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < blockLength / tileLength; ++i) {
            LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
            DataCopy(xLocal, xGm[i * tileLength], tileLength);
            inQueue.EnQue(xLocal);
            LocalTensor<float> src = inQueue.DeQue<float>();
            LocalTensor<float> dst = outQueue.AllocTensor<float>();
            Sigmoid(dst, src, tileLength);
            outQueue.EnQue(dst);
            inQueue.FreeTensor(src);
            LocalTensor<float> yLocal = outQueue.DeQue<float>();
            DataCopy(yGm[i * tileLength], yLocal, tileLength);
            outQueue.FreeTensor(yLocal);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void sigmoid_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    constexpr SigmoidTiling tilingData = {1048576U, 32768U, 4096U};
    KernelSigmoid op;
    op.Init(x, y, tilingData);
    op.Process();
}
