/**
 * @file reduce_sum_custom.cpp
 * @brief ReduceSumCustom kernel, four tiling keys:
 *   1 fp32 short rows   2 fp32 long rows   3 fp16 short rows   4 fp16 long rows
 * Sums are always accumulated in fp32.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t FLOATS_PER_BLOCK = 8;
constexpr uint32_t OUT_BATCH = 64; // long-row results buffered before one store
} // namespace

template <typename T, bool SHORT_ROW>
class KernelReduceSum {
public:
    __aicore__ inline KernelReduceSum() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols, uint32_t rowsPerCore,
                                uint32_t rowsPerTile, uint32_t chunkLength)
    {
        this->cols = cols;
        this->rowsPerTile = rowsPerTile;
        this->chunkLength = chunkLength;
        const uint32_t firstRow = rowsPerCore * GetBlockIdx();
        myRows = firstRow < rows ? (rows - firstRow < rowsPerCore ? rows - firstRow : rowsPerCore) : 0;

        xGm.SetGlobalBuffer((__gm__ T *)x + static_cast<uint64_t>(firstRow) * cols,
                            static_cast<uint64_t>(myRows) * cols);
        yGm.SetGlobalBuffer((__gm__ T *)y + firstRow, myRows);

        if constexpr (SHORT_ROW) {
            pipe.InitBuffer(inQueue, BUFFER_NUM, rowsPerTile * cols * sizeof(T));
            pipe.InitBuffer(outQueue, BUFFER_NUM, rowsPerTile * sizeof(T));
            pipe.InitBuffer(floatBuf, rowsPerTile * cols * sizeof(float));
            pipe.InitBuffer(sumBuf, rowsPerTile * sizeof(float));
        } else {
            pipe.InitBuffer(inQueue, BUFFER_NUM, chunkLength * sizeof(T));
            pipe.InitBuffer(outQueue, 1, OUT_BATCH * sizeof(T));
            pipe.InitBuffer(floatBuf, chunkLength * sizeof(float));
            pipe.InitBuffer(workBuf, chunkLength * sizeof(float));
            pipe.InitBuffer(sumBuf, FLOATS_PER_BLOCK * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        if constexpr (SHORT_ROW) {
            for (uint32_t r = 0; r < myRows; r += rowsPerTile) {
                const uint32_t nRows = myRows - r < rowsPerTile ? myRows - r : rowsPerTile;
                ShortRowTile(r, nRows);
            }
        } else {
            for (uint32_t r = 0; r < myRows; r += OUT_BATCH) {
                const uint32_t nRows = myRows - r < OUT_BATCH ? myRows - r : OUT_BATCH;
                LongRowBatch(r, nRows);
            }
        }
    }

private:
    __aicore__ inline void ToFloat(const LocalTensor<float> &dst, const LocalTensor<T> &src, uint32_t count)
    {
        if constexpr (std::is_same<T, half>::value) {
            Cast(dst, src, RoundMode::CAST_NONE, count);
        } else {
            DataCopy(dst, src, (count + FLOATS_PER_BLOCK - 1) / FLOATS_PER_BLOCK * FLOATS_PER_BLOCK);
        }
    }

    __aicore__ inline void ShortRowTile(uint32_t row, uint32_t nRows)
    {
        LocalTensor<T> xLocal = inQueue.template AllocTensor<T>();
        DataCopy(xLocal, xGm[static_cast<uint64_t>(row) * cols], nRows * cols);
        inQueue.EnQue(xLocal);

        xLocal = inQueue.template DeQue<T>();
        LocalTensor<float> xf = floatBuf.Get<float>();
        LocalTensor<float> sums = sumBuf.Get<float>();
        ToFloat(xf, xLocal, nRows * cols);
        inQueue.FreeTensor(xLocal);

        // one repeat per row: mask = cols lanes, consecutive rows cols / 8 blocks apart
        WholeReduceSum<float>(sums, xf, static_cast<int32_t>(cols), static_cast<int32_t>(nRows), 1, 1,
                              static_cast<int32_t>(cols / FLOATS_PER_BLOCK));

        LocalTensor<T> yLocal = outQueue.template AllocTensor<T>();
        if constexpr (std::is_same<T, half>::value) {
            Cast(yLocal, sums, RoundMode::CAST_RINT, nRows);
        } else {
            Adds(yLocal, sums, 0.0f, nRows);
        }
        outQueue.EnQue(yLocal);

        yLocal = outQueue.template DeQue<T>();
        DataCopyPad(yGm[row], yLocal, DataCopyExtParams{1, static_cast<uint32_t>(nRows * sizeof(T)), 0, 0, 0});
        outQueue.FreeTensor(yLocal);
    }

    __aicore__ inline float ReduceRow(uint32_t row)
    {
        float acc = 0.0f;
        const uint64_t rowBase = static_cast<uint64_t>(row) * cols;
        for (uint32_t c = 0; c < cols; c += chunkLength) {
            const uint32_t n = cols - c < chunkLength ? cols - c : chunkLength;
            LocalTensor<T> xLocal = inQueue.template AllocTensor<T>();
            DataCopyPad(xLocal, xGm[rowBase + c], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0},
                        DataCopyPadExtParams<T>{false, 0, 0, 0});
            inQueue.EnQue(xLocal);

            xLocal = inQueue.template DeQue<T>();
            LocalTensor<float> xf = floatBuf.Get<float>();
            LocalTensor<float> partial = sumBuf.Get<float>();
            ToFloat(xf, xLocal, n);
            inQueue.FreeTensor(xLocal);
            ReduceSum<float>(partial, xf, workBuf.Get<float>(), n);

            event_t vToS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(vToS);
            WaitFlag<HardEvent::V_S>(vToS);
            acc += partial.GetValue(0);
        }
        return acc;
    }

    __aicore__ inline void LongRowBatch(uint32_t firstRow, uint32_t nRows)
    {
        LocalTensor<T> yLocal = outQueue.template AllocTensor<T>();
        for (uint32_t i = 0; i < nRows; ++i) {
            yLocal.SetValue(i, static_cast<T>(ReduceRow(firstRow + i)));
        }
        event_t sToMte3 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(sToMte3);
        WaitFlag<HardEvent::S_MTE3>(sToMte3);
        DataCopyPad(yGm[firstRow], yLocal, DataCopyExtParams{1, static_cast<uint32_t>(nRows * sizeof(T)), 0, 0, 0});
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueue;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<TPosition::VECCALC> floatBuf;
    TBuf<TPosition::VECCALC> workBuf;
    TBuf<TPosition::VECCALC> sumBuf;
    GlobalTensor<T> xGm;
    GlobalTensor<T> yGm;
    uint32_t cols = 0;
    uint32_t myRows = 0;
    uint32_t rowsPerTile = 0;
    uint32_t chunkLength = 0;
};

template <typename T, bool SHORT_ROW, typename TilingT>
__aicore__ inline void RunReduceSum(GM_ADDR x, GM_ADDR y, const TilingT &td)
{
    KernelReduceSum<T, SHORT_ROW> op;
    op.Init(x, y, td.rows, td.cols, td.rowsPerCore, td.rowsPerTile, td.chunkLength);
    op.Process();
}

extern "C" __global__ __aicore__ void reduce_sum_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    if (TILING_KEY_IS(1)) {
        RunReduceSum<float, true>(x, y, tilingData);
    } else if (TILING_KEY_IS(2)) {
        RunReduceSum<float, false>(x, y, tilingData);
    } else if (TILING_KEY_IS(3)) {
        RunReduceSum<half, true>(x, y, tilingData);
    } else if (TILING_KEY_IS(4)) {
        RunReduceSum<half, false>(x, y, tilingData);
    }
}
