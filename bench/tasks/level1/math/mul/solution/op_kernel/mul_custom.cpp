/**
 * @file mul_custom.cpp
 * @brief MulCustom kernel: y = x1 * x2 for fp16 / fp32 / int32.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
} // namespace

template <typename T>
class KernelMul {
public:
    __aicore__ inline KernelMul() {}

    __aicore__ inline void Init(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, const MulCustomTilingData &td)
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

        x1Gm.SetGlobalBuffer((__gm__ T *)x1 + coreStart, coreLength);
        x2Gm.SetGlobalBuffer((__gm__ T *)x2 + coreStart, coreLength);
        yGm.SetGlobalBuffer((__gm__ T *)y + coreStart, coreLength);
        pipe.InitBuffer(x1Queue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(x2Queue, BUFFER_NUM, tileLength * sizeof(T));
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
        LocalTensor<T> x1Local = x1Queue.template AllocTensor<T>();
        LocalTensor<T> x2Local = x2Queue.template AllocTensor<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(x1Local, x1Gm[pos], params, pad);
        DataCopyPad(x2Local, x2Gm[pos], params, pad);
        x1Queue.EnQue(x1Local);
        x2Queue.EnQue(x2Local);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<T> x1Local = x1Queue.template DeQue<T>();
        LocalTensor<T> x2Local = x2Queue.template DeQue<T>();
        LocalTensor<T> yLocal = yQueue.template AllocTensor<T>();
        Calc(yLocal, x1Local, x2Local, n);
        yQueue.EnQue(yLocal);
        x1Queue.FreeTensor(x1Local);
        x2Queue.FreeTensor(x2Local);
    }

    // y from the inputs over n elements; the inputs are scratch and may be overwritten
    __aicore__ inline void Calc(const LocalTensor<T> &y,
                                const LocalTensor<T> &x1,
                                const LocalTensor<T> &x2,
                                uint32_t n)
    {
        Mul(y, x1, x2, n);
    }

    __aicore__ inline void CopyOut(uint32_t pos, uint32_t n)
    {
        LocalTensor<T> yLocal = yQueue.template DeQue<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[pos], yLocal, params);
        yQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> x1Queue;
    TQue<TPosition::VECIN, 1> x2Queue;
    TQue<TPosition::VECOUT, 1> yQueue;
    GlobalTensor<T> x1Gm;
    GlobalTensor<T> x2Gm;
    GlobalTensor<T> yGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void mul_custom(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelMul<DTYPE_X1> op;
    op.Init(x1, x2, y, tilingData);
    op.Process();
}
