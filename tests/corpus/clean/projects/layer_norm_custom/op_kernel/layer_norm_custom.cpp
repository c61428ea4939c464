/**
 * @file layer_norm_custom.cpp
 * @brief LayerNormCustom kernel: y = (x - mean) * rstd * gamma + beta, plus mean / rstd per row.
 *
 * Rows are moved with one multi-block DataCopyPad per tile, so any numCols works: each row
 * lands in UB at a pitch of colsAligned floats (DataCopyPad pads every block to 32 bytes).
 */
#include "kernel_operator.h"

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t STAT_LANES = 8;
} // namespace

class KernelLayerNorm {
public:
    __aicore__ inline KernelLayerNorm() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean, GM_ADDR rstd,
                                const LayerNormCustomTilingData &td)
    {
        numCols = td.numCols;
        colsAligned = td.colsAligned;
        rowsPerTile = td.rowsPerTile;
        eps = td.epsilon;
        invCols = td.invCols;
        const uint32_t firstRow = td.rowsPerCore * AscendC::GetBlockIdx();
        myRows = (firstRow < td.numRows) ? ((td.numRows - firstRow) < td.rowsPerCore ? (td.numRows - firstRow)
                                                                                       : td.rowsPerCore)
                                         : 0;

        const uint64_t elemBase = static_cast<uint64_t>(firstRow) * numCols;
        xGm.SetGlobalBuffer((__gm__ float *)x + elemBase, static_cast<uint64_t>(myRows) * numCols);
        yGm.SetGlobalBuffer((__gm__ float *)y + elemBase, static_cast<uint64_t>(myRows) * numCols);
        meanGm.SetGlobalBuffer((__gm__ float *)mean + firstRow, myRows);
        rstdGm.SetGlobalBuffer((__gm__ float *)rstd + firstRow, myRows);
        gammaGm.SetGlobalBuffer((__gm__ float *)gamma, numCols);
        betaGm.SetGlobalBuffer((__gm__ float *)beta, numCols);

        const uint32_t tileBytes = rowsPerTile * colsAligned * sizeof(float);
        const uint32_t statBytes = (rowsPerTile + STAT_LANES - 1) / STAT_LANES * STAT_LANES * sizeof(float);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(outQueueMean, 1, statBytes);
        pipe.InitBuffer(outQueueRstd, 1, statBytes);
        pipe.InitBuffer(gammaBuf, colsAligned * sizeof(float));
        pipe.InitBuffer(betaBuf, colsAligned * sizeof(float));
        pipe.InitBuffer(sqBuf, colsAligned * sizeof(float));
        pipe.InitBuffer(workBuf, colsAligned * sizeof(float));
        pipe.InitBuffer(statBuf, STAT_LANES * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (myRows == 0) {
            return;
        }
        LoadAffine();
        for (uint32_t row = 0; row < myRows; row += rowsPerTile) {
            const uint32_t nRows = (myRows - row) < rowsPerTile ? (myRows - row) : rowsPerTile;
            CopyIn(row, nRows);
            Compute(nRows);
            CopyOut(row, nRows);
        }
    }

private:
    __aicore__ inline void LoadAffine()
    {
        AscendC::DataCopyExtParams params{1, numCols * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(gammaBuf.Get<float>(), gammaGm, params, pad);
        AscendC::DataCopyPad(betaBuf.Get<float>(), betaGm, params, pad);
        event_t mte2ToV = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_V));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(mte2ToV);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(mte2ToV);
    }

    __aicore__ inline void CopyIn(uint32_t row, uint32_t nRows)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::DataCopyExtParams params{static_cast<uint16_t>(nRows), numCols * static_cast<uint32_t>(sizeof(float)),
                                          0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(xLocal, xGm[static_cast<uint64_t>(row) * numCols], params, pad);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline float ScalarOf(const AscendC::LocalTensor<float> &t)
    {
        event_t vToS = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(vToS);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(vToS);
        return t.GetValue(0);
    }

    __aicore__ inline void Compute(uint32_t nRows)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        AscendC::LocalTensor<float> meanLocal = outQueueMean.AllocTensor<float>();
        AscendC::LocalTensor<float> rstdLocal = outQueueRstd.AllocTensor<float>();
        AscendC::LocalTensor<float> gammaLocal = gammaBuf.Get<float>();
        AscendC::LocalTensor<float> betaLocal = betaBuf.Get<float>();
        AscendC::LocalTensor<float> sq = sqBuf.Get<float>();
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> stat = statBuf.Get<float>();

        for (uint32_t r = 0; r < nRows; ++r) {
            AscendC::LocalTensor<float> xRow = xLocal[r * colsAligned];
            AscendC::LocalTensor<float> yRow = yLocal[r * colsAligned];

            AscendC::ReduceSum<float>(stat, xRow, work, numCols);
            const float mu = ScalarOf(stat) * invCols;
            AscendC::Adds(yRow, xRow, -mu, numCols);

            AscendC::Mul(sq, yRow, yRow, numCols);
            AscendC::ReduceSum<float>(stat, sq, work, numCols);
            const float var = ScalarOf(stat) * invCols;
            AscendC::Duplicate<float>(stat, var + eps, STAT_LANES);
            AscendC::Rsqrt(stat, stat, STAT_LANES);
            const float rs = ScalarOf(stat);

            AscendC::Muls(yRow, yRow, rs, numCols);
            AscendC::Mul(yRow, yRow, gammaLocal, numCols);
            AscendC::Add(yRow, yRow, betaLocal, numCols);
            meanLocal.SetValue(r, mu);
            rstdLocal.SetValue(r, rs);
        }

        event_t sToMte3 = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::S_MTE3));
        AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(sToMte3);
        AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(sToMte3);
        outQueueY.EnQue(yLocal);
        outQueueMean.EnQue(meanLocal);
        outQueueRstd.EnQue(rstdLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t nRows)
    {
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        AscendC::LocalTensor<float> meanLocal = outQueueMean.DeQue<float>();
        AscendC::LocalTensor<float> rstdLocal = outQueueRstd.DeQue<float>();
        AscendC::DataCopyExtParams yParams{static_cast<uint16_t>(nRows), numCols * static_cast<uint32_t>(sizeof(float)),
                                           0, 0, 0};
        AscendC::DataCopyExtParams statParams{1, nRows * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[static_cast<uint64_t>(row) * numCols], yLocal, yParams);
        AscendC::DataCopyPad(meanGm[row], meanLocal, statParams);
        AscendC::DataCopyPad(rstdGm[row], rstdLocal, statParams);
        outQueueY.FreeTensor(yLocal);
        outQueueMean.FreeTensor(meanLocal);
        outQueueRstd.FreeTensor(rstdLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueueMean;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueueRstd;
    AscendC::TBuf<AscendC::TPosition::VECCALC> gammaBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> betaBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> sqBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> workBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> statBuf;
    AscendC::GlobalTensor<float> xGm, gammaGm, betaGm, yGm, meanGm, rstdGm;
    uint32_t numCols = 0;
    uint32_t colsAligned = 0;
    uint32_t rowsPerTile = 0;
    uint32_t myRows = 0;
    float eps = 0.0f;
    float invCols = 0.0f;
};

extern "C" __global__ __aicore__ void layer_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                        GM_ADDR mean, GM_ADDR rstd, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelLayerNorm op;
    op.Init(x, gamma, beta, y, mean, rstd, tilingData);
    op.Process();
}
