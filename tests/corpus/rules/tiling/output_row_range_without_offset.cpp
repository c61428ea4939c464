// Rows are split between the cores by a helper, and x is offset by the core's first row, but y is not:
// every core writes its rows over rows 0.. of y. The launch is not in this file, so blockDim is unknown
// (on one core nothing overlaps): a warning. The statistics row, written by core 0 only, is not flagged.
#include "kernel_operator.h"

using namespace AscendC;

struct RowRange {
    uint32_t start;
    uint32_t count;
};

__aicore__ inline RowRange SplitRows(uint32_t rows, uint32_t blockIdx, uint32_t blockNum)
{
    RowRange range{};
    const uint32_t per = rows / blockNum;
    const uint32_t rem = rows % blockNum;
    range.count = per + (blockIdx < rem ? 1 : 0);
    range.start = blockIdx * per + (blockIdx < rem ? blockIdx : rem);
    return range;
}

class KernelRowCopy {
public:
    __aicore__ inline KernelRowCopy() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR stats, uint32_t rows, uint32_t cols)
    {
        RowRange range = SplitRows(rows, GetBlockIdx(), GetBlockNum());
        rowCount = range.count;
        this->cols = cols;
        const uint64_t offset = static_cast<uint64_t>(range.start) * cols;
        xGm.SetGlobalBuffer((__gm__ float *)x + offset, static_cast<uint64_t>(rowCount) * cols);
        yGm.SetGlobalBuffer((__gm__ float *)y, static_cast<uint64_t>(rowCount) * cols);
        statsGm.SetGlobalBuffer((__gm__ float *)stats, cols);
        pipe.InitBuffer(queue, 2, cols * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowCount; ++r) {
            LocalTensor<float> row = queue.AllocTensor<float>();
            DataCopy(row, xGm[static_cast<uint64_t>(r) * cols], cols);
            queue.EnQue(row);
            row = queue.DeQue<float>();
            // expected-warning@+1 {{every core writes the same elements of 'yGm': the address of this copy does not depend on GetBlockIdx(), though the kernel reads it}} [ASC606]
            DataCopy(yGm[static_cast<uint64_t>(r) * cols], row, cols);
            if (GetBlockIdx() == 0 && r == 0) {
                DataCopy(statsGm, row, cols);
            }
            queue.FreeTensor(row);
        }
    }

private:
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 2> queue;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    GlobalTensor<float> statsGm;
    uint32_t rowCount = 0;
    uint32_t cols = 0;
};

extern "C" __global__ __aicore__ void row_copy(GM_ADDR x, GM_ADDR y, GM_ADDR stats, GM_ADDR workspace,
                                               GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelRowCopy op;
    op.Init(x, y, stats, tilingData.rows, tilingData.cols);
    op.Process();
}
