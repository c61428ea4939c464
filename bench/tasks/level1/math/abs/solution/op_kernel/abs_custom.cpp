/**
 * @file abs_custom.cpp
 * @brief AbsCustom kernel: y = |x| for fp16 / fp32.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
} // namespace

template <typename T>
class KernelAbs {
public:
    __aicore__ inline KernelAbs() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const AbsCustomTilingData &td)
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

        xGm.SetGlobalBuffer((__gm__ T *)x + coreStart, coreLength);
        yGm.SetGlobalBuffer((__gm__ T *)y + coreStart, coreLength);
        pipe.InitBuffer(xQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(yQueue, BUFFER_NUM, tileLength * sizeof(T));
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
        Calc(yLocal, xLocal, n);
        yQueue.EnQue(yLocal);
        xQueue.FreeTensor(xLocal);
    }

    // y from the inputs over n elements; the inputs are scratch and may be overwritten
    __aicore__ inline void Calc(const LocalTensor<T> &y, const LocalTensor<T> &x, uint32_t n)
    {
        Abs(y, x, n);
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
    GlobalTensor<T> xGm;
    GlobalTensor<T> yGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void abs_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelAbs<DTYPE_X> op;
    op.Init(x, y, tilingData);
    op.Process();
}
