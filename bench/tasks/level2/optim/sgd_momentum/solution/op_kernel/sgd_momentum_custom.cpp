/**
 * @file sgd_momentum_custom.cpp
 * @brief SgdMomentumCustom kernel: p -= lr * (buf = momentum * buf + grad + weight_decay * p), in place, fp32.
 *
 * dampening 0, no Nesterov; the momentum buffer exists already (not the first step). Each core updates its own
 * slice; the queues double-buffer loads, math and stores.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
} // namespace

class KernelSgdMomentum {
public:
    __aicore__ inline KernelSgdMomentum() {}

    __aicore__ inline void Init(GM_ADDR param, GM_ADDR grad, GM_ADDR momentum_buffer,
                                const SgdMomentumCustomTilingData &td)
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
        momentum = td.momentum;
        weightDecay = td.weightDecay;

        paramGm.SetGlobalBuffer((__gm__ float *)param + coreStart, coreLength);
        gradGm.SetGlobalBuffer((__gm__ float *)grad + coreStart, coreLength);
        momentum_bufferGm.SetGlobalBuffer((__gm__ float *)momentum_buffer + coreStart, coreLength);
        pipe.InitBuffer(paramQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(gradQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(momentum_bufferQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(paramOutQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(momentum_bufferOutQueue, BUFFER_NUM, tileLength * sizeof(float));
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
        LocalTensor<float> gradLocal = gradQueue.AllocTensor<float>();
        LocalTensor<float> momentum_bufferLocal = momentum_bufferQueue.AllocTensor<float>();
        DataCopyPad(paramLocal, paramGm[pos], params, pad);
        DataCopyPad(gradLocal, gradGm[pos], params, pad);
        DataCopyPad(momentum_bufferLocal, momentum_bufferGm[pos], params, pad);
        paramQueue.EnQue(paramLocal);
        gradQueue.EnQue(gradLocal);
        momentum_bufferQueue.EnQue(momentum_bufferLocal);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<float> param = paramQueue.DeQue<float>();
        LocalTensor<float> grad = gradQueue.DeQue<float>();
        LocalTensor<float> momentum_buffer = momentum_bufferQueue.DeQue<float>();
        LocalTensor<float> paramNew = paramOutQueue.AllocTensor<float>();
        LocalTensor<float> momentum_bufferNew = momentum_bufferOutQueue.AllocTensor<float>();
        Axpy(grad, param, weightDecay, n);           // g = grad + wd * p
        Muls(momentum_bufferNew, momentum_buffer, momentum, n);
        Add(momentum_bufferNew, momentum_bufferNew, grad, n);
        Axpy(param, momentum_bufferNew, -lr, n);     // p - lr * buf
        Adds(paramNew, param, 0.0f, n);
        paramOutQueue.EnQue(paramNew);
        momentum_bufferOutQueue.EnQue(momentum_bufferNew);
        paramQueue.FreeTensor(param);
        gradQueue.FreeTensor(grad);
        momentum_bufferQueue.FreeTensor(momentum_buffer);
    }

    // the updated values go back to the slices they were read from
    __aicore__ inline void CopyOut(uint32_t pos, uint32_t n)
    {
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        LocalTensor<float> paramNew = paramOutQueue.DeQue<float>();
        LocalTensor<float> momentum_bufferNew = momentum_bufferOutQueue.DeQue<float>();
        DataCopyPad(paramGm[pos], paramNew, params);
        DataCopyPad(momentum_bufferGm[pos], momentum_bufferNew, params);
        paramOutQueue.FreeTensor(paramNew);
        momentum_bufferOutQueue.FreeTensor(momentum_bufferNew);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> paramQueue;
    TQue<TPosition::VECIN, 1> gradQueue;
    TQue<TPosition::VECIN, 1> momentum_bufferQueue;
    TQue<TPosition::VECOUT, 1> paramOutQueue;
    TQue<TPosition::VECOUT, 1> momentum_bufferOutQueue;
    GlobalTensor<float> paramGm;
    GlobalTensor<float> gradGm;
    GlobalTensor<float> momentum_bufferGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
    float lr = 0.0f;
    float momentum = 0.0f;
    float weightDecay = 0.0f;
};

extern "C" __global__ __aicore__ void sgd_momentum_custom(GM_ADDR param, GM_ADDR grad, GM_ADDR momentum_buffer,
                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelSgdMomentum op;
    op.Init(param, grad, momentum_buffer, tilingData);
    op.Process();
}
