/**
 * @file kl_div_custom.cpp
 * @brief KlDivCustom kernel: loss = target * (ln(target) - input), target > 0, in fp32.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
} // namespace

template <typename T>
class KernelKlDiv {
    static constexpr bool IS_FLOAT = std::is_same<T, float>::value;

public:
    __aicore__ inline KernelKlDiv() {}

    __aicore__ inline void Init(GM_ADDR input, GM_ADDR target, GM_ADDR loss, const KlDivCustomTilingData &td)
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

        inputGm.SetGlobalBuffer((__gm__ T *)input + coreStart, coreLength);
        targetGm.SetGlobalBuffer((__gm__ T *)target + coreStart, coreLength);
        lossGm.SetGlobalBuffer((__gm__ T *)loss + coreStart, coreLength);
        pipe.InitBuffer(inputQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(targetQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(lossQueue, BUFFER_NUM, tileLength * sizeof(T));
        if constexpr (!IS_FLOAT) {
            pipe.InitBuffer(inputFloatBuf, tileLength * sizeof(float));
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
        LocalTensor<T> inputLocal = inputQueue.template AllocTensor<T>();
        LocalTensor<T> targetLocal = targetQueue.template AllocTensor<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(inputLocal, inputGm[pos], params, pad);
        DataCopyPad(targetLocal, targetGm[pos], params, pad);
        inputQueue.EnQue(inputLocal);
        targetQueue.EnQue(targetLocal);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<T> inputLocal = inputQueue.template DeQue<T>();
        LocalTensor<T> targetLocal = targetQueue.template DeQue<T>();
        LocalTensor<T> lossLocal = lossQueue.template AllocTensor<T>();
        if constexpr (IS_FLOAT) {
            Calc(lossLocal, inputLocal, targetLocal, n);
        } else {
            LocalTensor<float> inputF = inputFloatBuf.Get<float>();
            LocalTensor<float> targetF = targetFloatBuf.Get<float>();
            LocalTensor<float> lossF = lossFloatBuf.Get<float>();
            Cast(inputF, inputLocal, RoundMode::CAST_NONE, n);
            Cast(targetF, targetLocal, RoundMode::CAST_NONE, n);
            Calc(lossF, inputF, targetF, n);
            Cast(lossLocal, lossF, RoundMode::CAST_RINT, n);
        }
        lossQueue.EnQue(lossLocal);
        inputQueue.FreeTensor(inputLocal);
        targetQueue.FreeTensor(targetLocal);
    }

    // loss from the inputs over n elements; the inputs are scratch and may be overwritten
    __aicore__ inline void Calc(const LocalTensor<float> &loss,
                                const LocalTensor<float> &input,
                                const LocalTensor<float> &target,
                                uint32_t n)
    {
        Ln(loss, target, n);
        Sub(loss, loss, input, n);
        Mul(loss, loss, target, n);
    }

    __aicore__ inline void CopyOut(uint32_t pos, uint32_t n)
    {
        LocalTensor<T> lossLocal = lossQueue.template DeQue<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(lossGm[pos], lossLocal, params);
        lossQueue.FreeTensor(lossLocal);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> inputQueue;
    TQue<TPosition::VECIN, 1> targetQueue;
    TQue<TPosition::VECOUT, 1> lossQueue;
    TBuf<TPosition::VECCALC> inputFloatBuf;
    TBuf<TPosition::VECCALC> targetFloatBuf;
    TBuf<TPosition::VECCALC> lossFloatBuf;
    GlobalTensor<T> inputGm;
    GlobalTensor<T> targetGm;
    GlobalTensor<T> lossGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void kl_div_custom(GM_ADDR input, GM_ADDR target, GM_ADDR loss,
                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelKlDiv<DTYPE_INPUT> op;
    op.Init(input, target, loss, tilingData);
    op.Process();
}
