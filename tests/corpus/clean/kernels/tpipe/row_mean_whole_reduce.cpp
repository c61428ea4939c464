/**
 * @file row_mean_whole_reduce.cpp
 * @brief y[r] = mean(x[r, :]) for fp32 x[rows, cols], many rows per tile.
 *
 * Columns are first folded into a rows x 64 accumulator with strided Add (one repeat per row,
 * src rep stride = cols / 8 blocks), then WholeReduceSum collapses each 64-wide row to one value.
 * Constraints checked on the host: cols % 8 == 0, cols / 8 <= 255, rowsPerTile <= 255.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t LANES = 64;          // floats per repeat
constexpr uint32_t BLOCK_FLOATS = 8;    // floats per 32B block

class KernelRowMean {
public:
    __aicore__ inline KernelRowMean() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rowsPerCore, uint32_t cols, uint32_t rowsPerTile)
    {
        this->rowsPerCore = rowsPerCore;
        this->cols = cols;
        this->rowsPerTile = rowsPerTile;
        this->invCols = 1.0f / float(static_cast<int32_t>(cols));  // via int32: float <-> unsigned casts do not compile for the AI core

        const uint64_t firstRow = static_cast<uint64_t>(rowsPerCore) * GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ float *)x + firstRow * cols, static_cast<uint64_t>(rowsPerCore) * cols);
        yGm.SetGlobalBuffer((__gm__ float *)y + firstRow, rowsPerCore);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, rowsPerTile * cols * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, ((rowsPerTile + BLOCK_FLOATS - 1) / BLOCK_FLOATS) * 32);
        pipe.InitBuffer(accBuf, rowsPerTile * LANES * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t row = 0; row < rowsPerCore; row += rowsPerTile) {
            const uint32_t nRows = (rowsPerCore - row) < rowsPerTile ? (rowsPerCore - row) : rowsPerTile;
            CopyIn(row, nRows);
            Compute(nRows);
            CopyOut(row, nRows);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t row, uint32_t nRows)
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        DataCopy(xLocal, xGm[static_cast<uint64_t>(row) * cols], nRows * cols);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t nRows)
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        LocalTensor<float> acc = accBuf.Get<float>();

        const uint8_t repeat = static_cast<uint8_t>(nRows);
        const uint8_t rowBlocks = static_cast<uint8_t>(cols / BLOCK_FLOATS);
        const uint32_t fullChunks = cols / LANES;
        const uint32_t restLanes = cols % LANES;

        // acc[r, :] = 0, then acc[r, :] += x[r, c0 : c0 + 64] for every 64-column chunk
        Duplicate<float>(acc, 0.0f, nRows * LANES);
        for (uint32_t c = 0; c < fullChunks; ++c) {
            Add(acc, acc, xLocal[c * LANES], LANES, repeat, {1, 1, 1, 8, 8, rowBlocks});
        }
        if (restLanes > 0) {
            Add(acc, acc, xLocal[fullChunks * LANES], restLanes, repeat, {1, 1, 1, 8, 8, rowBlocks});
        }

        // one sum per repeat (= per row), written densely to yLocal
        WholeReduceSum<float>(yLocal, acc, LANES, repeat, 1, 1, 8);
        Muls(yLocal, yLocal, invCols, nRows);

        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t nRows)
    {
        LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        DataCopyExtParams params{1, nRows * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[row], yLocal, params);
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueY;
    TBuf<TPosition::VECCALC> accBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint32_t rowsPerCore = 0;
    uint32_t cols = 0;
    uint32_t rowsPerTile = 0;
    float invCols = 0.0f;
};

extern "C" __global__ __aicore__ void row_mean_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelRowMean op;
    op.Init(x, y, tilingData.rowsPerCore, tilingData.cols, tilingData.rowsPerTile);
    op.Process();
}
