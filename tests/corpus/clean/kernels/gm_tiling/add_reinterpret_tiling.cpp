/**
 * @file add_reinterpret_tiling.cpp
 * @brief z = x + y (fp16) where the tiling block is a plain struct read straight from GM.
 *
 * No GET_TILING_DATA: the host memcpy's an AddTiling into device memory and passes its address.
 * Fields are read once through a `const __gm__` pointer into registers.
 */
#include "kernel_operator.h"

struct AddTiling {
    uint32_t totalLength;
    uint32_t tileNum;
};

namespace {
constexpr int32_t BUFFER_NUM = 2;
}

class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileNum)
    {
        blockLength_ = totalLength / AscendC::GetBlockNum();
        tileNum_ = tileNum;
        tileLength_ = blockLength_ / tileNum / BUFFER_NUM;

        const uint32_t offset = blockLength_ * AscendC::GetBlockIdx();
        xGm_.SetGlobalBuffer((__gm__ half *)x + offset, blockLength_);
        yGm_.SetGlobalBuffer((__gm__ half *)y + offset, blockLength_);
        zGm_.SetGlobalBuffer((__gm__ half *)z + offset, blockLength_);

        pipe_.InitBuffer(inQueueX_, BUFFER_NUM, tileLength_ * sizeof(half));
        pipe_.InitBuffer(inQueueY_, BUFFER_NUM, tileLength_ * sizeof(half));
        pipe_.InitBuffer(outQueueZ_, BUFFER_NUM, tileLength_ * sizeof(half));
    }

    __aicore__ inline void Process()
    {
        const int32_t loopCount = static_cast<int32_t>(tileNum_) * BUFFER_NUM;
        for (int32_t i = 0; i < loopCount; ++i) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(int32_t i)
    {
        auto xLocal = inQueueX_.AllocTensor<half>();
        auto yLocal = inQueueY_.AllocTensor<half>();
        AscendC::DataCopy(xLocal, xGm_[i * tileLength_], tileLength_);
        AscendC::DataCopy(yLocal, yGm_[i * tileLength_], tileLength_);
        inQueueX_.EnQue(xLocal);
        inQueueY_.EnQue(yLocal);
    }

    __aicore__ inline void Compute()
    {
        auto xLocal = inQueueX_.DeQue<half>();
        auto yLocal = inQueueY_.DeQue<half>();
        auto zLocal = outQueueZ_.AllocTensor<half>();
        zLocal = xLocal + yLocal; // operator form, acts on the whole tile
        outQueueZ_.EnQue(zLocal);
        inQueueX_.FreeTensor(xLocal);
        inQueueY_.FreeTensor(yLocal);
    }

    __aicore__ inline void CopyOut(int32_t i)
    {
        auto zLocal = outQueueZ_.DeQue<half>();
        AscendC::DataCopy(zGm_[i * tileLength_], zLocal, tileLength_);
        outQueueZ_.FreeTensor(zLocal);
    }

    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX_;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueY_;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueZ_;
    AscendC::GlobalTensor<half> xGm_;
    AscendC::GlobalTensor<half> yGm_;
    AscendC::GlobalTensor<half> zGm_;
    uint32_t blockLength_ = 0;
    uint32_t tileNum_ = 0;
    uint32_t tileLength_ = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling)
{
    auto t = reinterpret_cast<const __gm__ AddTiling *>(tiling);
    const uint32_t totalLength = t->totalLength;
    const uint32_t tileNum = t->tileNum;

    KernelAdd op;
    op.Init(x, y, z, totalLength, tileNum);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void add_custom_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *z, uint8_t *tiling)
{
    add_custom<<<blockDim, nullptr, stream>>>(x, y, z, tiling);
}
#endif
