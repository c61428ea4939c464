/*
 * hypot_sqrt.cpp
 * z = sqrt(x * x + y * y), fp32.
 *
 * GM <-> UB moves use the DataCopyParams form (block counts in 32-byte units), which is what the
 * older samples used before DataCopyPad became the norm. Tile lengths are multiples of 8 floats.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t FLOATS_PER_BLOCK = BLOCK_SIZE / sizeof(float);

class KernelHypot {
public:
    __aicore__ inline KernelHypot() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t blockLength, uint32_t tileLength)
    {
        this->blockLength = blockLength;
        this->tileLength = tileLength;
        this->tileNum = blockLength / tileLength;
        this->tailLength = blockLength % tileLength;

        uint64_t start = static_cast<uint64_t>(GetBlockIdx()) * blockLength;
        xGm.SetGlobalBuffer((__gm__ float *)x + start, blockLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + start, blockLength);
        zGm.SetGlobalBuffer((__gm__ float *)z + start, blockLength);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(squareBuf, tileLength * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tileNum; i++) {
            Step(i * tileLength, tileLength);
        }
        if (tailLength != 0) {
            Step(tileNum * tileLength, tailLength);
        }
    }

private:
    __aicore__ inline void Step(uint32_t offset, uint32_t len)
    {
        CopyIn(offset, len);
        Compute(len);
        CopyOut(offset, len);
    }

    __aicore__ inline DataCopyParams MakeParams(uint32_t len) const
    {
        DataCopyParams params;
        params.blockCount = 1;
        params.blockLen = static_cast<uint16_t>(len / FLOATS_PER_BLOCK);
        params.srcStride = 0;
        params.dstStride = 0;
        return params;
    }

    __aicore__ inline void CopyIn(uint32_t offset, uint32_t len)
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
        const DataCopyParams params = MakeParams(len);
        DataCopy(xLocal, xGm[offset], params);
        DataCopy(yLocal, yGm[offset], params);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> yLocal = inQueueY.DeQue<float>();
        LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
        LocalTensor<float> ySquare = squareBuf.Get<float>();

        Mul(zLocal, xLocal, xLocal, len);
        Mul(ySquare, yLocal, yLocal, len);
        Add(zLocal, zLocal, ySquare, len);
        Sqrt(zLocal, zLocal, len);

        outQueueZ.EnQue(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t len)
    {
        LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
        DataCopy(zGm[offset], zLocal, MakeParams(len));
        outQueueZ.FreeTensor(zLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueY;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueZ;
    TBuf<TPosition::VECCALC> squareBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    GlobalTensor<float> zGm;
    uint32_t blockLength;
    uint32_t tileLength;
    uint32_t tileNum;
    uint32_t tailLength;
};

extern "C" __global__ __aicore__ void hypot_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelHypot op;
    op.Init(x, y, z, tilingData.blockLength, tilingData.tileLength);
    op.Process();
}
