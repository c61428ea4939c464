/**
 * @file softplus_exp.cpp
 * @brief torch.nn.functional.softplus(x, beta, threshold) for fp32.
 *
 *   y = x                          if beta * x > threshold
 *   y = ln(1 + exp(beta * x)) / beta   otherwise
 *
 * The large-input branch is chosen lane by lane with CompareScalar + Select.
 * Compare needs count * sizeof(float) to be a multiple of 256 bytes, so the compare/select
 * length is rounded up to 64 floats; the padding lanes are computed but never copied out.
 */
#include "kernel_operator.h"

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t CMP_ALIGN = 256 / sizeof(float);

__aicore__ inline uint32_t AlignUp(uint32_t value, uint32_t align)
{
    return (value + align - 1) / align * align;
}
} // namespace

class KernelSoftplus {
public:
    __aicore__ inline KernelSoftplus() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t coreLength, uint32_t tileLength, float beta,
                                float threshold)
    {
        this->coreLength = coreLength;
        this->tileLength = tileLength; // multiple of 64
        this->beta = beta;
        this->invBeta = 1.0f / beta;
        this->threshold = threshold;

        xGm.SetGlobalBuffer((__gm__ float *)x + static_cast<uint64_t>(coreLength) * AscendC::GetBlockIdx(), coreLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + static_cast<uint64_t>(coreLength) * AscendC::GetBlockIdx(), coreLength);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(scaledBuf, tileLength * sizeof(float));
        pipe.InitBuffer(maskBuf, tileLength / 8); // one bit per lane
    }

    __aicore__ inline void Process()
    {
        for (uint32_t offset = 0; offset < coreLength; offset += tileLength) {
            const uint32_t len = (coreLength - offset) > tileLength ? tileLength : (coreLength - offset);
            CopyIn(offset, len);
            Compute(len);
            CopyOut(offset, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t len)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(xLocal, xGm[offset], params, padParams);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        const uint32_t calLen = AlignUp(len, CMP_ALIGN);
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        AscendC::LocalTensor<float> scaled = scaledBuf.Get<float>();
        AscendC::LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();

        AscendC::Muls(scaled, xLocal, beta, calLen);
        // mask bit = 1 where beta * x <= threshold -> take the smooth branch
        AscendC::CompareScalar(mask, scaled, threshold, AscendC::CMPMODE::LE, calLen);

        // clamp before exp so that the discarded lanes cannot overflow to inf
        AscendC::Mins(yLocal, scaled, threshold, calLen);
        AscendC::Exp(yLocal, yLocal, calLen);
        AscendC::Adds(yLocal, yLocal, 1.0f, calLen);
        AscendC::Ln(yLocal, yLocal, calLen);
        AscendC::Muls(yLocal, yLocal, invBeta, calLen);

        AscendC::Select(yLocal, mask, yLocal, xLocal, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, calLen);

        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t len)
    {
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[offset], yLocal, params);
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> scaledBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> maskBuf;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
    float beta = 1.0f;
    float invBeta = 1.0f;
    float threshold = 20.0f;
};

extern "C" __global__ __aicore__ void softplus_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelSoftplus op;
    op.Init(x, y, tilingData.coreLength, tilingData.tileLength, tilingData.beta, tilingData.threshold);
    op.Process();
}
