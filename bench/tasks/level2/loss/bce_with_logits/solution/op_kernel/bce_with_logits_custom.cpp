/**
 * @file bce_with_logits_custom.cpp
 * @brief BceWithLogitsCustom kernel: loss = max(x, 0) - x t + ln(1 + exp(-|x|)) (the overflow-free form), in fp32.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
} // namespace

template <typename T>
class KernelBceWithLogits {
    static constexpr bool IS_FLOAT = std::is_same<T, float>::value;

public:
    __aicore__ inline KernelBceWithLogits() {}

    __aicore__ inline void Init(GM_ADDR logits, GM_ADDR target, GM_ADDR loss, const BceWithLogitsCustomTilingData &td)
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
        // shares are whole 32-byte blocks, so the last core stops at the end of the tensor
        if (coreStart >= td.totalLength) {
            coreLength = 0;
        } else {
            const uint64_t rest = td.totalLength - coreStart;
            coreLength = rest < coreShare ? static_cast<uint32_t>(rest) : coreShare;
        }
        tileLength = td.tileLength;

        logitsGm.SetGlobalBuffer((__gm__ T *)logits + coreStart, coreLength);
        targetGm.SetGlobalBuffer((__gm__ T *)target + coreStart, coreLength);
        lossGm.SetGlobalBuffer((__gm__ T *)loss + coreStart, coreLength);
        pipe.InitBuffer(logitsQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(targetQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(lossQueue, BUFFER_NUM, tileLength * sizeof(T));
        if constexpr (!IS_FLOAT) {
            pipe.InitBuffer(logitsFloatBuf, tileLength * sizeof(float));
            pipe.InitBuffer(targetFloatBuf, tileLength * sizeof(float));
            pipe.InitBuffer(lossFloatBuf, tileLength * sizeof(float));
        }
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
        LocalTensor<T> logitsLocal = logitsQueue.template AllocTensor<T>();
        LocalTensor<T> targetLocal = targetQueue.template AllocTensor<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(logitsLocal, logitsGm[pos], params, pad);
        DataCopyPad(targetLocal, targetGm[pos], params, pad);
        logitsQueue.EnQue(logitsLocal);
        targetQueue.EnQue(targetLocal);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<T> logitsLocal = logitsQueue.template DeQue<T>();
        LocalTensor<T> targetLocal = targetQueue.template DeQue<T>();
        LocalTensor<T> lossLocal = lossQueue.template AllocTensor<T>();
        if constexpr (IS_FLOAT) {
            Calc(lossLocal, logitsLocal, targetLocal, n);
        } else {
            LocalTensor<float> logitsF = logitsFloatBuf.Get<float>();
            LocalTensor<float> targetF = targetFloatBuf.Get<float>();
            LocalTensor<float> lossF = lossFloatBuf.Get<float>();
            Cast(logitsF, logitsLocal, RoundMode::CAST_NONE, n);
            Cast(targetF, targetLocal, RoundMode::CAST_NONE, n);
            Calc(lossF, logitsF, targetF, n);
            Cast(lossLocal, lossF, RoundMode::CAST_RINT, n);
        }
        lossQueue.EnQue(lossLocal);
        logitsQueue.FreeTensor(logitsLocal);
        targetQueue.FreeTensor(targetLocal);
    }

    // loss from the inputs over n elements; the inputs are scratch and may be overwritten
    __aicore__ inline void Calc(const LocalTensor<float> &loss,
                                const LocalTensor<float> &logits,
                                const LocalTensor<float> &target,
                                uint32_t n)
    {
        Abs(loss, logits, n);
        Muls(loss, loss, -1.0f, n);
        Exp(loss, loss, n);
        Adds(loss, loss, 1.0f, n);
        Ln(loss, loss, n);                     // ln(1 + exp(-|x|))
        Mul(target, target, logits, n);
        Sub(loss, loss, target, n);
        Relu(logits, logits, n);
        Add(loss, loss, logits, n);
    }

    __aicore__ inline void CopyOut(uint32_t pos, uint32_t n)
    {
        LocalTensor<T> lossLocal = lossQueue.template DeQue<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(lossGm[pos], lossLocal, params);
        lossQueue.FreeTensor(lossLocal);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> logitsQueue;
    TQue<TPosition::VECIN, 1> targetQueue;
    TQue<TPosition::VECOUT, 1> lossQueue;
    TBuf<TPosition::VECCALC> logitsFloatBuf;
    TBuf<TPosition::VECCALC> targetFloatBuf;
    TBuf<TPosition::VECCALC> lossFloatBuf;
    GlobalTensor<T> logitsGm;
    GlobalTensor<T> targetGm;
    GlobalTensor<T> lossGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void bce_with_logits_custom(GM_ADDR logits, GM_ADDR target, GM_ADDR loss,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelBceWithLogits<DTYPE_LOGITS> op;
    op.Init(logits, target, loss, tilingData);
    op.Process();
}
