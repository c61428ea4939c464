// Launched on 8 blocks, but the kernel never asks which block it is: every core loads, scales and stores
// the whole tensor, all at once, to the same addresses (eight times the work; same values, so a warning).
#include "acl/acl.h"
#include "kernel_operator.h"

constexpr int32_t TOTAL_LENGTH = 8 * 2048;
constexpr int32_t TILE_LENGTH = 1024;
constexpr int32_t BUFFER_NUM = 2;

class KernelScaleAll {
public:
    __aicore__ inline KernelScaleAll() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x, TOTAL_LENGTH);
        yGm.SetGlobalBuffer((__gm__ float *)y, TOTAL_LENGTH);
        pipe.InitBuffer(inQueue, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (int32_t i = 0; i < TOTAL_LENGTH / TILE_LENGTH; i++) {
            AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
            AscendC::DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<float>();
            AscendC::LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
            AscendC::Muls(yLocal, xLocal, 0.5f, TILE_LENGTH);
            outQueue.EnQue(yLocal);
            inQueue.FreeTensor(xLocal);
            yLocal = outQueue.DeQue<float>();
            // expected-warning@+1 {{every one of the 8 cores writes this: the kernel never reads GetBlockIdx()}} [ASC603]
            AscendC::DataCopy(yGm[i * TILE_LENGTH], yLocal, TILE_LENGTH);
            outQueue.FreeTensor(yLocal);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
};

__global__ __aicore__ void scale_all(GM_ADDR x, GM_ADDR y)
{
    KernelScaleAll op;
    op.Init(x, y);
    op.Process();
}

void Launch(uint8_t *x, uint8_t *y, aclrtStream stream)
{
    scale_all<<<8, nullptr, stream>>>(x, y);
}
