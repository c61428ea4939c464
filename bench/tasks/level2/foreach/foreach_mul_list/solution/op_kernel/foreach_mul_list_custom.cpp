/**
 * @file foreach_mul_list_custom.cpp
 * @brief ForeachMulListCustom kernel: y_i = a_i * b_i for two lists of three tensors, in fp32.
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
class KernelForeachMulList {
    static constexpr bool IS_FLOAT = std::is_same<T, float>::value;

public:
    __aicore__ inline KernelForeachMulList() {}

    __aicore__ inline void Run(GM_ADDR a0, GM_ADDR a1, GM_ADDR a2, GM_ADDR b0, GM_ADDR b1, GM_ADDR b2, GM_ADDR y0,
                               GM_ADDR y1, GM_ADDR y2, const ForeachMulListCustomTilingData &td)
    {
        tileLength = td.tileLength;
        pipe.InitBuffer(aQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(bQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(yQueue, BUFFER_NUM, tileLength * sizeof(T));
        if constexpr (!IS_FLOAT) {
            pipe.InitBuffer(aFloatBuf, tileLength * sizeof(float));
            pipe.InitBuffer(bFloatBuf, tileLength * sizeof(float));
            pipe.InitBuffer(yFloatBuf, tileLength * sizeof(float));
        }

        ProcessTensor(a0, b0, y0, td, 0);
        ProcessTensor(a1, b1, y1, td, 1);
        ProcessTensor(a2, b2, y2, td, 2);
    }

private:
    // tensor `which` of the list: this core's share of it, tile by tile
    __aicore__ inline void ProcessTensor(GM_ADDR a, GM_ADDR b, GM_ADDR y,
                                         const ForeachMulListCustomTilingData &td, uint32_t which)
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
        aGm.SetGlobalBuffer((__gm__ T *)a + coreStart, coreLength);
        bGm.SetGlobalBuffer((__gm__ T *)b + coreStart, coreLength);
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
        LocalTensor<T> aLocal = aQueue.template AllocTensor<T>();
        LocalTensor<T> bLocal = bQueue.template AllocTensor<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(aLocal, aGm[pos], params, pad);
        DataCopyPad(bLocal, bGm[pos], params, pad);
        aQueue.EnQue(aLocal);
        bQueue.EnQue(bLocal);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<T> aLocal = aQueue.template DeQue<T>();
        LocalTensor<T> bLocal = bQueue.template DeQue<T>();
        LocalTensor<T> yLocal = yQueue.template AllocTensor<T>();
        if constexpr (IS_FLOAT) {
            Calc(yLocal, aLocal, bLocal, n);
        } else {
            LocalTensor<float> aF = aFloatBuf.Get<float>();
            LocalTensor<float> bF = bFloatBuf.Get<float>();
            LocalTensor<float> yF = yFloatBuf.Get<float>();
            Cast(aF, aLocal, RoundMode::CAST_NONE, n);
            Cast(bF, bLocal, RoundMode::CAST_NONE, n);
            Calc(yF, aF, bF, n);
            Cast(yLocal, yF, RoundMode::CAST_RINT, n);
        }
        yQueue.EnQue(yLocal);
        aQueue.FreeTensor(aLocal);
        bQueue.FreeTensor(bLocal);
    }

    // y from the inputs over n elements; the inputs are scratch
    __aicore__ inline void Calc(const LocalTensor<float> &y, const LocalTensor<float> &a, const LocalTensor<float> &b,
                                uint32_t n)
    {
        Mul(y, a, b, n);
    }

    __aicore__ inline void CopyOut(uint32_t pos, uint32_t n)
    {
        LocalTensor<T> yLocal = yQueue.template DeQue<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[pos], yLocal, params);
        yQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> aQueue;
    TQue<TPosition::VECIN, 1> bQueue;
    TQue<TPosition::VECOUT, 1> yQueue;
    TBuf<TPosition::VECCALC> aFloatBuf;
    TBuf<TPosition::VECCALC> bFloatBuf;
    TBuf<TPosition::VECCALC> yFloatBuf;
    GlobalTensor<T> aGm;
    GlobalTensor<T> bGm;
    GlobalTensor<T> yGm;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void foreach_mul_list_custom(GM_ADDR a0, GM_ADDR a1, GM_ADDR a2, GM_ADDR b0,
                                                              GM_ADDR b1, GM_ADDR b2, GM_ADDR y0, GM_ADDR y1,
                                                              GM_ADDR y2, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelForeachMulList<DTYPE_A0> op;
    op.Run(a0, a1, a2, b0, b1, b2, y0, y1, y2, tilingData);
}
