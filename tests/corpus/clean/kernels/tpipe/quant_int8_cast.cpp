/**
 * @file quant_int8_cast.cpp
 * @brief Per-tensor quantisation: y = int8(rint(x * scale + offset)).
 *
 * x is fp32 or fp16 (DTYPE_X from the op project), y is int8 (DTYPE_Y). A2 has no direct
 * fp32 -> int8 conversion, so fp32 input goes through fp16 first; the final fp16 -> int8
 * Cast rounds to nearest-even and saturates.
 */
#include "kernel_operator.h"

using namespace AscendC;

static_assert(std::is_same<DTYPE_Y, int8_t>::value, "output must be int8");

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t ALIGN_ELEMS = 32; // int8 output needs 32-element multiples for a 32B block
} // namespace

template <typename XType, typename YType = int8_t>
class KernelQuant {
public:
    __aicore__ inline KernelQuant() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t blockLength, uint32_t tileLength, float scale,
                                float offset)
    {
        this->blockLength = blockLength;
        this->tileLength = tileLength; // multiple of ALIGN_ELEMS
        this->scale = scale;
        this->offset = offset;

        const uint64_t start = static_cast<uint64_t>(blockLength) * GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ XType *)x + start, blockLength);
        yGm.SetGlobalBuffer((__gm__ YType *)y + start, blockLength);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(XType));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(YType));
        pipe.InitBuffer(halfBuf, tileLength * sizeof(half));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = blockLength / tileLength;
        const uint32_t tail = blockLength - tiles * tileLength;
        for (uint32_t t = 0; t < tiles; ++t) {
            Run(t * tileLength, tileLength);
        }
        if (tail) {
            Run(tiles * tileLength, tail);
        }
    }

private:
    __aicore__ inline void Run(uint32_t pos, uint32_t len)
    {
        CopyIn(pos, len);
        Compute((len + ALIGN_ELEMS - 1) / ALIGN_ELEMS * ALIGN_ELEMS);
        CopyOut(pos, len);
    }

    __aicore__ inline void CopyIn(uint32_t pos, uint32_t len)
    {
        LocalTensor<XType> xLocal = inQueueX.template AllocTensor<XType>();
        DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(XType)), 0, 0, 0};
        DataCopyPadExtParams<XType> pad{false, 0, 0, static_cast<XType>(0)};
        DataCopyPad(xLocal, xGm[pos], params, pad);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t calLen)
    {
        LocalTensor<XType> xLocal = inQueueX.template DeQue<XType>();
        LocalTensor<YType> yLocal = outQueueY.template AllocTensor<YType>();
        LocalTensor<half> xHalf = halfBuf.Get<half>();

        if constexpr (std::is_same<XType, float>::value) {
            Muls(xLocal, xLocal, scale, calLen);
            Adds(xLocal, xLocal, offset, calLen);
            Cast<half, float>(xHalf, xLocal, RoundMode::CAST_NONE, calLen);
        } else {
            Muls(xHalf, xLocal, static_cast<half>(scale), calLen);
            Adds(xHalf, xHalf, static_cast<half>(offset), calLen);
        }
        Cast<int8_t, half>(yLocal, xHalf, RoundMode::CAST_RINT, calLen);

        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t pos, uint32_t len)
    {
        LocalTensor<YType> yLocal = outQueueY.template DeQue<YType>();
        DataCopyExtParams params{1, len, 0, 0, 0}; // int8: bytes == elements
        DataCopyPad(yGm[pos], yLocal, params);
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueY;
    TBuf<TPosition::VECCALC> halfBuf;
    GlobalTensor<XType> xGm;
    GlobalTensor<YType> yGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    float scale = 1.0f;
    float offset = 0.0f;
};

extern "C" __global__ __aicore__ void quantize_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelQuant<DTYPE_X> op;
    op.Init(x, y, tilingData.blockLength, tilingData.tileLength, tilingData.scale, tilingData.offset);
    op.Process();
}
