/**
 * @file less_custom.cpp
 * @brief LessCustom kernel: y = (y_i = (x1_i < x2_i)) as bool bytes, for fp16 / fp32 inputs.
 *
 * Compare writes one mask bit per element and needs whole 256-byte repeats, so each tile's inputs are padded
 * with zeros up to that length first; Select turns the bits into 1.0 / 0.0 halves and Cast into bytes.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t REPEAT_BYTES = 256;
} // namespace

template <typename T>
class KernelLess {
    static constexpr uint32_t BLOCK_ELEMS = BLOCK_BYTES / sizeof(T);
    static constexpr uint32_t REPEAT_ELEMS = REPEAT_BYTES / sizeof(T);

public:
    __aicore__ inline KernelLess() {}

    __aicore__ inline void Init(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, const LessCustomTilingData &td)
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

        x1Gm.SetGlobalBuffer((__gm__ T *)x1 + start, coreLength);
        x2Gm.SetGlobalBuffer((__gm__ T *)x2 + start, coreLength);
        yGm.SetGlobalBuffer((__gm__ uint8_t *)y + start, coreLength);
        pipe.InitBuffer(x1Queue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(x2Queue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(yQueue, BUFFER_NUM, tileLength * sizeof(uint8_t));
        pipe.InitBuffer(maskBuf, tileLength / 8);
        pipe.InitBuffer(onesBuf, tileLength * sizeof(half));
        pipe.InitBuffer(bitsBuf, tileLength * sizeof(half));
    }

    __aicore__ inline void Process()
    {
        if (coreLength == 0) {
            return;
        }
        Duplicate(onesBuf.Get<half>(), static_cast<half>(1.0f), tileLength);
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
        // zero the tail of the last 32-byte block, so Compare reads defined values
        const uint8_t rightPad = static_cast<uint8_t>((n + BLOCK_ELEMS - 1) / BLOCK_ELEMS * BLOCK_ELEMS - n);
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{true, 0, rightPad, static_cast<T>(0)};
        DataCopyPad(x1Local, x1Gm[pos], params, pad);
        DataCopyPad(x2Local, x2Gm[pos], params, pad);
        x1Queue.EnQue(x1Local);
        x2Queue.EnQue(x2Local);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<T> x1Local = x1Queue.template DeQue<T>();
        LocalTensor<T> x2Local = x2Queue.template DeQue<T>();
        LocalTensor<uint8_t> yLocal = yQueue.template AllocTensor<uint8_t>();
        LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
        LocalTensor<half> bits = bitsBuf.Get<half>();

        const uint32_t padded = (n + BLOCK_ELEMS - 1) / BLOCK_ELEMS * BLOCK_ELEMS;
        const uint32_t whole = (n + REPEAT_ELEMS - 1) / REPEAT_ELEMS * REPEAT_ELEMS;
        if (whole > padded) {
            Duplicate(x1Local[padded], static_cast<T>(0), whole - padded);
            Duplicate(x2Local[padded], static_cast<T>(0), whole - padded);
        }
        Compare(mask, x1Local, x2Local, CMPMODE::LT, whole);
        Select(bits, mask, onesBuf.Get<half>(), static_cast<half>(0.0f), SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
        Cast(yLocal, bits, RoundMode::CAST_NONE, n);

        yQueue.EnQue(yLocal);
        x1Queue.FreeTensor(x1Local);
        x2Queue.FreeTensor(x2Local);
    }

    __aicore__ inline void CopyOut(uint32_t pos, uint32_t n)
    {
        LocalTensor<uint8_t> yLocal = yQueue.template DeQue<uint8_t>();
        DataCopyExtParams params{1, n, 0, 0, 0};
        DataCopyPad(yGm[pos], yLocal, params);
        yQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> x1Queue;
    TQue<TPosition::VECIN, 1> x2Queue;
    TQue<TPosition::VECOUT, 1> yQueue;
    TBuf<TPosition::VECCALC> maskBuf;
    TBuf<TPosition::VECCALC> onesBuf;
    TBuf<TPosition::VECCALC> bitsBuf;
    GlobalTensor<T> x1Gm;
    GlobalTensor<T> x2Gm;
    GlobalTensor<uint8_t> yGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void less_custom(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, GM_ADDR workspace,
                                                  GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelLess<DTYPE_X1> op;
    op.Init(x1, x2, y, tilingData);
    op.Process();
}
