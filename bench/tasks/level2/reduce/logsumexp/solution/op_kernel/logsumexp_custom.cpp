/**
 * @file logsumexp_custom.cpp
 * @brief LogsumexpCustom kernel: y = max + ln(sum(exp(x - max))) over the last axis, fp16 / fp32 (computed in fp32).
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t STAT_BYTES = 32;
} // namespace

template <typename T>
class KernelLogsumexp {
    static constexpr bool IS_FLOAT = std::is_same<T, float>::value;

public:
    __aicore__ inline KernelLogsumexp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const LogsumexpCustomTilingData &td)
    {
        const uint32_t blockIdx = GetBlockIdx();
        if (blockIdx < td.formerNum) {
            myRows = td.formerRows;
            firstRow = td.formerRows * blockIdx;
        } else {
            myRows = td.tailRows;
            firstRow = td.formerRows * td.formerNum + td.tailRows * (blockIdx - td.formerNum);
        }
        numCols = td.numCols;
        pitch = td.pitch;
        rowsPerTile = td.rowsPerTile;
        invCols = td.invCols;

        const uint64_t base = static_cast<uint64_t>(firstRow) * numCols;
        xGm.SetGlobalBuffer((__gm__ T *)x + base, static_cast<uint64_t>(myRows) * numCols);
        yGm.SetGlobalBuffer((__gm__ T *)y + firstRow, myRows);
        const uint32_t tileBytes = rowsPerTile * pitch * sizeof(T);
        const uint32_t statBytes = (rowsPerTile * sizeof(float) + STAT_BYTES - 1) / STAT_BYTES * STAT_BYTES;
        pipe.InitBuffer(xQueue, td.bufferNum, tileBytes);
        pipe.InitBuffer(yQueue, td.bufferNum, statBytes);
        pipe.InitBuffer(yValBuf, statBytes);
        pipe.InitBuffer(tmpBuf0, pitch * sizeof(float));
        pipe.InitBuffer(workBuf, pitch * sizeof(float));
        pipe.InitBuffer(statBuf, STAT_BYTES);
        if constexpr (!IS_FLOAT) {
            pipe.InitBuffer(xFloatBuf, rowsPerTile * pitch * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        if (myRows == 0) {
            return;
        }
        for (uint32_t row = 0; row < myRows; row += rowsPerTile) {
            const uint32_t nRows = (myRows - row) < rowsPerTile ? (myRows - row) : rowsPerTile;
            CopyIn(row, nRows);
            Compute(row, nRows);
            CopyOut(row, nRows);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t row, uint32_t nRows)
    {
        // one block per row; each lands at a pitch of whole 32-byte blocks, its tail padded with zeros
        const uint64_t gmOff = static_cast<uint64_t>(row) * numCols;
        DataCopyExtParams params{static_cast<uint16_t>(nRows), static_cast<uint32_t>(numCols * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{true, 0, static_cast<uint8_t>(pitch - numCols), 0};
        LocalTensor<T> xLocal = xQueue.template AllocTensor<T>();
        DataCopyPad(xLocal, xGm[gmOff], params, pad);
        xQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t row, uint32_t nRows)
    {
        tileRow = row;
        LocalTensor<T> xLocal = xQueue.template DeQue<T>();
        LocalTensor<T> yLocal = yQueue.template AllocTensor<T>();
        if constexpr (IS_FLOAT) {
            Rows(xLocal, nRows);
        } else {
            const uint32_t count = nRows * pitch;
            LocalTensor<float> xF = xFloatBuf.Get<float>();
            Cast(xF, xLocal, RoundMode::CAST_NONE, count);
            Rows(xF, nRows);
        }
        // the scalar unit wrote the per-row results: the vector unit moves them into the output tile
        event_t sToV = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sToV);
        WaitFlag<HardEvent::S_V>(sToV);
        if constexpr (IS_FLOAT) {
            Adds(yLocal, yValBuf.Get<float>(), 0.0f, nRows);
        } else {
            Cast(yLocal, yValBuf.Get<float>(), RoundMode::CAST_RINT, nRows);
        }
        yQueue.EnQue(yLocal);
        xQueue.FreeTensor(xLocal);
    }

    __aicore__ inline float ScalarOf(const LocalTensor<float> &t)
    {
        event_t vToS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vToS);
        WaitFlag<HardEvent::V_S>(vToS);
        return t.GetValue(0);
    }

    __aicore__ inline float RowSum(const LocalTensor<float> &src)
    {
        LocalTensor<float> stat = statBuf.Get<float>();
        ReduceSum<float>(stat, src, workBuf.Get<float>(), numCols);
        return ScalarOf(stat);
    }

    __aicore__ inline float ScalarLn(float v)
    {
        LocalTensor<float> stat = statBuf.Get<float>();
        Duplicate(stat, v, STAT_BYTES / sizeof(float));
        Ln(stat, stat, STAT_BYTES / sizeof(float));
        return ScalarOf(stat);
    }

    __aicore__ inline float RowMax(const LocalTensor<float> &src)
    {
        LocalTensor<float> stat = statBuf.Get<float>();
        ReduceMax<float>(stat, src, workBuf.Get<float>(), numCols);
        return ScalarOf(stat);
    }

    // fp32 rows of a tile, each at offset r * pitch; results go to the output rows (and per-row outputs)
    __aicore__ inline void Rows(const LocalTensor<float> &xAll, uint32_t nRows)
    {
        LocalTensor<float> yVals = yValBuf.Get<float>();
        LocalTensor<float> t0 = tmpBuf0.Get<float>();
        for (uint32_t r = 0; r < nRows; ++r) {
            LocalTensor<float> x = xAll[r * pitch];
            float yValue = 0.0f;
            const float rowMax = RowMax(x);
            Adds(t0, x, -rowMax, numCols);
            Exp(t0, t0, numCols);
            yValue = rowMax + ScalarLn(RowSum(t0));
            yVals.SetValue(r, yValue);
        }
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t nRows)
    {
        const uint64_t gmOff = static_cast<uint64_t>(row) * numCols;
        DataCopyExtParams params{static_cast<uint16_t>(nRows), static_cast<uint32_t>(numCols * sizeof(T)), 0, 0, 0};
        LocalTensor<T> yLocal = yQueue.template DeQue<T>();
        DataCopyPad(yGm[row], yLocal, DataCopyExtParams{1, static_cast<uint32_t>(nRows * sizeof(T)), 0, 0, 0});
        yQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> xQueue;
    TQue<TPosition::VECOUT, 1> yQueue;
    TBuf<TPosition::VECCALC> tmpBuf0;
    TBuf<TPosition::VECCALC> yValBuf;  // per-row results, written by the scalar unit
    TBuf<TPosition::VECCALC> workBuf;
    TBuf<TPosition::VECCALC> statBuf;
    TBuf<TPosition::VECCALC> xFloatBuf;
    GlobalTensor<T> xGm;
    GlobalTensor<T> yGm;
    uint32_t firstRow = 0;  // this core's first row of the whole tensor
    uint32_t myRows = 0;
    uint32_t numCols = 0;
    uint32_t pitch = 0;
    uint32_t rowsPerTile = 0;
    uint32_t tileRow = 0;   // first row of the tile being computed, within this core's rows
    float invCols = 0.0f;
};

extern "C" __global__ __aicore__ void logsumexp_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelLogsumexp<DTYPE_X> op;
    op.Init(x, y, tilingData);
    op.Process();
}
