/**
 * @file where_custom.cpp
 * @brief WhereCustom kernel: y = condition ? x1 : x2, condition a bool tensor, x1 / x2 fp16 or fp32.
 *
 * Select wants a bit mask, the condition comes as bytes: the bytes become halves (Cast), and comparing them
 * with zero (Compare, whole 256-byte repeats, hence the zero padding) gives the mask.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t COND_REPEAT = 128;   // halves per 256-byte Compare repeat
} // namespace

template <typename T>
class KernelWhere {
public:
    __aicore__ inline KernelWhere() {}

    __aicore__ inline void Init(GM_ADDR condition, GM_ADDR x1, GM_ADDR x2, GM_ADDR y, const WhereCustomTilingData &td)
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
        if (start >= td.totalLength) {
            coreLength = 0;
        } else {
            coreLength = (td.totalLength - start) < share ? static_cast<uint32_t>(td.totalLength - start) : share;
        }
        tileLength = td.tileLength;

        condGm.SetGlobalBuffer((__gm__ uint8_t *)condition + start, coreLength);
        x1Gm.SetGlobalBuffer((__gm__ T *)x1 + start, coreLength);
        x2Gm.SetGlobalBuffer((__gm__ T *)x2 + start, coreLength);
        yGm.SetGlobalBuffer((__gm__ T *)y + start, coreLength);
        pipe.InitBuffer(condQueue, BUFFER_NUM, tileLength * sizeof(uint8_t));
        pipe.InitBuffer(x1Queue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(x2Queue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(yQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(condHalfBuf, tileLength * sizeof(half));
        pipe.InitBuffer(zerosBuf, tileLength * sizeof(half));
        pipe.InitBuffer(maskBuf, tileLength / 8);
    }

    __aicore__ inline void Process()
    {
        if (coreLength == 0) {
            return;
        }
        Duplicate(zerosBuf.Get<half>(), static_cast<half>(0.0f), tileLength);
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
        LocalTensor<uint8_t> condLocal = condQueue.AllocTensor<uint8_t>();
        LocalTensor<T> x1Local = x1Queue.template AllocTensor<T>();
        LocalTensor<T> x2Local = x2Queue.template AllocTensor<T>();
        // the condition's last 32-byte block is padded with false, so its Cast reads defined bytes
        const uint8_t condPad = static_cast<uint8_t>((n + BLOCK_BYTES - 1) / BLOCK_BYTES * BLOCK_BYTES - n);
        DataCopyPad(condLocal, condGm[pos], DataCopyExtParams{1, n, 0, 0, 0},
                    DataCopyPadExtParams<uint8_t>{true, 0, condPad, 0});
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(x1Local, x1Gm[pos], params, pad);
        DataCopyPad(x2Local, x2Gm[pos], params, pad);
        condQueue.EnQue(condLocal);
        x1Queue.EnQue(x1Local);
        x2Queue.EnQue(x2Local);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<uint8_t> condLocal = condQueue.DeQue<uint8_t>();
        LocalTensor<T> x1Local = x1Queue.template DeQue<T>();
        LocalTensor<T> x2Local = x2Queue.template DeQue<T>();
        LocalTensor<T> yLocal = yQueue.template AllocTensor<T>();
        LocalTensor<half> condHalf = condHalfBuf.Get<half>();
        LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();

        const uint32_t padded = (n + BLOCK_BYTES - 1) / BLOCK_BYTES * BLOCK_BYTES;
        const uint32_t whole = (n + COND_REPEAT - 1) / COND_REPEAT * COND_REPEAT;
        Cast(condHalf, condLocal, RoundMode::CAST_NONE, padded);
        if (whole > padded) {
            Duplicate(condHalf[padded], static_cast<half>(0.0f), whole - padded);
        }
        Compare(mask, condHalf, zerosBuf.Get<half>(), CMPMODE::NE, whole);
        Select(yLocal, mask, x1Local, x2Local, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);

        yQueue.EnQue(yLocal);
        condQueue.FreeTensor(condLocal);
        x1Queue.FreeTensor(x1Local);
        x2Queue.FreeTensor(x2Local);
    }

    __aicore__ inline void CopyOut(uint32_t pos, uint32_t n)
    {
        LocalTensor<T> yLocal = yQueue.template DeQue<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm[pos], yLocal, params);
        yQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> condQueue;
    TQue<TPosition::VECIN, 1> x1Queue;
    TQue<TPosition::VECIN, 1> x2Queue;
    TQue<TPosition::VECOUT, 1> yQueue;
    TBuf<TPosition::VECCALC> condHalfBuf;
    TBuf<TPosition::VECCALC> zerosBuf;
    TBuf<TPosition::VECCALC> maskBuf;
    GlobalTensor<uint8_t> condGm;
    GlobalTensor<T> x1Gm;
    GlobalTensor<T> x2Gm;
    GlobalTensor<T> yGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void where_custom(GM_ADDR condition, GM_ADDR x1, GM_ADDR x2, GM_ADDR y,
                                                   GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelWhere<DTYPE_X1> op;
    op.Init(condition, x1, x2, y, tilingData);
    op.Process();
}
