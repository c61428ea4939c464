/**
 * @file batchnorm_infer_struct.cpp
 * @brief Inference BatchNorm on NCHW fp32:  y = (x - mean[c]) / sqrt(var[c] + eps) * gamma[c] + beta[c]
 *
 * Tiling is a packed struct in GM (ATB style, no generated tiling class). Each core owns a
 * contiguous range of channels. The per-channel scale / shift pairs are computed once with
 * vector ops, pulled to the scalar unit, and every H*W plane is then one Muls + Adds.
 */
#include "kernel_operator.h"

#define TILING_FIELD(dst, src, field) (dst).field = (src)->field

namespace bn {

#pragma pack(push, 4)
struct BnTiling {
    uint32_t batch;
    uint32_t channels;
    uint32_t hw;              // H * W, multiple of 8
    uint32_t channelsPerCore; // <= MAX_CHANNELS_PER_CORE
    float eps;
    uint32_t planeTile;       // elements per UB tile of one plane
};
#pragma pack(pop)

constexpr uint32_t MAX_CHANNELS_PER_CORE = 256;
constexpr int32_t BUFFER_NUM = 2;

class KernelBatchNormInfer {
public:
    __aicore__ inline KernelBatchNormInfer() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR mean, GM_ADDR var, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const BnTiling &t)
    {
        tiling = t;
        firstChannel = t.channelsPerCore * AscendC::GetBlockIdx();
        const uint32_t left = t.channels > firstChannel ? t.channels - firstChannel : 0;
        myChannels = left < t.channelsPerCore ? left : t.channelsPerCore;

        xGm.SetGlobalBuffer((__gm__ float *)x, static_cast<uint64_t>(t.batch) * t.channels * t.hw);
        yGm.SetGlobalBuffer((__gm__ float *)y, static_cast<uint64_t>(t.batch) * t.channels * t.hw);
        meanGm.SetGlobalBuffer((__gm__ float *)mean + firstChannel, myChannels);
        varGm.SetGlobalBuffer((__gm__ float *)var + firstChannel, myChannels);
        gammaGm.SetGlobalBuffer((__gm__ float *)gamma + firstChannel, myChannels);
        betaGm.SetGlobalBuffer((__gm__ float *)beta + firstChannel, myChannels);

        pipe.InitBuffer(inQueue, BUFFER_NUM, t.planeTile * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, t.planeTile * sizeof(float));
        pipe.InitBuffer(paramBuf, 4 * MAX_CHANNELS_PER_CORE * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (myChannels == 0) {
            return;
        }
        PrepareScaleShift();
        for (uint32_t n = 0; n < tiling.batch; ++n) {
            for (uint32_t c = 0; c < myChannels; ++c) {
                const uint64_t planeBase = (static_cast<uint64_t>(n) * tiling.channels + firstChannel + c) * tiling.hw;
                NormalizePlane(planeBase, scaleOf[c], shiftOf[c]);
            }
        }
    }

private:
    __aicore__ inline void PrepareScaleShift()
    {
        AscendC::LocalTensor<float> params = paramBuf.Get<float>();
        AscendC::LocalTensor<float> meanL = params;
        AscendC::LocalTensor<float> varL = params[MAX_CHANNELS_PER_CORE];
        AscendC::LocalTensor<float> gammaL = params[2 * MAX_CHANNELS_PER_CORE];
        AscendC::LocalTensor<float> betaL = params[3 * MAX_CHANNELS_PER_CORE];

        AscendC::DataCopyExtParams cp{1, myChannels * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(meanL, meanGm, cp, pad);
        AscendC::DataCopyPad(varL, varGm, cp, pad);
        AscendC::DataCopyPad(gammaL, gammaGm, cp, pad);
        AscendC::DataCopyPad(betaL, betaGm, cp, pad);
        event_t mte2ToV = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_V));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(mte2ToV);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(mte2ToV);

        // varL <- gamma / sqrt(var + eps)   (scale),  betaL <- beta - mean * scale   (shift)
        AscendC::Adds(varL, varL, tiling.eps, myChannels);
        AscendC::Sqrt(varL, varL, myChannels);
        AscendC::Div(varL, gammaL, varL, myChannels);
        AscendC::Mul(meanL, meanL, varL, myChannels);
        AscendC::Sub(betaL, betaL, meanL, myChannels);

        event_t vToS = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(vToS);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(vToS);
        for (uint32_t c = 0; c < myChannels; ++c) {
            scaleOf[c] = varL.GetValue(c);
            shiftOf[c] = betaL.GetValue(c);
        }
    }

    __aicore__ inline void NormalizePlane(uint64_t planeBase, float scale, float shift)
    {
        for (uint32_t off = 0; off < tiling.hw; off += tiling.planeTile) {
            const uint32_t len = tiling.hw - off < tiling.planeTile ? tiling.hw - off : tiling.planeTile;
            AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
            AscendC::DataCopy(xLocal, xGm[planeBase + off], len);
            inQueue.EnQue(xLocal);

            xLocal = inQueue.DeQue<float>();
            AscendC::LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
            AscendC::Muls(yLocal, xLocal, scale, len);
            AscendC::Adds(yLocal, yLocal, shift, len);
            outQueue.EnQue(yLocal);
            inQueue.FreeTensor(xLocal);

            yLocal = outQueue.DeQue<float>();
            AscendC::DataCopy(yGm[planeBase + off], yLocal, len);
            outQueue.FreeTensor(yLocal);
        }
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> paramBuf;
    AscendC::GlobalTensor<float> xGm, yGm, meanGm, varGm, gammaGm, betaGm;
    BnTiling tiling{};
    uint32_t firstChannel = 0;
    uint32_t myChannels = 0;
    float scaleOf[MAX_CHANNELS_PER_CORE];
    float shiftOf[MAX_CHANNELS_PER_CORE];
};

} // namespace bn

extern "C" __global__ __aicore__ void batch_norm_infer_custom(GM_ADDR x, GM_ADDR mean, GM_ADDR var, GM_ADDR gamma,
                                                              GM_ADDR beta, GM_ADDR y, GM_ADDR tiling)
{
    const __gm__ bn::BnTiling *gmTiling = reinterpret_cast<const __gm__ bn::BnTiling *>(tiling);
    bn::BnTiling t;
    TILING_FIELD(t, gmTiling, batch);
    TILING_FIELD(t, gmTiling, channels);
    TILING_FIELD(t, gmTiling, hw);
    TILING_FIELD(t, gmTiling, channelsPerCore);
    TILING_FIELD(t, gmTiling, eps);
    TILING_FIELD(t, gmTiling, planeTile);

    bn::KernelBatchNormInfer op;
    op.Init(x, mean, var, gamma, beta, y, t);
    op.Process();
}
