/**
 * @file cross_entropy_loss_custom.cpp
 * @brief CrossEntropyLossCustom kernel: loss[n] = logsumexp(logits[n]) - logits[n, target[n]] (reduction none), fp16
 *        / fp32 logits, int32 targets.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t STAT_BYTES = 32;
} // namespace

template <typename T>
class KernelCrossEntropyLoss {
    static constexpr bool IS_FLOAT = std::is_same<T, float>::value;

public:
    __aicore__ inline KernelCrossEntropyLoss() {}

    __aicore__ inline void Init(GM_ADDR logits, GM_ADDR target, GM_ADDR loss,
                                const CrossEntropyLossCustomTilingData &td)
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
        logitsGm.SetGlobalBuffer((__gm__ T *)logits + base, static_cast<uint64_t>(myRows) * numCols);
        targetGm.SetGlobalBuffer((__gm__ int32_t *)target + firstRow, myRows);
        lossGm.SetGlobalBuffer((__gm__ T *)loss + firstRow, myRows);
        const uint32_t tileBytes = rowsPerTile * pitch * sizeof(T);
        const uint32_t statBytes = (rowsPerTile * sizeof(float) + STAT_BYTES - 1) / STAT_BYTES * STAT_BYTES;
        pipe.InitBuffer(logitsQueue, td.bufferNum, tileBytes);
        pipe.InitBuffer(lossQueue, td.bufferNum, statBytes);
        pipe.InitBuffer(lossValBuf, statBytes);
        pipe.InitBuffer(tmpBuf0, pitch * sizeof(float));
        pipe.InitBuffer(workBuf, pitch * sizeof(float));
        pipe.InitBuffer(statBuf, STAT_BYTES);
        if constexpr (!IS_FLOAT) {
            pipe.InitBuffer(logitsFloatBuf, rowsPerTile * pitch * sizeof(float));
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
        LocalTensor<T> logitsLocal = logitsQueue.template AllocTensor<T>();
        DataCopyPad(logitsLocal, logitsGm[gmOff], params, pad);
        logitsQueue.EnQue(logitsLocal);
    }

    __aicore__ inline void Compute(uint32_t row, uint32_t nRows)
    {
        tileRow = row;
        LocalTensor<T> logitsLocal = logitsQueue.template DeQue<T>();
        LocalTensor<T> lossLocal = lossQueue.template AllocTensor<T>();
        if constexpr (IS_FLOAT) {
            Rows(logitsLocal, nRows);
        } else {
            const uint32_t count = nRows * pitch;
            LocalTensor<float> logitsF = logitsFloatBuf.Get<float>();
            Cast(logitsF, logitsLocal, RoundMode::CAST_NONE, count);
            Rows(logitsF, nRows);
        }
        // the scalar unit wrote the per-row results: the vector unit moves them into the output tile
        event_t sToV = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sToV);
        WaitFlag<HardEvent::S_V>(sToV);
        if constexpr (IS_FLOAT) {
            Adds(lossLocal, lossValBuf.Get<float>(), 0.0f, nRows);
        } else {
            Cast(lossLocal, lossValBuf.Get<float>(), RoundMode::CAST_RINT, nRows);
        }
        lossQueue.EnQue(lossLocal);
        logitsQueue.FreeTensor(logitsLocal);
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
    __aicore__ inline void Rows(const LocalTensor<float> &logitsAll, uint32_t nRows)
    {
        LocalTensor<float> lossVals = lossValBuf.Get<float>();
        LocalTensor<float> t0 = tmpBuf0.Get<float>();
        for (uint32_t r = 0; r < nRows; ++r) {
            LocalTensor<float> logits = logitsAll[r * pitch];
            float lossValue = 0.0f;
            const float rowMax = RowMax(logits);
            Adds(t0, logits, -rowMax, numCols);
            Exp(t0, t0, numCols);
            const float lse = rowMax + ScalarLn(RowSum(t0));
            // ScalarLn synchronised the vector unit with the scalar unit: the row can be read element-wise now
            const int32_t label = targetGm.GetValue(tileRow + r);
            lossValue = lse - logits.GetValue(static_cast<uint32_t>(label));
            lossVals.SetValue(r, lossValue);
        }
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t nRows)
    {
        const uint64_t gmOff = static_cast<uint64_t>(row) * numCols;
        DataCopyExtParams params{static_cast<uint16_t>(nRows), static_cast<uint32_t>(numCols * sizeof(T)), 0, 0, 0};
        LocalTensor<T> lossLocal = lossQueue.template DeQue<T>();
        DataCopyPad(lossGm[row], lossLocal, DataCopyExtParams{1, static_cast<uint32_t>(nRows * sizeof(T)), 0, 0, 0});
        lossQueue.FreeTensor(lossLocal);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> logitsQueue;
    TQue<TPosition::VECOUT, 1> lossQueue;
    TBuf<TPosition::VECCALC> tmpBuf0;
    TBuf<TPosition::VECCALC> lossValBuf;  // per-row results, written by the scalar unit
    TBuf<TPosition::VECCALC> workBuf;
    TBuf<TPosition::VECCALC> statBuf;
    TBuf<TPosition::VECCALC> logitsFloatBuf;
    GlobalTensor<T> logitsGm;
    GlobalTensor<int32_t> targetGm;
    GlobalTensor<T> lossGm;
    uint32_t firstRow = 0;  // this core's first row of the whole tensor
    uint32_t myRows = 0;
    uint32_t numCols = 0;
    uint32_t pitch = 0;
    uint32_t rowsPerTile = 0;
    uint32_t tileRow = 0;   // first row of the tile being computed, within this core's rows
    float invCols = 0.0f;
};

extern "C" __global__ __aicore__ void cross_entropy_loss_custom(GM_ADDR logits, GM_ADDR target, GM_ADDR loss,
                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelCrossEntropyLoss<DTYPE_LOGITS> op;
    op.Init(logits, target, loss, tilingData);
    op.Process();
}
