/**
 * @file gather_rows_custom.cpp
 * @brief GatherRowsCustom kernel: y[r, :] = x[index[r], :] (index_select along dim 0), fp16 / fp32 / int32.
 *
 * Output rows are split over the cores; each row index is read through the scalar unit and the row is moved
 * GM -> UB -> GM through one bound VECIN/VECOUT queue in column chunks, double-buffered so that the next
 * chunk's load overlaps the current chunk's store.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
} // namespace

template <typename T>
class KernelGatherRows {
public:
    __aicore__ inline KernelGatherRows() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR index, GM_ADDR y, const GatherRowsCustomTilingData &td)
    {
        const uint32_t idx = GetBlockIdx();
        uint32_t firstRow = 0;
        if (idx < td.formerNum) {
            myRows = td.formerRows;
            firstRow = td.formerRows * idx;
        } else {
            myRows = td.tailRows;
            firstRow = td.formerRows * td.formerNum + td.tailRows * (idx - td.formerNum);
        }
        numCols = td.numCols;
        colTile = td.colTile;

        xGm.SetGlobalBuffer((__gm__ T *)x, static_cast<uint64_t>(td.numRows) * numCols);
        indexGm.SetGlobalBuffer((__gm__ int32_t *)index + firstRow, myRows);
        yGm.SetGlobalBuffer((__gm__ T *)y + static_cast<uint64_t>(firstRow) * numCols,
                            static_cast<uint64_t>(myRows) * numCols);
        pipe.InitBuffer(rowQueue, BUFFER_NUM, colTile * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < myRows; ++r) {
            const uint64_t src = static_cast<uint64_t>(indexGm.GetValue(r)) * numCols;
            const uint64_t dst = static_cast<uint64_t>(r) * numCols;
            for (uint32_t col = 0; col < numCols; col += colTile) {
                const uint32_t len = (numCols - col) < colTile ? (numCols - col) : colTile;
                MoveChunk(src + col, dst + col, len);
            }
        }
    }

private:
    __aicore__ inline void MoveChunk(uint64_t src, uint64_t dst, uint32_t len)
    {
        DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        LocalTensor<T> chunk = rowQueue.template AllocTensor<T>();
        DataCopyPad(chunk, xGm[src], params, DataCopyPadExtParams<T>{false, 0, 0, 0});
        rowQueue.EnQue(chunk);
        chunk = rowQueue.template DeQue<T>();
        DataCopyPad(yGm[dst], chunk, params);
        rowQueue.FreeTensor(chunk);
    }

    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> rowQueue;
    GlobalTensor<T> xGm;
    GlobalTensor<int32_t> indexGm;
    GlobalTensor<T> yGm;
    uint32_t myRows = 0;
    uint32_t numCols = 0;
    uint32_t colTile = 0;
};

extern "C" __global__ __aicore__ void gather_rows_custom(GM_ADDR x, GM_ADDR index, GM_ADDR y, GM_ADDR workspace,
                                                         GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelGatherRows<DTYPE_X> op;
    op.Init(x, index, y, tilingData);
    op.Process();
}
