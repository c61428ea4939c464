/**
 * @file adamw_custom.cpp
 * @brief AdamwCustom kernel: AdamW step: decay, moment updates, bias-corrected update of param; param, exp_avg,
 *        exp_avg_sq in place, fp32.
 *
 * amsgrad off, not maximising. Each core updates its own slice; the queues double-buffer loads, math and
 * stores.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
} // namespace

class KernelAdamw {
public:
    __aicore__ inline KernelAdamw() {}

    __aicore__ inline void Init(GM_ADDR param, GM_ADDR exp_avg, GM_ADDR exp_avg_sq, GM_ADDR grad,
                                const AdamwCustomTilingData &td)
    {
        const uint32_t blockIdx = GetBlockIdx();
        uint64_t coreStart = 0;
        uint32_t coreShare = 0;
        if (blockIdx < td.formerNum) {
            coreShare = td.formerLength;
            coreStart = static_cast<uint64_t>(td.formerLength) * blockIdx;
        } else {
            coreShare = td.tailLength;
            coreStart = static_cast<uint64_t>(td.formerLength) * td.formerNum +
                        static_cast<uint64_t>(td.tailLength) * (blockIdx - td.formerNum);
        }
        if (coreStart >= td.totalLength) {
            coreLength = 0;
        } else {
            const uint64_t rest = td.totalLength - coreStart;
            coreLength = rest < coreShare ? static_cast<uint32_t>(rest) : coreShare;
        }
        tileLength = td.tileLength;
        decay = td.decay;
        beta1 = td.beta1;
        oneMinusBeta1 = td.oneMinusBeta1;
        beta2 = td.beta2;
        oneMinusBeta2 = td.oneMinusBeta2;
        eps = td.eps;
        stepSize = td.stepSize;
        invBiasCorrection2 = td.invBiasCorrection2;

        paramGm.SetGlobalBuffer((__gm__ float *)param + coreStart, coreLength);
        exp_avgGm.SetGlobalBuffer((__gm__ float *)exp_avg + coreStart, coreLength);
        exp_avg_sqGm.SetGlobalBuffer((__gm__ float *)exp_avg_sq + coreStart, coreLength);
        gradGm.SetGlobalBuffer((__gm__ float *)grad + coreStart, coreLength);
        pipe.InitBuffer(paramQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(exp_avgQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(exp_avg_sqQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(gradQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(paramOutQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(exp_avgOutQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(exp_avg_sqOutQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(tmpBuf0, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t pos = 0; pos < coreLength; pos += tileLength) {
            const uint32_t n = (coreLength - pos) < tileLength ? (coreLength - pos) : tileLength;
            CopyIn(pos, n);
            Compute(n);
            CopyOut(pos, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t pos, uint32_t n)
    {
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        LocalTensor<float> paramLocal = paramQueue.AllocTensor<float>();
        LocalTensor<float> exp_avgLocal = exp_avgQueue.AllocTensor<float>();
        LocalTensor<float> exp_avg_sqLocal = exp_avg_sqQueue.AllocTensor<float>();
        LocalTensor<float> gradLocal = gradQueue.AllocTensor<float>();
        DataCopyPad(paramLocal, paramGm[pos], params, pad);
        DataCopyPad(exp_avgLocal, exp_avgGm[pos], params, pad);
        DataCopyPad(exp_avg_sqLocal, exp_avg_sqGm[pos], params, pad);
        DataCopyPad(gradLocal, gradGm[pos], params, pad);
        paramQueue.EnQue(paramLocal);
        exp_avgQueue.EnQue(exp_avgLocal);
        exp_avg_sqQueue.EnQue(exp_avg_sqLocal);
        gradQueue.EnQue(gradLocal);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<float> param = paramQueue.DeQue<float>();
        LocalTensor<float> exp_avg = exp_avgQueue.DeQue<float>();
        LocalTensor<float> exp_avg_sq = exp_avg_sqQueue.DeQue<float>();
        LocalTensor<float> grad = gradQueue.DeQue<float>();
        LocalTensor<float> paramNew = paramOutQueue.AllocTensor<float>();
        LocalTensor<float> exp_avgNew = exp_avgOutQueue.AllocTensor<float>();
        LocalTensor<float> exp_avg_sqNew = exp_avg_sqOutQueue.AllocTensor<float>();
        LocalTensor<float> t0 = tmpBuf0.Get<float>();
        Muls(exp_avgNew, exp_avg, beta1, n);
        Axpy(exp_avgNew, grad, oneMinusBeta1, n);        // m = beta1 m + (1 - beta1) g
        Mul(grad, grad, grad, n);
        Muls(exp_avg_sqNew, exp_avg_sq, beta2, n);
        Axpy(exp_avg_sqNew, grad, oneMinusBeta2, n);     // v = beta2 v + (1 - beta2) g^2
        Muls(t0, exp_avg_sqNew, invBiasCorrection2, n);
        Sqrt(t0, t0, n);
        Adds(t0, t0, eps, n);                            // sqrt(v / (1 - beta2^t)) + eps
        Div(t0, exp_avgNew, t0, n);
        Muls(paramNew, param, decay, n);
        Axpy(paramNew, t0, -stepSize, n);
        paramOutQueue.EnQue(paramNew);
        exp_avgOutQueue.EnQue(exp_avgNew);
        exp_avg_sqOutQueue.EnQue(exp_avg_sqNew);
        paramQueue.FreeTensor(param);
        exp_avgQueue.FreeTensor(exp_avg);
        exp_avg_sqQueue.FreeTensor(exp_avg_sq);
        gradQueue.FreeTensor(grad);
    }

    // the updated values go back to the slices they were read from
    __aicore__ inline void CopyOut(uint32_t pos, uint32_t n)
    {
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        LocalTensor<float> paramNew = paramOutQueue.DeQue<float>();
        LocalTensor<float> exp_avgNew = exp_avgOutQueue.DeQue<float>();
        LocalTensor<float> exp_avg_sqNew = exp_avg_sqOutQueue.DeQue<float>();
        DataCopyPad(paramGm[pos], paramNew, params);
        DataCopyPad(exp_avgGm[pos], exp_avgNew, params);
        DataCopyPad(exp_avg_sqGm[pos], exp_avg_sqNew, params);
        paramOutQueue.FreeTensor(paramNew);
        exp_avgOutQueue.FreeTensor(exp_avgNew);
        exp_avg_sqOutQueue.FreeTensor(exp_avg_sqNew);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> paramQueue;
    TQue<TPosition::VECIN, 1> exp_avgQueue;
    TQue<TPosition::VECIN, 1> exp_avg_sqQueue;
    TQue<TPosition::VECIN, 1> gradQueue;
    TQue<TPosition::VECOUT, 1> paramOutQueue;
    TQue<TPosition::VECOUT, 1> exp_avgOutQueue;
    TQue<TPosition::VECOUT, 1> exp_avg_sqOutQueue;
    TBuf<TPosition::VECCALC> tmpBuf0;
    GlobalTensor<float> paramGm;
    GlobalTensor<float> exp_avgGm;
    GlobalTensor<float> exp_avg_sqGm;
    GlobalTensor<float> gradGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
    float decay = 0.0f;
    float beta1 = 0.0f;
    float oneMinusBeta1 = 0.0f;
    float beta2 = 0.0f;
    float oneMinusBeta2 = 0.0f;
    float eps = 0.0f;
    float stepSize = 0.0f;
    float invBiasCorrection2 = 0.0f;
};

extern "C" __global__ __aicore__ void adamw_custom(GM_ADDR param, GM_ADDR exp_avg, GM_ADDR exp_avg_sq, GM_ADDR grad,
                                                   GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelAdamw op;
    op.Init(param, exp_avg, exp_avg_sq, grad, tilingData);
    op.Process();
}
