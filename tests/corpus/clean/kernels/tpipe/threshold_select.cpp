/**
 * @file threshold_select.cpp
 * @brief torch.nn.Threshold: y = x if x > threshold else value  (fp32).
 *
 * CompareScalar builds a bit mask, Select in tensor-scalar mode writes `value` where the bit is 0.
 * Tiles hold a multiple of 64 floats so the compare length is always 256-byte aligned; the
 * per-core tail is padded up to 64 lanes for the vector work and trimmed on the way out.
 */
#include "kernel_operator.h"

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t FLOATS_PER_REPEAT = 64;
} // namespace

class KernelThreshold {
public:
    __aicore__ inline KernelThreshold() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t coreLength, uint32_t tileLength, float threshold,
                                float value)
    {
        this->coreLength = coreLength;
        this->tileLength = tileLength;
        this->threshold = threshold;
        this->value = value;

        auto *xPtr = reinterpret_cast<__gm__ float *>(x);
        auto *yPtr = reinterpret_cast<__gm__ float *>(y);
        const uint64_t start = static_cast<uint64_t>(coreLength) * AscendC::GetBlockIdx();
        xGm.SetGlobalBuffer(xPtr + start, coreLength);
        yGm.SetGlobalBuffer(yPtr + start, coreLength);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(maskBuf, tileLength / 8);
    }

    __aicore__ inline void Process()
    {
        if (coreLength == 0) {
            return;
        }
        uint32_t offset = 0;
        do {
            const uint32_t remain = coreLength - offset;
            const uint32_t len = remain > tileLength ? tileLength : remain;
            CopyIn(offset, len);
            Compute(len);
            CopyOut(offset, len);
            offset += len;
        } while (offset < coreLength);
    }

private:
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t len)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::DataCopyExtParams params{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(xLocal, xGm[offset], params, padParams);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        const uint32_t vecLen = (len + FLOATS_PER_REPEAT - 1) / FLOATS_PER_REPEAT * FLOATS_PER_REPEAT;
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        AscendC::LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();

        AscendC::CompareScalar(mask, xLocal, threshold, AscendC::CMPMODE::GT, vecLen);
        AscendC::Select(yLocal, mask, xLocal, value, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, vecLen);

        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t len)
    {
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        AscendC::DataCopyExtParams params{1, len * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[offset], yLocal, params);
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> maskBuf;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
    float threshold = 0.0f;
    float value = 0.0f;
};

extern "C" __global__ __aicore__ void threshold_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelThreshold op;
    op.Init(x, y, tilingData.coreLength, tilingData.tileLength, tilingData.threshold, tilingData.value);
    op.Process();
}
