/**
 * @file linspace_custom.cpp
 * @brief LinspaceCustom kernel: y[i] = start + i * (end - start) / (steps - 1) for i in [0, steps), fp16 / fp32.
 *
 * start and end are one-element tensors read through the scalar unit. Each core builds the index vector of
 * its slice (CreateVecIndex), converts it to fp32 and scales it; fp16 is rounded once at the end.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
} // namespace

template <typename T>
class KernelLinspace {
    static constexpr bool IS_FLOAT = std::is_same<T, float>::value;

public:
    __aicore__ inline KernelLinspace() {}

    __aicore__ inline void Init(GM_ADDR start, GM_ADDR end, GM_ADDR y, const LinspaceCustomTilingData &td)
    {
        const uint32_t idx = GetBlockIdx();
        uint32_t share = 0;
        if (idx < td.formerNum) {
            share = td.formerLength;
            first = td.formerLength * idx;
        } else {
            share = td.tailLength;
            first = td.formerLength * td.formerNum + td.tailLength * (idx - td.formerNum);
        }
        if (first >= td.size) {
            coreLength = 0;
        } else {
            coreLength = (td.size - first) < share ? td.size - first : share;
        }
        tileLength = td.tileLength;
        invIntervals = td.invIntervals;

        startGm.SetGlobalBuffer((__gm__ T *)start, 1);
        endGm.SetGlobalBuffer((__gm__ T *)end, 1);
        yGm.SetGlobalBuffer((__gm__ T *)y + first, coreLength);
        pipe.InitBuffer(yQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(indexBuf, tileLength * sizeof(int32_t));
        if constexpr (!IS_FLOAT) {
            pipe.InitBuffer(floatBuf, tileLength * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        if (coreLength == 0) {
            return;
        }
        const float startValue = static_cast<float>(startGm.GetValue(0));
        const float stepValue = (static_cast<float>(endGm.GetValue(0)) - startValue) * invIntervals;
        for (uint32_t pos = 0; pos < coreLength; pos += tileLength) {
            const uint32_t n = (coreLength - pos) < tileLength ? (coreLength - pos) : tileLength;
            Compute(pos, n, startValue, stepValue);
            CopyOut(pos, n);
        }
    }

private:
    __aicore__ inline void Compute(uint32_t pos, uint32_t n, float startValue, float stepValue)
    {
        LocalTensor<T> yLocal = yQueue.template AllocTensor<T>();
        LocalTensor<int32_t> index = indexBuf.Get<int32_t>();
        CreateVecIndex(index, static_cast<int32_t>(first + pos), n);
        if constexpr (IS_FLOAT) {
            Cast(yLocal, index, RoundMode::CAST_RINT, n);
            Muls(yLocal, yLocal, stepValue, n);
            Adds(yLocal, yLocal, startValue, n);
        } else {
            LocalTensor<float> f = floatBuf.Get<float>();
            Cast(f, index, RoundMode::CAST_RINT, n);
            Muls(f, f, stepValue, n);
            Adds(f, f, startValue, n);
            Cast(yLocal, f, RoundMode::CAST_RINT, n);
        }
        yQueue.EnQue(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t pos, uint32_t n)
    {
        LocalTensor<T> yLocal = yQueue.template DeQue<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[pos], yLocal, params);
        yQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<TPosition::VECOUT, 1> yQueue;
    TBuf<TPosition::VECCALC> indexBuf;
    TBuf<TPosition::VECCALC> floatBuf;
    GlobalTensor<T> startGm;
    GlobalTensor<T> endGm;
    GlobalTensor<T> yGm;
    uint32_t first = 0;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
    float invIntervals = 0.0f;
};

extern "C" __global__ __aicore__ void linspace_custom(GM_ADDR start, GM_ADDR end, GM_ADDR y, GM_ADDR workspace,
                                                      GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelLinspace<DTYPE_START> op;
    op.Init(start, end, y, tilingData);
    op.Process();
}
