/**
 * @file uneven_rows_prefix_offset.cpp
 * @brief y = |x| over rows dealt unevenly to the cores, and sum[j] = the sum over all rows of |x[r][j]|, j < 8.
 *
 * The tiling holds each core's row count; a core finds where its rows start by adding up the counts of
 * the cores before it (a loop that runs blockIdx times), so its offset depends on the block index even
 * though no formula multiplies by it. Each core leaves its 8 partial sums in its own 32-byte slot of the
 * workspace (blockNum x 32 bytes, which the launching host allocates); after SyncAll, core 0 adds the
 * slots up and writes sum, so no two cores write the same output bytes.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t SLOT_FLOATS = 8; // one 32-byte block per core

// tiling words: cols (a multiple of 8), blockNum (cores launched), then the rows of each core
class KernelAbsRows {
public:
    __aicore__ inline KernelAbsRows() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR sum, GM_ADDR workspace, GM_ADDR tiling)
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
        sumGm.SetGlobalBuffer((__gm__ float *)sum, SLOT_FLOATS);
        slotGm.SetGlobalBuffer((__gm__ float *)workspace, blockNum * SLOT_FLOATS);
        pipe.InitBuffer(inQueue, 2, cols * sizeof(float));
        pipe.InitBuffer(outQueue, 2, cols * sizeof(float));
        pipe.InitBuffer(sumBuf, SLOT_FLOATS * sizeof(float));
        pipe.InitBuffer(slotBuf, blockNum * SLOT_FLOATS * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> total = sumBuf.Get<float>();
        Duplicate(total, 0.0f, SLOT_FLOATS);
        for (uint32_t r = 0; r < rows; ++r) {
            LocalTensor<float> in = inQueue.AllocTensor<float>();
            DataCopy(in, xGm[static_cast<uint64_t>(r) * cols], cols);
            inQueue.EnQue(in);
            in = inQueue.DeQue<float>();
            // the Abs reads VECIN and writes VECOUT: each queue's flags order its own MTE with V
            LocalTensor<float> out = outQueue.AllocTensor<float>();
            Abs(out, in, cols);
            inQueue.FreeTensor(in);
            Add(total, total, out, SLOT_FLOATS);
            outQueue.EnQue(out);
            out = outQueue.DeQue<float>();
            DataCopy(yGm[static_cast<uint64_t>(r) * cols], out, cols);
            outQueue.FreeTensor(out);
        }
        event_t vToMte3 = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(vToMte3);
        WaitFlag<HardEvent::V_MTE3>(vToMte3);
        DataCopy(slotGm[GetBlockIdx() * SLOT_FLOATS], total, SLOT_FLOATS);
        // every core's slot is in GM before core 0 reads them (the hardware SyncAll starts with a PIPE_ALL barrier)
        SyncAll();
        if (GetBlockIdx() == 0) {
            AddSlots();
        }
    }

private:
    __aicore__ inline void AddSlots()
    {
        LocalTensor<float> slots = slotBuf.Get<float>();
        DataCopy(slots, slotGm, blockNum * SLOT_FLOATS);
        event_t mte2ToV = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(mte2ToV);
        WaitFlag<HardEvent::MTE2_V>(mte2ToV);
        for (uint32_t c = 1; c < blockNum; ++c) {
            Add(slots, slots, slots[c * SLOT_FLOATS], SLOT_FLOATS);
        }
        event_t vToMte3 = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(vToMte3);
        WaitFlag<HardEvent::V_MTE3>(vToMte3);
        DataCopy(sumGm, slots, SLOT_FLOATS);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueue;
    TQue<TPosition::VECOUT, 2> outQueue;
    TBuf<TPosition::VECCALC> sumBuf;
    TBuf<TPosition::VECCALC> slotBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    GlobalTensor<float> sumGm;
    GlobalTensor<float> slotGm;
    uint32_t cols = 0;
    uint32_t rows = 0;
    uint32_t blockNum = 1;
};

extern "C" __global__ __aicore__ void abs_rows(GM_ADDR x, GM_ADDR y, GM_ADDR sum, GM_ADDR workspace, GM_ADDR tiling)
{
    // the hardware SyncAll of vector cores needs a MIX launch
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
    KernelAbsRows op;
    op.Init(x, y, sum, workspace, tiling);
    op.Process();
}
