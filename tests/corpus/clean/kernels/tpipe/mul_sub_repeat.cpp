/**
 * @file mul_sub_repeat.cpp
 * @brief out = x * y - w (fp16) written with the level-0 repeat/mask API.
 *
 * One repeat covers 256 bytes (128 halves). Full repeats use a bit-mode mask with every lane
 * set; the last partial repeat of a tile uses a bit-mode mask with only the leftover lanes set.
 * repeatTime is a uint8_t, so long tiles are issued in chunks of at most 255 repeats.
 */
#include "kernel_operator.h"

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t REPEAT_BYTES = 256;
constexpr uint32_t ELEMS_PER_REPEAT = REPEAT_BYTES / sizeof(half); // 128
constexpr uint32_t MAX_REPEAT = 255;
constexpr uint8_t CONTIGUOUS_REP_STRIDE = 8; // 8 blocks of 32B between repeats
} // namespace

class KernelMulSub {
public:
    __aicore__ inline KernelMulSub() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR w, GM_ADDR out, uint32_t blockLength, uint32_t tileLength)
    {
        this->blockLength = blockLength;
        this->tileLength = tileLength;
        this->tileCount = (blockLength + tileLength - 1) / tileLength;
        this->lastTileLength = blockLength - (tileCount - 1) * tileLength;

        const uint64_t base = static_cast<uint64_t>(blockLength) * AscendC::GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ half *)x + base, blockLength);
        yGm.SetGlobalBuffer((__gm__ half *)y + base, blockLength);
        wGm.SetGlobalBuffer((__gm__ half *)w + base, blockLength);
        outGm.SetGlobalBuffer((__gm__ half *)out + base, blockLength);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(half));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(half));
        pipe.InitBuffer(inQueueW, BUFFER_NUM, tileLength * sizeof(half));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(half));
        pipe.InitBuffer(prodBuf, tileLength * sizeof(half));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tileCount; ++i) {
            const uint32_t len = (i == tileCount - 1) ? lastTileLength : tileLength;
            CopyIn(i, len);
            Compute(len);
            CopyOut(i, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t len)
    {
        AscendC::LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        AscendC::LocalTensor<half> yLocal = inQueueY.AllocTensor<half>();
        AscendC::LocalTensor<half> wLocal = inQueueW.AllocTensor<half>();
        // host guarantees len is a multiple of 16 halves (32 bytes)
        AscendC::DataCopy(xLocal, xGm[progress * tileLength], len);
        AscendC::DataCopy(yLocal, yGm[progress * tileLength], len);
        AscendC::DataCopy(wLocal, wGm[progress * tileLength], len);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
        inQueueW.EnQue(wLocal);
    }

    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        AscendC::LocalTensor<half> yLocal = inQueueY.DeQue<half>();
        AscendC::LocalTensor<half> wLocal = inQueueW.DeQue<half>();
        AscendC::LocalTensor<half> outLocal = outQueue.AllocTensor<half>();
        AscendC::LocalTensor<half> prod = prodBuf.Get<half>();

        uint64_t fullMask[2] = {0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL};
        AscendC::BinaryRepeatParams repeatParams(1, 1, 1, CONTIGUOUS_REP_STRIDE, CONTIGUOUS_REP_STRIDE,
                                                 CONTIGUOUS_REP_STRIDE);

        uint32_t remainRepeats = len / ELEMS_PER_REPEAT;
        uint32_t offset = 0;
        while (remainRepeats > 0) {
            const uint8_t repeat = static_cast<uint8_t>(remainRepeats > MAX_REPEAT ? MAX_REPEAT : remainRepeats);
            AscendC::Mul(prod[offset], xLocal[offset], yLocal[offset], fullMask, repeat, repeatParams);
            AscendC::Sub(outLocal[offset], prod[offset], wLocal[offset], fullMask, repeat, repeatParams);
            offset += static_cast<uint32_t>(repeat) * ELEMS_PER_REPEAT;
            remainRepeats -= repeat;
        }

        const uint32_t leftover = len % ELEMS_PER_REPEAT;
        if (leftover != 0) {
            // lanes 0..63 live in word 0, lanes 64..127 in word 1
            uint64_t tailMask[2] = {0, 0};
            if (leftover >= 64) {
                tailMask[0] = ~0ULL;
                tailMask[1] = (leftover == 64) ? 0ULL : ((1ULL << (leftover - 64)) - 1);
            } else {
                tailMask[0] = (1ULL << leftover) - 1;
            }
            AscendC::Mul(prod[offset], xLocal[offset], yLocal[offset], tailMask, 1, {1, 1, 1, 8, 8, 8});
            AscendC::Sub(outLocal[offset], prod[offset], wLocal[offset], tailMask, 1, {1, 1, 1, 8, 8, 8});
        }

        outQueue.EnQue<half>(outLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
        inQueueW.FreeTensor(wLocal);
    }

    __aicore__ inline void CopyOut(uint32_t progress, uint32_t len)
    {
        AscendC::LocalTensor<half> outLocal = outQueue.DeQue<half>();
        AscendC::DataCopy(outGm[progress * tileLength], outLocal, len);
        outQueue.FreeTensor(outLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX, inQueueY, inQueueW;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> prodBuf;
    AscendC::GlobalTensor<half> xGm, yGm, wGm, outGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileCount = 0;
    uint32_t lastTileLength = 0;
};

extern "C" __global__ __aicore__ void mul_sub_custom(GM_ADDR x, GM_ADDR y, GM_ADDR w, GM_ADDR out, GM_ADDR workspace,
                                                     GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelMulSub op;
    op.Init(x, y, w, out, tilingData.blockLength, tilingData.tileLength);
    op.Process();
}
