// Kernel-launch style Axpy kernel: the CPU-debug '#ifndef' was deleted but its '#endif' stayed.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

class KernelAxpy {
public:
    __aicore__ inline KernelAxpy() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t blockLength, uint32_t tileLength, half alpha)
    {
        this->blockLength = blockLength;
        this->tileLength = tileLength;
        this->alpha = alpha;
        xGm.SetGlobalBuffer((__gm__ half *)x + blockLength * AscendC::GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ half *)y + blockLength * AscendC::GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(half));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < blockLength / tileLength; i++) {
            AscendC::LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
            AscendC::LocalTensor<half> yLocal = inQueueY.AllocTensor<half>();
            AscendC::DataCopy(xLocal, xGm[i * tileLength], tileLength);
            AscendC::DataCopy(yLocal, yGm[i * tileLength], tileLength);
            inQueueX.EnQue(xLocal);
            inQueueY.EnQue(yLocal);
            AscendC::LocalTensor<half> xs = inQueueX.DeQue<half>();
            AscendC::LocalTensor<half> ys = inQueueY.DeQue<half>();
            AscendC::Axpy(ys, xs, alpha, tileLength);
            AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
            AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
            AscendC::DataCopy(yGm[i * tileLength], ys, tileLength);
            inQueueX.FreeTensor(xs);
            inQueueY.FreeTensor(ys);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    AscendC::GlobalTensor<half> xGm;
    AscendC::GlobalTensor<half> yGm;
    uint32_t blockLength;
    uint32_t tileLength;
    half alpha;
};

extern "C" __global__ __aicore__ void axpy_custom(GM_ADDR x, GM_ADDR y, uint32_t blockLength, uint32_t tileLength)
{
    KernelAxpy op;
    op.Init(x, y, blockLength, tileLength, static_cast<half>(2.0f));
    op.Process();
}

void axpy_custom_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint32_t blockLength, uint32_t tileLength)
{
    axpy_custom<<<blockDim, nullptr, stream>>>(x, y, blockLength, tileLength);
}
#endif // expected-error {{#endif without #if}} [ASC005]
