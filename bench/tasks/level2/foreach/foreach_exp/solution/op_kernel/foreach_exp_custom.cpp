/**
 * @file foreach_exp_custom.cpp
 * @brief ForeachExpCustom kernel: y_i = exp(x_i) for a list of three tensors, in fp32.
 *
 * The three tensors are handled one after another, each split over all the cores in 32-byte blocks (its own
 * share and remainder), through the same double-buffered queues.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
} // namespace

template <typename T>
class KernelForeachExp {
    static constexpr bool IS_FLOAT = std::is_same<T, float>::value;

public:
    __aicore__ inline KernelForeachExp() {}

    __aicore__ inline void Run(GM_ADDR x0, GM_ADDR x1, GM_ADDR x2, GM_ADDR y0, GM_ADDR y1, GM_ADDR y2,
                               const ForeachExpCustomTilingData &td)
    {
        tileLength = td.tileLength;
        pipe.InitBuffer(xQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(yQueue, BUFFER_NUM, tileLength * sizeof(T));
        if constexpr (!IS_FLOAT) {
            pipe.InitBuffer(xFloatBuf, tileLength * sizeof(float));
            pipe.InitBuffer(yFloatBuf, tileLength * sizeof(float));
        }

        ProcessTensor(x0, y0, td, 0);
        ProcessTensor(x1, y1, td, 1);
        ProcessTensor(x2, y2, td, 2);
    }

private:
    // tensor `which` of the list: this core's share of it, tile by tile
    __aicore__ inline void ProcessTensor(GM_ADDR x, GM_ADDR y,
                                         const ForeachExpCustomTilingData &td, uint32_t which)
    {
        const uint32_t blockIdx = GetBlockIdx();
        const uint32_t totalLength = td.totalLength[which];
        const uint32_t formerNum = td.formerNum[which];
        const uint32_t formerLength = td.formerLength[which];
        const uint32_t tailLength = td.tailLength[which];
        uint64_t coreStart = 0;
        uint32_t coreShare = 0;
        if (blockIdx < formerNum) {
            coreShare = formerLength;
            coreStart = static_cast<uint64_t>(formerLength) * blockIdx;
        } else {
            coreShare = tailLength;
            coreStart = static_cast<uint64_t>(formerLength) * formerNum +
                        static_cast<uint64_t>(tailLength) * (blockIdx - formerNum);
        }
        uint32_t coreLength = 0;
        if (coreStart < totalLength) {
            const uint64_t rest = totalLength - coreStart;
            coreLength = rest < coreShare ? static_cast<uint32_t>(rest) : coreShare;
        }
        if (coreLength == 0) {
            return;
        }
        xGm.SetGlobalBuffer((__gm__ T *)x + coreStart, coreLength);
        yGm.SetGlobalBuffer((__gm__ T *)y + coreStart, coreLength);
        for (uint32_t pos = 0; pos < coreLength; pos += tileLength) {
            const uint32_t n = (coreLength - pos) < tileLength ? (coreLength - pos) : tileLength;
            CopyIn(pos, n);
            Compute(n);
            CopyOut(pos, n);
        }
    }

    __aicore__ inline void CopyIn(uint32_t pos, uint32_t n)
    {
        LocalTensor<T> xLocal = xQueue.template AllocTensor<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(xLocal, xGm[pos], params, pad);
        xQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<T> xLocal = xQueue.template DeQue<T>();
        LocalTensor<T> yLocal = yQueue.template AllocTensor<T>();
        if constexpr (IS_FLOAT) {
            Calc(yLocal, xLocal, n);
        } else {
            LocalTensor<float> xF = xFloatBuf.Get<float>();
            LocalTensor<float> yF = yFloatBuf.Get<float>();
            Cast(xF, xLocal, RoundMode::CAST_NONE, n);
            Calc(yF, xF, n);
            Cast(yLocal, yF, RoundMode::CAST_RINT, n);
        }
        yQueue.EnQue(yLocal);
        xQueue.FreeTensor(xLocal);
    }

    // y from the inputs over n elements; the inputs are scratch
    __aicore__ inline void Calc(const LocalTensor<float> &y, const LocalTensor<float> &x,
                                uint32_t n)
    {
        Exp(y, x, n);
    }

    __aicore__ inline void CopyOut(uint32_t pos, uint32_t n)
    {
        LocalTensor<T> yLocal = yQueue.template DeQue<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[pos], yLocal, params);
        yQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> xQueue;
    TQue<TPosition::VECOUT, 1> yQueue;
    TBuf<TPosition::VECCALC> xFloatBuf;
    TBuf<TPosition::VECCALC> yFloatBuf;
    GlobalTensor<T> xGm;
    GlobalTensor<T> yGm;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void foreach_exp_custom(GM_ADDR x0, GM_ADDR x1, GM_ADDR x2, GM_ADDR y0, GM_ADDR y1,
                                                         GM_ADDR y2, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelForeachExp<DTYPE_X0> op;
    op.Run(x0, x1, x2, y0, y1, y2, tilingData);
}
