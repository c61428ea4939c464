/**
 * @file leaky_relu_custom.cpp
 * @brief LeakyReluCustom kernel: y = x >= 0 ? x : negative_slope * x, for fp16 and fp32 (DTYPE_X).
 *        Double-buffered TQue pipeline; the last, shorter tile is moved with DataCopyPad.
 */
#include "kernel_operator.h"

namespace {
constexpr int32_t BUFFER_NUM = 2;
}

template <typename T>
class KernelLeakyRelu {
public:
    __aicore__ inline KernelLeakyRelu() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalLength, uint32_t blockLength, uint32_t tileLength,
                                float negativeSlope)
    {
        const uint32_t start = blockLength * AscendC::GetBlockIdx();
        length = start >= totalLength ? 0 : (totalLength - start < blockLength ? totalLength - start : blockLength);
        this->tileLength = tileLength;
        slope = static_cast<T>(negativeSlope);

        xGm.SetGlobalBuffer((__gm__ T *)x + start, length);
        yGm.SetGlobalBuffer((__gm__ T *)y + start, length);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        const uint32_t loops = (length + tileLength - 1) / tileLength;
        for (uint32_t i = 0; i < loops; ++i) {
            const uint32_t offset = i * tileLength;
            const uint32_t count = (i == loops - 1) ? length - offset : tileLength;
            CopyIn(offset, count);
            Compute(count);
            CopyOut(offset, count);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t count)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.template AllocTensor<T>();
        AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[offset], params, padParams);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t count)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.template DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.template AllocTensor<T>();
        AscendC::LeakyRelu(yLocal, xLocal, slope, count);
        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t count)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.template DeQue<T>();
        AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[offset], yLocal, params);
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    uint32_t length = 0;
    uint32_t tileLength = 0;
    T slope;
};

extern "C" __global__ __aicore__ void leaky_relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelLeakyRelu<DTYPE_X> op;
    op.Init(x, y, tilingData.totalLength, tilingData.blockLength, tilingData.tileLength, tilingData.negativeSlope);
    op.Process();
}
