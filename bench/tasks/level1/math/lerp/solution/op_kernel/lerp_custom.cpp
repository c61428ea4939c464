/**
 * @file lerp_custom.cpp
 * @brief LerpCustom kernel: y = start + weight * (end - start) for fp16 / fp32, computed in fp32.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
} // namespace

template <typename T>
class KernelLerp {
    static constexpr bool IS_FLOAT = std::is_same<T, float>::value;

public:
    __aicore__ inline KernelLerp() {}

    __aicore__ inline void Init(GM_ADDR start, GM_ADDR end, GM_ADDR y, const LerpCustomTilingData &td)
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
        weight = td.weight;

        startGm.SetGlobalBuffer((__gm__ T *)start + coreStart, coreLength);
        endGm.SetGlobalBuffer((__gm__ T *)end + coreStart, coreLength);
        yGm.SetGlobalBuffer((__gm__ T *)y + coreStart, coreLength);
        pipe.InitBuffer(startQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(endQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(yQueue, BUFFER_NUM, tileLength * sizeof(T));
        if constexpr (!IS_FLOAT) {
            pipe.InitBuffer(startFloatBuf, tileLength * sizeof(float));
            pipe.InitBuffer(endFloatBuf, tileLength * sizeof(float));
            pipe.InitBuffer(yFloatBuf, tileLength * sizeof(float));
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
        LocalTensor<T> startLocal = startQueue.template AllocTensor<T>();
        LocalTensor<T> endLocal = endQueue.template AllocTensor<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(startLocal, startGm[pos], params, pad);
        DataCopyPad(endLocal, endGm[pos], params, pad);
        startQueue.EnQue(startLocal);
        endQueue.EnQue(endLocal);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<T> startLocal = startQueue.template DeQue<T>();
        LocalTensor<T> endLocal = endQueue.template DeQue<T>();
        LocalTensor<T> yLocal = yQueue.template AllocTensor<T>();
        if constexpr (IS_FLOAT) {
            Calc(yLocal, startLocal, endLocal, n);
        } else {
            LocalTensor<float> startF = startFloatBuf.Get<float>();
            LocalTensor<float> endF = endFloatBuf.Get<float>();
            LocalTensor<float> yF = yFloatBuf.Get<float>();
            Cast(startF, startLocal, RoundMode::CAST_NONE, n);
            Cast(endF, endLocal, RoundMode::CAST_NONE, n);
            Calc(yF, startF, endF, n);
            Cast(yLocal, yF, RoundMode::CAST_RINT, n);
        }
        yQueue.EnQue(yLocal);
        startQueue.FreeTensor(startLocal);
        endQueue.FreeTensor(endLocal);
    }

    // y from the inputs over n elements; the inputs are scratch and may be overwritten
    __aicore__ inline void Calc(const LocalTensor<float> &y,
                                const LocalTensor<float> &start,
                                const LocalTensor<float> &end,
                                uint32_t n)
    {
        Sub(end, end, start, n);
        Muls(end, end, weight, n);
        Add(y, start, end, n);
    }

    __aicore__ inline void CopyOut(uint32_t pos, uint32_t n)
    {
        LocalTensor<T> yLocal = yQueue.template DeQue<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[pos], yLocal, params);
        yQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> startQueue;
    TQue<TPosition::VECIN, 1> endQueue;
    TQue<TPosition::VECOUT, 1> yQueue;
    TBuf<TPosition::VECCALC> startFloatBuf;
    TBuf<TPosition::VECCALC> endFloatBuf;
    TBuf<TPosition::VECCALC> yFloatBuf;
    GlobalTensor<T> startGm;
    GlobalTensor<T> endGm;
    GlobalTensor<T> yGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
    float weight = 0.0f;
};

extern "C" __global__ __aicore__ void lerp_custom(GM_ADDR start, GM_ADDR end, GM_ADDR y,
                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelLerp<DTYPE_START> op;
    op.Init(start, end, y, tilingData);
    op.Process();
}
