/**
 * @file one_hot_custom.cpp
 * @brief OneHotCustom kernel: y[r, c] = (c == indices[r]) as int32, y of shape [N, depth].
 *
 * Rows are split over the cores and handled rowsPerTile at a time: the tile is zeroed by the vector unit, the
 * scalar unit writes a 1 per row, and one multi-row DataCopyPad stores it (each UB row padded to 32 bytes).
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
} // namespace

class KernelOneHot {
public:
    __aicore__ inline KernelOneHot() {}

    __aicore__ inline void Init(GM_ADDR indices, GM_ADDR y, const OneHotCustomTilingData &td)
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
        depth = td.depth;
        depthAligned = td.depthAligned;
        rowsPerTile = td.rowsPerTile;

        indicesGm.SetGlobalBuffer((__gm__ int32_t *)indices + firstRow, myRows);
        yGm.SetGlobalBuffer((__gm__ int32_t *)y + static_cast<uint64_t>(firstRow) * depth,
                            static_cast<uint64_t>(myRows) * depth);
        pipe.InitBuffer(yQueue, BUFFER_NUM, rowsPerTile * depthAligned * sizeof(int32_t));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t row = 0; row < myRows; row += rowsPerTile) {
            const uint32_t nRows = (myRows - row) < rowsPerTile ? (myRows - row) : rowsPerTile;
            Compute(row, nRows);
            CopyOut(row, nRows);
        }
    }

private:
    __aicore__ inline void Compute(uint32_t row, uint32_t nRows)
    {
        LocalTensor<int32_t> yLocal = yQueue.AllocTensor<int32_t>();
        Duplicate(yLocal, static_cast<int32_t>(0), nRows * depthAligned);
        event_t vToS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vToS);
        WaitFlag<HardEvent::V_S>(vToS);
        for (uint32_t r = 0; r < nRows; ++r) {
            const int32_t hot = indicesGm.GetValue(row + r);
            if (hot >= 0 && static_cast<uint32_t>(hot) < depth) {
                yLocal.SetValue(r * depthAligned + static_cast<uint32_t>(hot), 1);
            }
        }
        event_t sToMte3 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(sToMte3);
        WaitFlag<HardEvent::S_MTE3>(sToMte3);
        yQueue.EnQue(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t nRows)
    {
        LocalTensor<int32_t> yLocal = yQueue.DeQue<int32_t>();
        DataCopyExtParams params{static_cast<uint16_t>(nRows), static_cast<uint32_t>(depth * sizeof(int32_t)), 0, 0,
                                 0};
        DataCopyPad(yGm[static_cast<uint64_t>(row) * depth], yLocal, params);
        yQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<TPosition::VECOUT, 1> yQueue;
    GlobalTensor<int32_t> indicesGm;
    GlobalTensor<int32_t> yGm;
    uint32_t myRows = 0;
    uint32_t depth = 0;
    uint32_t depthAligned = 0;
    uint32_t rowsPerTile = 0;
};

extern "C" __global__ __aicore__ void one_hot_custom(GM_ADDR indices, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelOneHot op;
    op.Init(indices, y, tilingData);
    op.Process();
}
