/**
 * @file add_layer_norm_custom.cpp
 * @brief AddLayerNormCustom kernel: sum = x1 + x2; y = layer_norm(sum) * gamma + beta over the last axis, fp16 / fp32
 *        (statistics in fp32).
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t STAT_BYTES = 32;
} // namespace

template <typename T>
class KernelAddLayerNorm {
    static constexpr bool IS_FLOAT = std::is_same<T, float>::value;

public:
    __aicore__ inline KernelAddLayerNorm() {}

    __aicore__ inline void Init(GM_ADDR x1, GM_ADDR x2, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR sum,
                                const AddLayerNormCustomTilingData &td)
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
        epsilon = td.epsilon;

        const uint64_t base = static_cast<uint64_t>(firstRow) * numCols;
        x1Gm.SetGlobalBuffer((__gm__ T *)x1 + base, static_cast<uint64_t>(myRows) * numCols);
        x2Gm.SetGlobalBuffer((__gm__ T *)x2 + base, static_cast<uint64_t>(myRows) * numCols);
        yGm.SetGlobalBuffer((__gm__ T *)y + base, static_cast<uint64_t>(myRows) * numCols);
        sumGm.SetGlobalBuffer((__gm__ T *)sum + base, static_cast<uint64_t>(myRows) * numCols);
        gammaGm.SetGlobalBuffer((__gm__ T *)gamma, numCols);
        betaGm.SetGlobalBuffer((__gm__ T *)beta, numCols);
        const uint32_t tileBytes = rowsPerTile * pitch * sizeof(T);
        pipe.InitBuffer(x1Queue, td.bufferNum, tileBytes);
        pipe.InitBuffer(x2Queue, td.bufferNum, tileBytes);
        pipe.InitBuffer(yQueue, td.bufferNum, tileBytes);
        pipe.InitBuffer(sumQueue, td.bufferNum, tileBytes);
        pipe.InitBuffer(gammaBuf, pitch * sizeof(float));
        pipe.InitBuffer(betaBuf, pitch * sizeof(float));
        pipe.InitBuffer(vecQueue, 1, pitch * sizeof(T));
        pipe.InitBuffer(tmpBuf0, pitch * sizeof(float));
        pipe.InitBuffer(workBuf, pitch * sizeof(float));
        pipe.InitBuffer(statBuf, STAT_BYTES);
        if constexpr (!IS_FLOAT) {
            pipe.InitBuffer(x1FloatBuf, rowsPerTile * pitch * sizeof(float));
            pipe.InitBuffer(x2FloatBuf, rowsPerTile * pitch * sizeof(float));
            pipe.InitBuffer(yFloatBuf, rowsPerTile * pitch * sizeof(float));
            pipe.InitBuffer(sumFloatBuf, rowsPerTile * pitch * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        if (myRows == 0) {
            return;
        }
        LoadVectors();
        for (uint32_t row = 0; row < myRows; row += rowsPerTile) {
            const uint32_t nRows = (myRows - row) < rowsPerTile ? (myRows - row) : rowsPerTile;
            CopyIn(row, nRows);
            Compute(row, nRows);
            CopyOut(row, nRows);
        }
    }

private:
    // the per-column vectors (gamma, beta), once per core, kept in fp32
    __aicore__ inline void LoadVectors()
    {
        DataCopyExtParams params{1, static_cast<uint32_t>(numCols * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        {
            LocalTensor<T> staging = vecQueue.template AllocTensor<T>();
            DataCopyPad(staging, gammaGm, params, pad);
            vecQueue.EnQue(staging);
            staging = vecQueue.template DeQue<T>();
            if constexpr (IS_FLOAT) {
                Adds(gammaBuf.Get<float>(), staging, 0.0f, numCols);
            } else {
                Cast(gammaBuf.Get<float>(), staging, RoundMode::CAST_NONE, numCols);
            }
            vecQueue.FreeTensor(staging);
        }
        {
            LocalTensor<T> staging = vecQueue.template AllocTensor<T>();
            DataCopyPad(staging, betaGm, params, pad);
            vecQueue.EnQue(staging);
            staging = vecQueue.template DeQue<T>();
            if constexpr (IS_FLOAT) {
                Adds(betaBuf.Get<float>(), staging, 0.0f, numCols);
            } else {
                Cast(betaBuf.Get<float>(), staging, RoundMode::CAST_NONE, numCols);
            }
            vecQueue.FreeTensor(staging);
        }
    }

    __aicore__ inline void CopyIn(uint32_t row, uint32_t nRows)
    {
        // one block per row; each lands at a pitch of whole 32-byte blocks, its tail padded with zeros
        const uint64_t gmOff = static_cast<uint64_t>(row) * numCols;
        DataCopyExtParams params{static_cast<uint16_t>(nRows), static_cast<uint32_t>(numCols * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{true, 0, static_cast<uint8_t>(pitch - numCols), 0};
        LocalTensor<T> x1Local = x1Queue.template AllocTensor<T>();
        LocalTensor<T> x2Local = x2Queue.template AllocTensor<T>();
        DataCopyPad(x1Local, x1Gm[gmOff], params, pad);
        DataCopyPad(x2Local, x2Gm[gmOff], params, pad);
        x1Queue.EnQue(x1Local);
        x2Queue.EnQue(x2Local);
    }

    __aicore__ inline void Compute(uint32_t row, uint32_t nRows)
    {
        tileRow = row;
        LocalTensor<T> x1Local = x1Queue.template DeQue<T>();
        LocalTensor<T> x2Local = x2Queue.template DeQue<T>();
        LocalTensor<T> yLocal = yQueue.template AllocTensor<T>();
        LocalTensor<T> sumLocal = sumQueue.template AllocTensor<T>();
        if constexpr (IS_FLOAT) {
            Rows(yLocal, sumLocal, x1Local, x2Local, nRows);
        } else {
            const uint32_t count = nRows * pitch;
            LocalTensor<float> yF = yFloatBuf.Get<float>();
            LocalTensor<float> sumF = sumFloatBuf.Get<float>();
            LocalTensor<float> x1F = x1FloatBuf.Get<float>();
            LocalTensor<float> x2F = x2FloatBuf.Get<float>();
            Cast(x1F, x1Local, RoundMode::CAST_NONE, count);
            Cast(x2F, x2Local, RoundMode::CAST_NONE, count);
            Rows(yF, sumF, x1F, x2F, nRows);
            for (uint32_t r = 0; r < nRows; ++r) {  // only the numCols valid values of a row
                Cast(yLocal[r * pitch], yF[r * pitch], RoundMode::CAST_RINT, numCols);
                Cast(sumLocal[r * pitch], sumF[r * pitch], RoundMode::CAST_RINT, numCols);
            }
        }
        yQueue.EnQue(yLocal);
        sumQueue.EnQue(sumLocal);
        x1Queue.FreeTensor(x1Local);
        x2Queue.FreeTensor(x2Local);
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

    __aicore__ inline float ScalarSqrt(float v)
    {
        LocalTensor<float> stat = statBuf.Get<float>();
        Duplicate(stat, v, STAT_BYTES / sizeof(float));
        Sqrt(stat, stat, STAT_BYTES / sizeof(float));
        return ScalarOf(stat);
    }

    // fp32 rows of a tile, each at offset r * pitch; results go to the output rows (and per-row outputs)
    __aicore__ inline void Rows(const LocalTensor<float> &yAll,
                                const LocalTensor<float> &sumAll,
                                const LocalTensor<float> &x1All,
                                const LocalTensor<float> &x2All,
                                uint32_t nRows)
    {
        LocalTensor<float> gammaV = gammaBuf.Get<float>();
        LocalTensor<float> betaV = betaBuf.Get<float>();
        LocalTensor<float> t0 = tmpBuf0.Get<float>();
        for (uint32_t r = 0; r < nRows; ++r) {
            LocalTensor<float> y = yAll[r * pitch];
            LocalTensor<float> sum = sumAll[r * pitch];
            LocalTensor<float> x1 = x1All[r * pitch];
            LocalTensor<float> x2 = x2All[r * pitch];
            Add(sum, x1, x2, numCols);
            const float mean = RowSum(sum) * invCols;
            Adds(y, sum, -mean, numCols);
            Mul(t0, y, y, numCols);
            const float rstd = 1.0f / ScalarSqrt(RowSum(t0) * invCols + epsilon);
            Muls(y, y, rstd, numCols);
            Mul(y, y, gammaV, numCols);
            Add(y, y, betaV, numCols);
        }
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t nRows)
    {
        const uint64_t gmOff = static_cast<uint64_t>(row) * numCols;
        DataCopyExtParams params{static_cast<uint16_t>(nRows), static_cast<uint32_t>(numCols * sizeof(T)), 0, 0, 0};
        LocalTensor<T> yLocal = yQueue.template DeQue<T>();
        LocalTensor<T> sumLocal = sumQueue.template DeQue<T>();
        DataCopyPad(yGm[gmOff], yLocal, params);
        DataCopyPad(sumGm[gmOff], sumLocal, params);
        yQueue.FreeTensor(yLocal);
        sumQueue.FreeTensor(sumLocal);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 1> x1Queue;
    TQue<TPosition::VECIN, 1> x2Queue;
    TQue<TPosition::VECOUT, 1> yQueue;
    TQue<TPosition::VECOUT, 1> sumQueue;
    TQue<TPosition::VECIN, 1> vecQueue;
    TBuf<TPosition::VECCALC> gammaBuf;
    TBuf<TPosition::VECCALC> betaBuf;
    TBuf<TPosition::VECCALC> tmpBuf0;
    TBuf<TPosition::VECCALC> workBuf;
    TBuf<TPosition::VECCALC> statBuf;
    TBuf<TPosition::VECCALC> yFloatBuf;
    TBuf<TPosition::VECCALC> sumFloatBuf;
    TBuf<TPosition::VECCALC> x1FloatBuf;
    TBuf<TPosition::VECCALC> x2FloatBuf;
    GlobalTensor<T> x1Gm;
    GlobalTensor<T> x2Gm;
    GlobalTensor<T> gammaGm;
    GlobalTensor<T> betaGm;
    GlobalTensor<T> yGm;
    GlobalTensor<T> sumGm;
    uint32_t firstRow = 0;  // this core's first row of the whole tensor
    uint32_t myRows = 0;
    uint32_t numCols = 0;
    uint32_t pitch = 0;
    uint32_t rowsPerTile = 0;
    uint32_t tileRow = 0;   // first row of the tile being computed, within this core's rows
    float invCols = 0.0f;
    float epsilon = 0.0f;
};

extern "C" __global__ __aicore__ void add_layer_norm_custom(GM_ADDR x1,
                                                            GM_ADDR x2,
                                                            GM_ADDR gamma,
                                                            GM_ADDR beta,
                                                            GM_ADDR y,
                                                            GM_ADDR sum,
                                                            GM_ADDR workspace,
                                                            GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelAddLayerNorm<DTYPE_X1> op;
    op.Init(x1, x2, gamma, beta, y, sum, tilingData);
    op.Process();
}
