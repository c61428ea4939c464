/**
 * @file rmsnorm_rows.cpp
 * @brief RMSNorm: y = x * rsqrt(mean(x^2) + eps) * gamma; also emits rstd per row (fp32).
 *
 * Element type comes from the op project (DTYPE_X); half inputs are widened to fp32 before the
 * reduction. Several rows are moved per DataCopy; the host keeps cols a multiple of 16 so every
 * row start inside the tile is 32-byte aligned for both half and float views.
 */
#include "kernel_operator.h"

namespace rmsnorm {

using AscendC::GlobalTensor;
using AscendC::LocalTensor;
using AscendC::TPosition;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelRmsNorm {
public:
    __aicore__ inline KernelRmsNorm() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR rstd, uint32_t rowsPerCore,
                                uint32_t cols, uint32_t rowsPerTile, float eps);
    __aicore__ inline void Process();

private:
    __aicore__ inline void CopyIn(uint32_t rowOffset, uint32_t nRows);
    __aicore__ inline void Compute(uint32_t nRows);
    __aicore__ inline void CopyOut(uint32_t rowOffset, uint32_t nRows);
    __aicore__ inline void NormalizeRow(const LocalTensor<float> &row, LocalTensor<float> &rstdLocal, uint32_t r);

private:
    AscendC::TPipe pipe;
    AscendC::TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TQue<TPosition::VECOUT, BUFFER_NUM> outQueueRstd;
    AscendC::TBuf<TPosition::VECCALC> gammaBuf;
    AscendC::TBuf<TPosition::VECCALC> floatBuf;
    AscendC::TBuf<TPosition::VECCALC> sqBuf;
    AscendC::TBuf<TPosition::VECCALC> workBuf;
    AscendC::TBuf<TPosition::VECCALC> statBuf;
    GlobalTensor<T> xGm;
    GlobalTensor<T> gammaGm;
    GlobalTensor<T> yGm;
    GlobalTensor<float> rstdGm;
    uint32_t rowsPerCore = 0;
    uint32_t cols = 0;
    uint32_t rowsPerTile = 0;
    float eps = 1e-6f;
    float invCols = 1.0f;
};

template <typename T>
__aicore__ inline void KernelRmsNorm<T>::Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR rstd, uint32_t rowsPerCore,
                                              uint32_t cols, uint32_t rowsPerTile, float eps)
{
    this->rowsPerCore = rowsPerCore;
    this->cols = cols;
    this->rowsPerTile = rowsPerTile;
    this->eps = eps;
    this->invCols = 1.0f / static_cast<float>(static_cast<int32_t>(cols));  // via int32: float <-> unsigned casts do not compile for the AI core

    const uint64_t rowStart = static_cast<uint64_t>(rowsPerCore) * AscendC::GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ T *)x + rowStart * cols, static_cast<uint64_t>(rowsPerCore) * cols);
    yGm.SetGlobalBuffer((__gm__ T *)y + rowStart * cols, static_cast<uint64_t>(rowsPerCore) * cols);
    rstdGm.SetGlobalBuffer((__gm__ float *)rstd + rowStart, rowsPerCore);
    gammaGm.SetGlobalBuffer((__gm__ T *)gamma, cols);

    const uint32_t tileElems = rowsPerTile * cols;
    pipe.InitBuffer(inQueueX, BUFFER_NUM, tileElems * sizeof(T));
    pipe.InitBuffer(outQueueY, BUFFER_NUM, tileElems * sizeof(T));
    pipe.InitBuffer(outQueueRstd, BUFFER_NUM, (rowsPerTile + 7) / 8 * 32);
    pipe.InitBuffer(gammaBuf, cols * sizeof(float));
    pipe.InitBuffer(floatBuf, tileElems * sizeof(float));
    pipe.InitBuffer(sqBuf, cols * sizeof(float));
    pipe.InitBuffer(workBuf, cols * sizeof(float));
    pipe.InitBuffer(statBuf, 32);

    // gamma is converted to fp32 once; the staging copy reuses the first row of floatBuf's bytes
    LocalTensor<float> gammaF = gammaBuf.Get<float>();
    if constexpr (std::is_same<T, half>::value) {
        LocalTensor<T> staging = floatBuf.Get<T>();
        AscendC::DataCopy(staging, gammaGm, cols);
        event_t mte2ToV = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_V));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(mte2ToV);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(mte2ToV);
        AscendC::Cast(gammaF, staging, AscendC::RoundMode::CAST_NONE, cols);
    } else {
        AscendC::DataCopy(gammaF, gammaGm, cols);
        event_t mte2ToV = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_V));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(mte2ToV);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(mte2ToV);
    }
}

template <typename T>
__aicore__ inline void KernelRmsNorm<T>::Process()
{
    for (uint32_t row = 0; row < rowsPerCore; row += rowsPerTile) {
        const uint32_t nRows = rowsPerCore - row < rowsPerTile ? rowsPerCore - row : rowsPerTile;
        CopyIn(row, nRows);
        Compute(nRows);
        CopyOut(row, nRows);
    }
}

template <typename T>
__aicore__ inline void KernelRmsNorm<T>::CopyIn(uint32_t rowOffset, uint32_t nRows)
{
    LocalTensor<T> xLocal = inQueueX.template AllocTensor<T>();
    AscendC::DataCopy(xLocal, xGm[static_cast<uint64_t>(rowOffset) * cols], nRows * cols);
    inQueueX.EnQue(xLocal);
}

template <typename T>
__aicore__ inline void KernelRmsNorm<T>::NormalizeRow(const LocalTensor<float> &row, LocalTensor<float> &rstdLocal,
                                                      uint32_t r)
{
    LocalTensor<float> sq = sqBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    LocalTensor<float> stat = statBuf.Get<float>();
    LocalTensor<float> gammaF = gammaBuf.Get<float>();

    AscendC::Mul(sq, row, row, cols);
    AscendC::ReduceSum<float>(stat, sq, work, cols);
    AscendC::Muls(stat, stat, invCols, 1);
    AscendC::Adds(stat, stat, eps, 1);
    AscendC::Rsqrt(stat, stat, 1);

    event_t vToS = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
    AscendC::SetFlag<AscendC::HardEvent::V_S>(vToS);
    AscendC::WaitFlag<AscendC::HardEvent::V_S>(vToS);
    const float rstdValue = stat.GetValue(0);
    rstdLocal.SetValue(r, rstdValue);
    event_t sToV = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::S_V));
    AscendC::SetFlag<AscendC::HardEvent::S_V>(sToV);
    AscendC::WaitFlag<AscendC::HardEvent::S_V>(sToV);

    AscendC::Muls(row, row, rstdValue, cols);
    AscendC::Mul(row, row, gammaF, cols);
}

template <typename T>
__aicore__ inline void KernelRmsNorm<T>::Compute(uint32_t nRows)
{
    LocalTensor<T> xLocal = inQueueX.template DeQue<T>();
    LocalTensor<T> yLocal = outQueueY.template AllocTensor<T>();
    LocalTensor<float> rstdLocal = outQueueRstd.template AllocTensor<float>();
    LocalTensor<float> xF = floatBuf.Get<float>();

    if constexpr (std::is_same<T, half>::value) {
        AscendC::Cast(xF, xLocal, AscendC::RoundMode::CAST_NONE, nRows * cols);
    } else {
        AscendC::DataCopy(xF, xLocal, nRows * cols);
    }
    inQueueX.FreeTensor(xLocal);

    for (uint32_t r = 0; r < nRows; ++r) {
        LocalTensor<float> row = xF[r * cols];
        NormalizeRow(row, rstdLocal, r);
    }

    if constexpr (std::is_same<T, half>::value) {
        AscendC::Cast(yLocal, xF, AscendC::RoundMode::CAST_ROUND, nRows * cols);
    } else {
        AscendC::DataCopy(yLocal, xF, nRows * cols);
    }
    outQueueY.EnQue(yLocal);
    outQueueRstd.EnQue(rstdLocal);
}

template <typename T>
__aicore__ inline void KernelRmsNorm<T>::CopyOut(uint32_t rowOffset, uint32_t nRows)
{
    LocalTensor<T> yLocal = outQueueY.template DeQue<T>();
    LocalTensor<float> rstdLocal = outQueueRstd.template DeQue<float>();
    AscendC::DataCopy(yGm[static_cast<uint64_t>(rowOffset) * cols], yLocal, nRows * cols);
    AscendC::DataCopyExtParams rstdParams{1, static_cast<uint32_t>(nRows * sizeof(float)), 0, 0, 0};
    AscendC::DataCopyPad(rstdGm[rowOffset], rstdLocal, rstdParams);
    outQueueY.FreeTensor(yLocal);
    outQueueRstd.FreeTensor(rstdLocal);
}

} // namespace rmsnorm

extern "C" __global__ __aicore__ void rms_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR rstd,
                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    rmsnorm::KernelRmsNorm<DTYPE_X> op;
    op.Init(x, gamma, y, rstd, tilingData.rowsPerCore, tilingData.cols, tilingData.rowsPerTile, tilingData.eps);
    op.Process();
}
