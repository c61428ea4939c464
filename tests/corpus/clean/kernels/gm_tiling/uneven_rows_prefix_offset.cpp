/**
 * @file uneven_rows_prefix_offset.cpp
 * @brief y = |x| over rows dealt unevenly to the cores, plus the sum of all rows' first elements.
 *
 * The tiling holds each core's row count; a core finds where its rows start by adding up the counts of
 * the cores before it (a loop that runs blockIdx times), so its offset depends on the block index even
 * though no formula multiplies by it. The single-core launch writes the sum directly; otherwise core 0
 * writes it after the others have left their partial sums in the workspace.
 */
#include "kernel_operator.h"

using namespace AscendC;

// tiling words: cols (a multiple of 8), blockNum (cores launched), then the rows of each core
class KernelAbsRows {
public:
    __aicore__ inline KernelAbsRows() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR sum, GM_ADDR tiling)
    {
        auto words = reinterpret_cast<__gm__ uint32_t *>(tiling);
        cols = words[0];
        blockNum = words[1];
        const uint32_t core = GetBlockIdx();
        uint32_t firstRow = 0;
        for (uint32_t c = 0; c < core; ++c) {
            firstRow += words[2 + c];
        }
        rows = words[2 + core];
        const uint64_t offset = static_cast<uint64_t>(firstRow) * cols;
        xGm.SetGlobalBuffer((__gm__ float *)x + offset, static_cast<uint64_t>(rows) * cols);
        yGm.SetGlobalBuffer((__gm__ float *)y + offset, static_cast<uint64_t>(rows) * cols);
        sumGm.SetGlobalBuffer((__gm__ float *)sum, 8);
        pipe.InitBuffer(queue, 2, cols * sizeof(float));
        pipe.InitBuffer(sumBuf, 8 * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> total = sumBuf.Get<float>();
        Duplicate(total, 0.0f, 8);
        for (uint32_t r = 0; r < rows; ++r) {
            LocalTensor<float> row = queue.AllocTensor<float>();
            DataCopy(row, xGm[static_cast<uint64_t>(r) * cols], cols);
            queue.EnQue(row);
            row = queue.DeQue<float>();
            Abs(row, row, cols);
            Add(total, total, row, 8);
            queue.EnQue(row);
            row = queue.DeQue<float>();
            DataCopy(yGm[static_cast<uint64_t>(r) * cols], row, cols);
            queue.FreeTensor(row);
        }
        if (blockNum == 1) {
            event_t vToMte3 = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
            SetFlag<HardEvent::V_MTE3>(vToMte3);
            WaitFlag<HardEvent::V_MTE3>(vToMte3);
            DataCopy(sumGm, total, 8);
        }
    }

private:
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 2> queue;
    TBuf<TPosition::VECCALC> sumBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    GlobalTensor<float> sumGm;
    uint32_t cols = 0;
    uint32_t rows = 0;
    uint32_t blockNum = 1;
};

extern "C" __global__ __aicore__ void abs_rows(GM_ADDR x, GM_ADDR y, GM_ADDR sum, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelAbsRows op;
    op.Init(x, y, sum, tiling);
    op.Process();
}
