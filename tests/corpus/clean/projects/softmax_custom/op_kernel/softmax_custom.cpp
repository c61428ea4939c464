/**
 * @file softmax_custom.cpp
 * @brief SoftmaxCustom kernel: rowsPerLoop rows per SoftMax call, double-buffered in and out.
 *
 * The SoftMax tiling was produced for a [rowsPerLoop, cols] block, so the last (short) block of a
 * core is computed at full height as well; only its valid rows are copied back.
 */
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_BYTES = 32;

template <typename T>
class KernelSoftmax {
public:
    __aicore__ inline KernelSoftmax() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols, uint32_t rowsPerCore,
                                uint32_t rowsPerLoop, uint32_t tmpBufferSize, const SoftMaxTiling &smTiling)
    {
        this->cols = cols;
        this->rowsPerLoop = rowsPerLoop;
        this->smTiling = smTiling;

        const uint32_t firstRow = rowsPerCore * AscendC::GetBlockIdx();
        myRows = firstRow >= rows ? 0 : (rows - firstRow < rowsPerCore ? rows - firstRow : rowsPerCore);
        const uint64_t base = static_cast<uint64_t>(firstRow) * cols;
        xGm.SetGlobalBuffer((__gm__ T *)x + base, static_cast<uint64_t>(myRows) * cols);
        yGm.SetGlobalBuffer((__gm__ T *)y + base, static_cast<uint64_t>(myRows) * cols);

        const uint32_t blockBytes = rowsPerLoop * cols * sizeof(T);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, blockBytes);
        pipe.InitBuffer(outQueueY, BUFFER_NUM, blockBytes);
        pipe.InitBuffer(sumBuf, rowsPerLoop * BLOCK_BYTES);
        pipe.InitBuffer(maxBuf, rowsPerLoop * BLOCK_BYTES);
        pipe.InitBuffer(tmpBuf, tmpBufferSize);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t row = 0; row < myRows; row += rowsPerLoop) {
            const uint32_t nRows = myRows - row < rowsPerLoop ? myRows - row : rowsPerLoop;
            CopyIn(row, nRows);
            Compute();
            CopyOut(row, nRows);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t row, uint32_t nRows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.template AllocTensor<T>();
        AscendC::DataCopy(xLocal, xGm[static_cast<uint64_t>(row) * cols], nRows * cols);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.template DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.template AllocTensor<T>();
        AscendC::LocalTensor<T> sumLocal = sumBuf.Get<T>();
        AscendC::LocalTensor<T> maxLocal = maxBuf.Get<T>();
        AscendC::LocalTensor<uint8_t> tmpLocal = tmpBuf.Get<uint8_t>();

        AscendC::SoftMaxShapeInfo shapeInfo = {rowsPerLoop, cols, rowsPerLoop, cols};
        AscendC::SoftMax<T>(yLocal, sumLocal, maxLocal, xLocal, tmpLocal, smTiling, shapeInfo);

        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t nRows)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.template DeQue<T>();
        AscendC::DataCopy(yGm[static_cast<uint64_t>(row) * cols], yLocal, nRows * cols);
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> sumBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> maxBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    SoftMaxTiling smTiling;
    uint32_t cols = 0;
    uint32_t rowsPerLoop = 0;
    uint32_t myRows = 0;
};

extern "C" __global__ __aicore__ void softmax_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelSoftmax<DTYPE_X> op;
    op.Init(x, y, tilingData.rows, tilingData.cols, tilingData.rowsPerCore, tilingData.rowsPerLoop,
            tilingData.tmpBufferSize, tilingData.softmaxTiling);
    op.Process();
}
