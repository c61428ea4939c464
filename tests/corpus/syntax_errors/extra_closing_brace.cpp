// LeakyRelu kernel: the helper namespace was removed but its closing brace was left behind.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelLeakyRelu {
public:
    __aicore__ inline KernelLeakyRelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalLength, uint32_t tileLength, float slope)
    {
        uint32_t start = tileLength * GetBlockIdx();
        this->length = totalLength;
        this->tileLength = tileLength;
        this->slope = slope;
        xGm.SetGlobalBuffer((__gm__ float *)x + start, totalLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + start, totalLength);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        uint32_t loops = (length + tileLength - 1) / tileLength;
        for (uint32_t i = 0; i < loops; i++) {
            uint32_t cur = tileLength;
            if (i == loops - 1) {
                cur = length - i * tileLength;
            }
            Compute(i, cur);
        }
    }

private:
    __aicore__ inline void Compute(uint32_t i, uint32_t cur)
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopy(xLocal, xGm[i * tileLength], cur);
        inQueue.EnQue(xLocal);
        LocalTensor<float> src = inQueue.DeQue<float>();
        LocalTensor<float> dst = outQueue.AllocTensor<float>();
        LeakyRelu(dst, src, slope, cur);
        outQueue.EnQue(dst);
        inQueue.FreeTensor(src);
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopy(yGm[i * tileLength], yLocal, cur);
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint32_t length;
    uint32_t tileLength;
    float slope;
};
} // namespace leaky_relu  // expected-error {{unexpected '}'}} [ASC001]

extern "C" __global__ __aicore__ void leaky_relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelLeakyRelu op;
    op.Init(x, y, tilingData.totalLength, tilingData.tileLength, tilingData.negativeSlope);
    op.Process();
}
