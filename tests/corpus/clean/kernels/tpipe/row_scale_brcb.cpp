/**
 * @file row_scale_brcb.cpp
 * @brief y[r, c] = x[r, c] * scale[r]  (fp32), i.e. a per-row broadcast multiply.
 *
 * Brcb expands every scale value into a full 32-byte block (8 floats). The multiply then reads
 * that block with src1 block stride 0 (same block for all 8 blocks of the repeat) and src1 repeat
 * stride 1 (next row -> next block), one repeat per row, 64 columns at a time.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t FLOATS_PER_BLOCK = 8;
constexpr uint32_t FLOATS_PER_REPEAT = 64;

class KernelRowScale {
public:
    __aicore__ inline KernelRowScale() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scale, GM_ADDR y, uint32_t rowsPerCore, uint32_t cols,
                                uint32_t rowsPerTile)
    {
        this->rowsPerCore = rowsPerCore;
        this->cols = cols;
        this->rowsPerTile = rowsPerTile; // <= 255, multiple of 8
        const uint64_t firstRow = static_cast<uint64_t>(GetBlockIdx()) * rowsPerCore;

        xGm.SetGlobalBuffer((__gm__ float *)x + firstRow * cols, static_cast<uint64_t>(rowsPerCore) * cols);
        yGm.SetGlobalBuffer((__gm__ float *)y + firstRow * cols, static_cast<uint64_t>(rowsPerCore) * cols);
        scaleGm.SetGlobalBuffer((__gm__ float *)scale + firstRow, rowsPerCore);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, rowsPerTile * cols * sizeof(float));
        pipe.InitBuffer(inQueueScale, BUFFER_NUM, rowsPerTile * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, rowsPerTile * cols * sizeof(float));
        pipe.InitBuffer(brcbBuf, rowsPerTile * FLOATS_PER_BLOCK * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t row = 0; row < rowsPerCore; row += rowsPerTile) {
            uint32_t nRows = rowsPerCore - row;
            nRows = nRows > rowsPerTile ? rowsPerTile : nRows;
            CopyIn(row, nRows);
            Compute(nRows);
            CopyOut(row, nRows);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t row, uint32_t nRows)
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        LocalTensor<float> sLocal = inQueueScale.AllocTensor<float>();
        DataCopy(xLocal, xGm[static_cast<uint64_t>(row) * cols], nRows * cols);
        DataCopyExtParams sParams{1, nRows * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> sPad{false, 0, 0, 0.0f};
        DataCopyPad(sLocal, scaleGm[row], sParams, sPad);
        inQueueX.EnQue(xLocal);
        inQueueScale.EnQue(sLocal);
    }

    __aicore__ inline void Compute(uint32_t nRows)
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> sLocal = inQueueScale.DeQue<float>();
        LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        LocalTensor<float> bcast = brcbBuf.Get<float>();

        // 8 scale values per Brcb repeat -> 8 blocks
        const uint8_t brcbRepeat = static_cast<uint8_t>((nRows + FLOATS_PER_BLOCK - 1) / FLOATS_PER_BLOCK);
        Brcb(bcast, sLocal, brcbRepeat, BrcbRepeatParams(1, 8));

        const uint8_t rowBlocks = static_cast<uint8_t>(cols / FLOATS_PER_BLOCK);
        const uint8_t repeat = static_cast<uint8_t>(nRows);
        BinaryRepeatParams params(1, 1, 0, rowBlocks, rowBlocks, 1);
        for (uint32_t c = 0; c < cols; c += FLOATS_PER_REPEAT) {
            const uint32_t width = cols - c < FLOATS_PER_REPEAT ? cols - c : FLOATS_PER_REPEAT;
            Mul(yLocal[c], xLocal[c], bcast, static_cast<uint64_t>(width), repeat, params);
        }

        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueScale.FreeTensor(sLocal);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t nRows)
    {
        LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        DataCopy(yGm[static_cast<uint64_t>(row) * cols], yLocal, nRows * cols);
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueScale;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueY;
    TBuf<TPosition::VECCALC> brcbBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> scaleGm;
    GlobalTensor<float> yGm;
    uint32_t rowsPerCore = 0;
    uint32_t cols = 0;
    uint32_t rowsPerTile = 0;
};

extern "C" __global__ __aicore__ void row_scale_custom(GM_ADDR x, GM_ADDR scale, GM_ADDR y, GM_ADDR workspace,
                                                       GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelRowScale op;
    op.Init(x, scale, y, tilingData.rowsPerCore, tilingData.cols, tilingData.rowsPerTile);
    op.Process();
}
