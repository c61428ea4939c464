// Launched on 8 blocks. Each core reads its own slice of x, but y is set up without the core's offset:
// all eight cores store their (different) results to the first slice of y at once, and the other seven
// slices of y are never written.
#include "acl/acl.h"
#include "kernel_operator.h"

constexpr int32_t BLOCK_LENGTH = 2048;
constexpr int32_t TILE_LENGTH = 512;
constexpr int32_t BUFFER_NUM = 2;

class KernelScaleSlices {
public:
    __aicore__ inline KernelScaleSlices() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ float *)y, BLOCK_LENGTH);
        pipe.InitBuffer(inQueue, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (int32_t i = 0; i < BLOCK_LENGTH / TILE_LENGTH; i++) {
            AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
            AscendC::DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<float>();
            AscendC::LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
            AscendC::Muls(yLocal, xLocal, 0.5f, TILE_LENGTH);
            outQueue.EnQue(yLocal);
            inQueue.FreeTensor(xLocal);
            yLocal = outQueue.DeQue<float>();
            // expected-error@+1 {{all 8 cores write the same elements of 'yGm': the address of this copy does not depend on GetBlockIdx()}} [ASC606]
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

__global__ __aicore__ void scale_slices(GM_ADDR x, GM_ADDR y)
{
    KernelScaleSlices op;
    op.Init(x, y);
    op.Process();
}

void Launch(uint8_t *x, uint8_t *y, aclrtStream stream)
{
    scale_slices<<<8, nullptr, stream>>>(x, y);
}
