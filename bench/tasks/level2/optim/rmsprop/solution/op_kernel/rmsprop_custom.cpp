/**
 * @file rmsprop_custom.cpp
 * @brief RmspropCustom kernel: square_avg = alpha * square_avg + (1 - alpha) g^2; param -= lr * g / (sqrt(square_avg)
 *        + eps); in place, fp32.
 *
 * Not centred, no momentum, no weight decay. Each core updates its own slice; the queues double-buffer loads,
 * math and stores.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
} // namespace

class KernelRmsprop {
public:
    __aicore__ inline KernelRmsprop() {}

    __aicore__ inline void Init(GM_ADDR param, GM_ADDR square_avg, GM_ADDR grad, const RmspropCustomTilingData &td)
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
        lr = td.lr;
        alpha = td.alpha;
        oneMinusAlpha = td.oneMinusAlpha;
        eps = td.eps;

        paramGm.SetGlobalBuffer((__gm__ float *)param + coreStart, coreLength);
        square_avgGm.SetGlobalBuffer((__gm__ float *)square_avg + coreStart, coreLength);
        gradGm.SetGlobalBuffer((__gm__ float *)grad + coreStart, coreLength);
        pipe.InitBuffer(paramQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(square_avgQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(gradQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(paramOutQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(square_avgOutQueue, BUFFER_NUM, tileLength * sizeof(float));
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
        LocalTensor<float> square_avgLocal = square_avgQueue.AllocTensor<float>();
        LocalTensor<float> gradLocal = gradQueue.AllocTensor<float>();
        DataCopyPad(paramLocal, paramGm[pos], params, pad);
        DataCopyPad(square_avgLocal, square_avgGm[pos], params, pad);
        DataCopyPad(gradLocal, gradGm[pos], params, pad);
        paramQueue.EnQue(paramLocal);
        square_avgQueue.EnQue(square_avgLocal);
        gradQueue.EnQue(gradLocal);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<float> param = paramQueue.DeQue<float>();
        LocalTensor<float> square_avg = square_avgQueue.DeQue<float>();
        LocalTensor<float> grad = gradQueue.DeQue<float>();
        LocalTensor<float> paramNew = paramOutQueue.AllocTensor<float>();
        LocalTensor<float> square_avgNew = square_avgOutQueue.AllocTensor<float>();
        LocalTensor<float> t0 = tmpBuf0.Get<float>();
        Mul(t0, grad, grad, n);
        Muls(square_avgNew, square_avg, alpha, n);
        Axpy(square_avgNew, t0, oneMinusAlpha, n);      // s = alpha s + (1 - alpha) g^2
        Sqrt(t0, square_avgNew, n);
        Adds(t0, t0, eps, n);
        Div(t0, grad, t0, n);
        Adds(paramNew, param, 0.0f, n);
        Axpy(paramNew, t0, -lr, n);
        paramOutQueue.EnQue(paramNew);
        square_avgOutQueue.EnQue(square_avgNew);
        paramQueue.FreeTensor(param);
        square_avgQueue.FreeTensor(square_avg);
        gradQueue.FreeTensor(grad);
    }

    // the updated values go back to the slices they were read from
    __aicore__ inline void CopyOut(uint32_t pos, uint32_t n)
    {
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        LocalTensor<float> paramNew = paramOutQueue.DeQue<float>();
        LocalTensor<float> square_avgNew = square_avgOutQueue.DeQue<float>();
        DataCopyPad(paramGm[pos], paramNew, params);
        DataCopyPad(square_avgGm[pos], square_avgNew, params);
        paramOutQueue.FreeTensor(paramNew);
        square_avgOutQueue.FreeTensor(square_avgNew);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> paramQueue;
    TQue<TPosition::VECIN, 1> square_avgQueue;
    TQue<TPosition::VECIN, 1> gradQueue;
    TQue<TPosition::VECOUT, 1> paramOutQueue;
    TQue<TPosition::VECOUT, 1> square_avgOutQueue;
    TBuf<TPosition::VECCALC> tmpBuf0;
    GlobalTensor<float> paramGm;
    GlobalTensor<float> square_avgGm;
    GlobalTensor<float> gradGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
    float lr = 0.0f;
    float alpha = 0.0f;
    float oneMinusAlpha = 0.0f;
    float eps = 0.0f;
};

extern "C" __global__ __aicore__ void rmsprop_custom(GM_ADDR param, GM_ADDR square_avg, GM_ADDR grad,
                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelRmsprop op;
    op.Init(param, square_avg, grad, tilingData);
    op.Process();
}
