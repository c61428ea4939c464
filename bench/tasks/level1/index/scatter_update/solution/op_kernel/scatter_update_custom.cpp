/**
 * @file scatter_update_custom.cpp
 * @brief ScatterUpdateCustom kernel: var[indices[j], :] = updates[j, :] in place, fp16 / fp32 / int32.
 *
 * The updates are split over the cores by rows; the indices are distinct, so no two cores write the same row
 * of var. Each target row is read through the scalar unit, and the row moves GM -> UB -> GM through one bound
 * VECIN/VECOUT queue in column chunks, double-buffered.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
} // namespace

template <typename T>
class KernelScatterUpdate {
public:
    __aicore__ inline KernelScatterUpdate() {}

    __aicore__ inline void Init(GM_ADDR var, GM_ADDR indices, GM_ADDR updates, const ScatterUpdateCustomTilingData &td)
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

        varGm.SetGlobalBuffer((__gm__ T *)var, static_cast<uint64_t>(td.varRows) * numCols);
        indicesGm.SetGlobalBuffer((__gm__ int32_t *)indices + firstRow, myRows);
        updatesGm.SetGlobalBuffer((__gm__ T *)updates + static_cast<uint64_t>(firstRow) * numCols,
                                  static_cast<uint64_t>(myRows) * numCols);
        pipe.InitBuffer(rowQueue, BUFFER_NUM, colTile * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t j = 0; j < myRows; ++j) {
            const uint64_t dst = static_cast<uint64_t>(indicesGm.GetValue(j)) * numCols;
            const uint64_t src = static_cast<uint64_t>(j) * numCols;
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
        DataCopyPad(chunk, updatesGm[src], params, DataCopyPadExtParams<T>{false, 0, 0, 0});
        rowQueue.EnQue(chunk);
        chunk = rowQueue.template DeQue<T>();
        DataCopyPad(varGm[dst], chunk, params);
        rowQueue.FreeTensor(chunk);
    }

    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> rowQueue;
    GlobalTensor<T> varGm;
    GlobalTensor<int32_t> indicesGm;
    GlobalTensor<T> updatesGm;
    uint32_t myRows = 0;
    uint32_t numCols = 0;
    uint32_t colTile = 0;
};

extern "C" __global__ __aicore__ void scatter_update_custom(GM_ADDR var, GM_ADDR indices, GM_ADDR updates,
                                                            GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelScatterUpdate<DTYPE_VAR> op;
    op.Init(var, indices, updates, tilingData);
    op.Process();
}
