// Clamp kernel with a tail tile: a stray ';' after the if-block leaves the 'else' without its 'if'.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelClamp {
public:
    __aicore__ inline KernelClamp() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t length, uint32_t tileLength, float lo, float hi)
    {
        this->length = length;
        this->tileLength = tileLength;
        this->lo = lo;
        this->hi = hi;
        xGm.SetGlobalBuffer((__gm__ float *)x, length);
        yGm.SetGlobalBuffer((__gm__ float *)y, length);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        uint32_t loops = (length + tileLength - 1) / tileLength;
        for (uint32_t i = 0; i < loops; i++) {
            uint32_t cur = 0;
            if (i < loops - 1) {
                cur = tileLength;
            };
            else { // expected-error {{'else'}} [ASC001]
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
        Maxs(dst, src, lo, cur);
        Mins(dst, dst, hi, cur);
        outQueue.EnQue(dst);
        inQueue.FreeTensor(src);
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopy(yGm[i * tileLength], yLocal, cur);
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<float> xGm, yGm;
    uint32_t length;
    uint32_t tileLength;
    float lo;
    float hi;
};

extern "C" __global__ __aicore__ void clamp_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelClamp op;
    op.Init(x, y, tilingData.length, tilingData.tileLength, tilingData.lo, tilingData.hi);
    op.Process();
}
