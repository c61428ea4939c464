// maximum_compare_select.cpp
// z = where(x >= y, x, y) for fp16 — the element-wise maximum built from Compare + Select,
// the way it is written when NaN propagation from x must be kept (plain Max would not).
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t COMPARE_ALIGN_ELEMS = 256 / sizeof(half); // Compare works on 256B multiples

class KernelMaximum {
public:
    __aicore__ inline KernelMaximum() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t blockLength, uint32_t tileLength)
    {
        // tileLength is a multiple of 128 halves; blockLength is a multiple of tileLength
        this->blockLength = blockLength;
        this->tileLength = tileLength;
        const uint64_t offset = static_cast<uint64_t>(GetBlockIdx()) * blockLength;

        xGm.SetGlobalBuffer((__gm__ half *)x + offset, blockLength);
        yGm.SetGlobalBuffer((__gm__ half *)y + offset, blockLength);
        zGm.SetGlobalBuffer((__gm__ half *)z + offset, blockLength);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(half));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(half));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(half));
        pipe.InitBuffer(selMaskBuf, tileLength / 8 * sizeof(uint8_t));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = blockLength / tileLength;
        for (uint32_t i = 0; i < tiles; i++) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i)
    {
        LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        LocalTensor<half> yLocal = inQueueY.AllocTensor<half>();
        DataCopy(xLocal, xGm[i * tileLength], tileLength);
        DataCopy(yLocal, yGm[i * tileLength], tileLength);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        LocalTensor<half> yLocal = inQueueY.DeQue<half>();
        LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
        LocalTensor<uint8_t> selMask = selMaskBuf.Get<uint8_t>();

        // mask bit = (x < y): take y there and x everywhere else, so a NaN in x survives
        Compare(selMask, xLocal, yLocal, CMPMODE::LT, tileLength);
        Select(zLocal, selMask, yLocal, xLocal, SELMODE::VSEL_TENSOR_TENSOR_MODE, tileLength);

        outQueueZ.EnQue<half>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t i)
    {
        LocalTensor<half> zLocal = outQueueZ.DeQue<half>();
        DataCopy(zGm[i * tileLength], zLocal, tileLength);
        outQueueZ.FreeTensor(zLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueZ;
    TBuf<TPosition::VECCALC> selMaskBuf;
    GlobalTensor<half> xGm, yGm, zGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void maximum_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelMaximum op;
    op.Init(x, y, z, tilingData.blockLength, tilingData.tileLength);
    op.Process();
}
