/**
 * @file layernorm_300.cpp
 * @brief Lowering benchmark input: LayerNorm over the last axis for half and float tensors.
 *
 *     y = (x - mean) / sqrt(var + eps) * gamma + beta;  mean and rstd = 1 / sqrt(var + eps) per row (fp32)
 *
 * Rows are dealt out to the cores (the first `bigCoreNum` cores take one row more) and move through UB
 * in batches of `rowsPerTile`; the last batch of a core may be shorter (tail path). Each row lands in UB
 * at a pitch of `colsAligned` elements (DataCopyPad pads every block to 32 bytes), so any numCols works.
 * Statistics and the affine transform run in fp32: half inputs are cast up on entry and back on exit.
 *
 * TilingKey 1 -> half, TilingKey 2 -> float.
 */
#include "kernel_operator.h"

using namespace AscendC;

// Tiling layout shared with the host (new-style POD tiling, no BEGIN_TILING_DATA_DEF).
struct LayerNormTilingData {
    uint32_t numRows;          // rows of x (product of all but the last axis)
    uint32_t numCols;          // length of the normalized axis
    uint32_t colsAligned;      // numCols rounded up to 16 elements (32 B of half, 64 B of float)
    uint32_t bigCoreNum;       // cores that take rowsPerSmallCore + 1 rows
    uint32_t rowsPerSmallCore; // rows of every other core
    uint32_t rowsPerTile;      // rows per UB batch, <= MAX_ROWS_PER_TILE
    float epsilon;             // added to the variance
    float invCols;             // 1.0f / numCols, computed on the host
};

namespace {
constexpr int32_t BUFFER_NUM = 2;          // double buffering of the row batches
constexpr uint32_t STAT_LANES = 8;         // one 32-byte block of fp32
constexpr uint32_t MAX_ROWS_PER_TILE = 64; // bounds the per-batch statistics buffers

struct RowSlice {
    uint32_t first; // first row of this core
    uint32_t count; // rows of this core
};

__aicore__ inline RowSlice SliceForCore(const LayerNormTilingData &td, uint32_t blockIdx)
{
    RowSlice slice{};
    if (blockIdx < td.bigCoreNum) {
        slice.count = td.rowsPerSmallCore + 1;
        slice.first = blockIdx * slice.count;
    } else {
        slice.count = td.rowsPerSmallCore;
        slice.first = td.bigCoreNum * (td.rowsPerSmallCore + 1) + (blockIdx - td.bigCoreNum) * td.rowsPerSmallCore;
    }
    if (slice.first >= td.numRows) {
        slice.count = 0;
    } else if (slice.first + slice.count > td.numRows) {
        slice.count = td.numRows - slice.first;
    }
    return slice;
}

__aicore__ inline uint32_t RoundUpLanes(uint32_t n)
{
    return (n + STAT_LANES - 1) / STAT_LANES * STAT_LANES;
}
} // namespace

template <typename T>
class KernelLayerNorm {
    static constexpr bool IS_HALF = std::is_same<T, half>::value;

public:
    __aicore__ inline KernelLayerNorm() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean, GM_ADDR rstd,
                                const LayerNormTilingData &td);
    __aicore__ inline void Process();

private:
    __aicore__ inline void LoadAffine();
    __aicore__ inline void LoadAffineRow(GlobalTensor<T> &src, LocalTensor<float> &dst);
    __aicore__ inline void CopyIn(uint32_t row, uint32_t nRows);
    __aicore__ inline void Compute(uint32_t nRows);
    __aicore__ inline void CopyOut(uint32_t row, uint32_t nRows);

    __aicore__ inline void RunBatch(uint32_t row, uint32_t nRows)
    {
        CopyIn(row, nRows);
        Compute(nRows);
        CopyOut(row, nRows);
    }

    __aicore__ inline DataCopyExtParams RowParams(uint32_t nRows) const
    {
        return DataCopyExtParams{static_cast<uint16_t>(nRows), static_cast<uint32_t>(numCols * sizeof(T)), 0, 0, 0};
    }

    __aicore__ inline float ScalarOf(const LocalTensor<float> &t)
    {
        event_t vToS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vToS);
        WaitFlag<HardEvent::V_S>(vToS);
        return t.GetValue(0);
    }

    __aicore__ inline void ToFloat(const LocalTensor<float> &dst, const LocalTensor<T> &src)
    {
        if constexpr (IS_HALF) {
            Cast(dst, src, RoundMode::CAST_NONE, numCols);
        } else {
            Adds(dst, src, static_cast<T>(0), numCols);
        }
    }

    __aicore__ inline void FromFloat(const LocalTensor<T> &dst, const LocalTensor<float> &src)
    {
        if constexpr (IS_HALF) {
            Cast(dst, src, RoundMode::CAST_RINT, numCols);
        } else {
            Adds(dst, src, static_cast<T>(0), numCols);
        }
    }

    __aicore__ inline float RowMean(const LocalTensor<float> &row, const LocalTensor<float> &stat)
    {
        ReduceSum<float>(stat, row, workBuf.Get<float>(), numCols);
        return ScalarOf(stat) * invCols;
    }

    __aicore__ inline float RowRstd(const LocalTensor<float> &centered, const LocalTensor<float> &stat)
    {
        LocalTensor<float> sq = sqBuf.Get<float>();
        LocalTensor<float> ones = onesBuf.Get<float>();
        Mul(sq, centered, centered, numCols);
        ReduceSum<float>(stat, sq, workBuf.Get<float>(), numCols);
        Muls(stat, stat, invCols, 1);
        Adds(stat, stat, eps, 1);
        Sqrt(stat, stat, 1);
        Div(stat, ones, stat, 1);
        return ScalarOf(stat);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueY;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueMean;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueRstd;
    TBuf<TPosition::VECCALC> gammaBuf;
    TBuf<TPosition::VECCALC> betaBuf;
    TBuf<TPosition::VECCALC> rowBuf;
    TBuf<TPosition::VECCALC> meanBuf;
    TBuf<TPosition::VECCALC> sqBuf;
    TBuf<TPosition::VECCALC> workBuf;
    TBuf<TPosition::VECCALC> statBuf;
    TBuf<TPosition::VECCALC> onesBuf;
    GlobalTensor<T> xGm, yGm, gammaGm, betaGm;
    GlobalTensor<float> meanGm, rstdGm;
    uint32_t numCols = 0;
    uint32_t colsAligned = 0;
    uint32_t rowsPerTile = 0;
    uint32_t myRows = 0;
    float eps = 0.0f;
    float invCols = 0.0f;
};

template <typename T>
__aicore__ inline void KernelLayerNorm<T>::Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean,
                                                GM_ADDR rstd, const LayerNormTilingData &td)
{
    RowSlice slice = SliceForCore(td, GetBlockIdx());
    myRows = slice.count;
    numCols = td.numCols;
    colsAligned = td.colsAligned;
    rowsPerTile = td.rowsPerTile < MAX_ROWS_PER_TILE ? td.rowsPerTile : MAX_ROWS_PER_TILE;
    eps = td.epsilon;
    invCols = td.invCols;

    const uint64_t elemBase = static_cast<uint64_t>(slice.first) * numCols;
    const uint64_t elemCount = static_cast<uint64_t>(myRows) * numCols;
    xGm.SetGlobalBuffer((__gm__ T *)x + elemBase, elemCount);
    yGm.SetGlobalBuffer((__gm__ T *)y + elemBase, elemCount);
    gammaGm.SetGlobalBuffer((__gm__ T *)gamma, numCols);
    betaGm.SetGlobalBuffer((__gm__ T *)beta, numCols);
    meanGm.SetGlobalBuffer((__gm__ float *)mean + slice.first, myRows);
    rstdGm.SetGlobalBuffer((__gm__ float *)rstd + slice.first, myRows);

    const uint32_t tileBytes = rowsPerTile * colsAligned * sizeof(T);
    const uint32_t rowBytes = colsAligned * sizeof(float);
    const uint32_t statBytes = RoundUpLanes(rowsPerTile) * sizeof(float);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, tileBytes);
    pipe.InitBuffer(outQueueY, BUFFER_NUM, tileBytes);
    pipe.InitBuffer(outQueueMean, BUFFER_NUM, statBytes);
    pipe.InitBuffer(outQueueRstd, BUFFER_NUM, statBytes);
    pipe.InitBuffer(gammaBuf, rowBytes);
    pipe.InitBuffer(betaBuf, rowBytes);
    pipe.InitBuffer(rowBuf, rowBytes);
    pipe.InitBuffer(meanBuf, rowBytes);
    pipe.InitBuffer(sqBuf, rowBytes);
    pipe.InitBuffer(workBuf, rowBytes);
    pipe.InitBuffer(statBuf, STAT_LANES * sizeof(float));
    pipe.InitBuffer(onesBuf, STAT_LANES * sizeof(float));
}

template <typename T>
__aicore__ inline void KernelLayerNorm<T>::Process()
{
    if (myRows == 0) {
        return;
    }
    LoadAffine();
    const uint32_t fullTiles = myRows / rowsPerTile;
    const uint32_t tailRows = myRows - fullTiles * rowsPerTile;
    for (uint32_t i = 0; i < fullTiles; ++i) {
        RunBatch(i * rowsPerTile, rowsPerTile);
    }
    if (tailRows > 0) {
        RunBatch(fullTiles * rowsPerTile, tailRows);
    }
}

template <typename T>
__aicore__ inline void KernelLayerNorm<T>::LoadAffineRow(GlobalTensor<T> &src, LocalTensor<float> &dst)
{
    // stage through the input queue: gamma / beta have the element type of x
    LocalTensor<T> staging = inQueueX.AllocTensor<T>();
    DataCopyPadExtParams<T> pad{false, 0, 0, 0};
    DataCopyPad(staging, src, RowParams(1), pad);
    inQueueX.EnQue(staging);
    staging = inQueueX.DeQue<T>();
    ToFloat(dst, staging);
    inQueueX.FreeTensor(staging);
}

template <typename T>
__aicore__ inline void KernelLayerNorm<T>::LoadAffine()
{
    LocalTensor<float> gammaLocal = gammaBuf.Get<float>();
    LocalTensor<float> betaLocal = betaBuf.Get<float>();
    LoadAffineRow(gammaGm, gammaLocal);
    LoadAffineRow(betaGm, betaLocal);
    LocalTensor<float> ones = onesBuf.Get<float>();
    Duplicate<float>(ones, 1.0f, STAT_LANES);
}

template <typename T>
__aicore__ inline void KernelLayerNorm<T>::CopyIn(uint32_t row, uint32_t nRows)
{
    LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
    DataCopyPadExtParams<T> pad{false, 0, 0, 0};
    DataCopyPad(xLocal, xGm[static_cast<uint64_t>(row) * numCols], RowParams(nRows), pad);
    inQueueX.EnQue(xLocal);
}

template <typename T>
__aicore__ inline void KernelLayerNorm<T>::Compute(uint32_t nRows)
{
    LocalTensor<T> xLocal = inQueueX.DeQue<T>();
    LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
    LocalTensor<float> meanLocal = outQueueMean.AllocTensor<float>();
    LocalTensor<float> rstdLocal = outQueueRstd.AllocTensor<float>();
    LocalTensor<float> gammaLocal = gammaBuf.Get<float>();
    LocalTensor<float> betaLocal = betaBuf.Get<float>();
    LocalTensor<float> row = rowBuf.Get<float>();
    LocalTensor<float> meanVec = meanBuf.Get<float>();
    LocalTensor<float> stat = statBuf.Get<float>();

    for (uint32_t r = 0; r < nRows; ++r) {
        const uint32_t offset = r * colsAligned;
        ToFloat(row, xLocal[offset]);

        const float mu = RowMean(row, stat);
        Duplicate<float>(meanVec, mu, numCols);
        Sub(row, row, meanVec, numCols);

        const float rs = RowRstd(row, stat);
        Muls(row, row, rs, numCols);
        Mul(row, row, gammaLocal, numCols);
        Add(row, row, betaLocal, numCols);
        FromFloat(yLocal[offset], row);

        meanLocal.SetValue(r, mu);
        rstdLocal.SetValue(r, rs);
    }

    // the scalar writes of mean / rstd must land before MTE3 reads the buffers
    event_t sToMte3 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
    SetFlag<HardEvent::S_MTE3>(sToMte3);
    WaitFlag<HardEvent::S_MTE3>(sToMte3);
    outQueueY.EnQue(yLocal);
    outQueueMean.EnQue(meanLocal);
    outQueueRstd.EnQue(rstdLocal);
    inQueueX.FreeTensor(xLocal);
}

template <typename T>
__aicore__ inline void KernelLayerNorm<T>::CopyOut(uint32_t row, uint32_t nRows)
{
    LocalTensor<T> yLocal = outQueueY.DeQue<T>();
    LocalTensor<float> meanLocal = outQueueMean.DeQue<float>();
    LocalTensor<float> rstdLocal = outQueueRstd.DeQue<float>();
    DataCopyExtParams statParams{1, static_cast<uint32_t>(nRows * sizeof(float)), 0, 0, 0};
    DataCopyPad(yGm[static_cast<uint64_t>(row) * numCols], yLocal, RowParams(nRows));
    DataCopyPad(meanGm[row], meanLocal, statParams);
    DataCopyPad(rstdGm[row], rstdLocal, statParams);
    outQueueY.FreeTensor(yLocal);
    outQueueMean.FreeTensor(meanLocal);
    outQueueRstd.FreeTensor(rstdLocal);
}

template <typename T>
__aicore__ inline void RunLayerNorm(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean, GM_ADDR rstd,
                                    const LayerNormTilingData &td)
{
    KernelLayerNorm<T> op;
    op.Init(x, gamma, beta, y, mean, rstd, td);
    op.Process();
}

extern "C" __global__ __aicore__ void layer_norm_300(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean,
                                                     GM_ADDR rstd, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(LayerNormTilingData);
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    if (TILING_KEY_IS(1)) {
        RunLayerNorm<half>(x, gamma, beta, y, mean, rstd, tilingData);
    } else if (TILING_KEY_IS(2)) {
        RunLayerNorm<float>(x, gamma, beta, y, mean, rstd, tilingData);
    }
}
