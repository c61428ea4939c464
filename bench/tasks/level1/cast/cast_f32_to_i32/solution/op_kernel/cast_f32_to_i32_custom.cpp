/**
 * @file cast_f32_to_i32_custom.cpp
 * @brief CastF32ToI32Custom kernel: y = int32(x), fp32 to int32 truncating towards zero.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
} // namespace

template <typename TIn, typename TOut>
class KernelCastF32ToI32 {
public:
    __aicore__ inline KernelCastF32ToI32() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const CastF32ToI32CustomTilingData &td)
    {
        const uint32_t idx = GetBlockIdx();
        uint64_t start = 0;
        uint32_t share = 0;
        if (idx < td.formerNum) {
            share = td.formerLength;
            start = static_cast<uint64_t>(td.formerLength) * idx;
        } else {
            share = td.tailLength;
            start = static_cast<uint64_t>(td.formerLength) * td.formerNum +
                    static_cast<uint64_t>(td.tailLength) * (idx - td.formerNum);
        }
        // shares are whole 32-element units, so the last core stops at the end of the tensor
        if (start >= td.totalLength) {
            coreLength = 0;
        } else {
            coreLength = (td.totalLength - start) < share ? static_cast<uint32_t>(td.totalLength - start) : share;
        }
        tileLength = td.tileLength;

        xGm.SetGlobalBuffer((__gm__ TIn *)x + start, coreLength);
        yGm.SetGlobalBuffer((__gm__ TOut *)y + start, coreLength);
        pipe.InitBuffer(xQueue, BUFFER_NUM, tileLength * sizeof(TIn));
        pipe.InitBuffer(yQueue, BUFFER_NUM, tileLength * sizeof(TOut));
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
        LocalTensor<TIn> xLocal = xQueue.template AllocTensor<TIn>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(TIn)), 0, 0, 0};
        DataCopyPadExtParams<TIn> pad{false, 0, 0, 0};
        DataCopyPad(xLocal, xGm[pos], params, pad);
        xQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<TIn> xLocal = xQueue.template DeQue<TIn>();
        LocalTensor<TOut> yLocal = yQueue.template AllocTensor<TOut>();
        Cast(yLocal, xLocal, RoundMode::CAST_TRUNC, n);
        yQueue.EnQue(yLocal);
        xQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t pos, uint32_t n)
    {
        LocalTensor<TOut> yLocal = yQueue.template DeQue<TOut>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(TOut)), 0, 0, 0};
        DataCopyPad(yGm[pos], yLocal, params);
        yQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> xQueue;
    TQue<TPosition::VECOUT, 1> yQueue;
    GlobalTensor<TIn> xGm;
    GlobalTensor<TOut> yGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void cast_f32_to_i32_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelCastF32ToI32<DTYPE_X, DTYPE_Y> op;
    op.Init(x, y, tilingData);
    op.Process();
}
