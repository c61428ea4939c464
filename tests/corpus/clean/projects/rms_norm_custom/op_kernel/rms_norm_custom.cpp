/**
 * @file rms_norm_custom.cpp
 * @brief RmsNormCustom kernel: y = x / sqrt(mean(x^2) + eps) * gamma,  rstd = 1 / sqrt(mean(x^2) + eps).
 *
 * TilingKey 0: fp16 (statistics in fp32), TilingKey 1: fp32.
 */
#include "kernel_operator.h"
#include "rms_norm_custom_tiling.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t STAT_ELEMS = 8;

template <typename T>
struct ComputeTypeOf {
    using type = float; // fp16 and fp32 both accumulate in fp32
};
} // namespace

template <typename T>
class KernelRmsNorm {
    using CT = typename ComputeTypeOf<T>::type;
    static constexpr bool IS_HALF = std::is_same<T, half>::value;

public:
    __aicore__ inline KernelRmsNorm() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR rstd, const RmsNormCustomTilingData &td)
    {
        numCols = td.numCols;
        colsAligned = td.colsAligned;
        eps = td.epsilon;
        avgFactor = td.avgFactor;
        const uint32_t firstRow = td.rowsPerCore * GetBlockIdx();
        const uint32_t left = td.numRows > firstRow ? td.numRows - firstRow : 0;
        myRows = left < td.rowsPerCore ? left : td.rowsPerCore;

        const uint64_t base = static_cast<uint64_t>(firstRow) * numCols;
        xGm.SetGlobalBuffer((__gm__ T *)x + base, static_cast<uint64_t>(myRows) * numCols);
        yGm.SetGlobalBuffer((__gm__ T *)y + base, static_cast<uint64_t>(myRows) * numCols);
        rstdGm.SetGlobalBuffer((__gm__ float *)rstd + firstRow, myRows);
        gammaGm.SetGlobalBuffer((__gm__ T *)gamma, numCols);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, colsAligned * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, colsAligned * sizeof(T));
        pipe.InitBuffer(outQueueRstd, BUFFER_NUM, STAT_ELEMS * sizeof(float));
        pipe.InitBuffer(gammaBuf, colsAligned * sizeof(CT));
        pipe.InitBuffer(rowBuf, colsAligned * sizeof(CT));
        pipe.InitBuffer(sqBuf, colsAligned * sizeof(CT));
        pipe.InitBuffer(workBuf, colsAligned * sizeof(CT));
    }

    __aicore__ inline void Process()
    {
        if (myRows == 0) {
            return;
        }
        LoadGamma();
        for (uint32_t r = 0; r < myRows; ++r) {
            CopyIn(r);
            Compute();
            CopyOut(r);
        }
    }

private:
    __aicore__ inline DataCopyExtParams RowParams() const
    {
        return DataCopyExtParams{1, static_cast<uint32_t>(numCols * sizeof(T)), 0, 0, 0};
    }

    __aicore__ inline void LoadGamma()
    {
        LocalTensor<T> staging = inQueueX.AllocTensor<T>();
        DataCopyPad(staging, gammaGm, RowParams(), DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQueueX.EnQue(staging);
        staging = inQueueX.DeQue<T>();
        LocalTensor<CT> gammaLocal = gammaBuf.Get<CT>();
        if constexpr (IS_HALF) {
            Cast(gammaLocal, staging, RoundMode::CAST_NONE, numCols);
        } else {
            Adds(gammaLocal, staging, static_cast<CT>(0), numCols);
        }
        inQueueX.FreeTensor(staging);
    }

    __aicore__ inline void CopyIn(uint32_t r)
    {
        LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        DataCopyPad(xLocal, xGm[static_cast<uint64_t>(r) * numCols], RowParams(),
                    DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        LocalTensor<float> rstdLocal = outQueueRstd.AllocTensor<float>();
        LocalTensor<CT> row = rowBuf.Get<CT>();
        LocalTensor<CT> sq = sqBuf.Get<CT>();
        LocalTensor<CT> gammaLocal = gammaBuf.Get<CT>();

        if constexpr (IS_HALF) {
            Cast(row, xLocal, RoundMode::CAST_NONE, numCols);
        } else {
            Adds(row, xLocal, static_cast<CT>(0), numCols);
        }
        inQueueX.FreeTensor(xLocal);

        Mul(sq, row, row, numCols);
        ReduceSum<CT>(rstdLocal, sq, workBuf.Get<CT>(), numCols);
        Muls(rstdLocal, rstdLocal, avgFactor, 1);
        Adds(rstdLocal, rstdLocal, eps, 1);
        Rsqrt(rstdLocal, rstdLocal, 1);

        event_t vToS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vToS);
        WaitFlag<HardEvent::V_S>(vToS);
        const float rstdValue = rstdLocal.GetValue(0);

        Muls(row, row, rstdValue, numCols);
        Mul(row, row, gammaLocal, numCols);
        if constexpr (IS_HALF) {
            Cast(yLocal, row, RoundMode::CAST_RINT, numCols);
        } else {
            Adds(yLocal, row, static_cast<CT>(0), numCols);
        }
        outQueueY.EnQue(yLocal);
        outQueueRstd.EnQue(rstdLocal);
    }

    __aicore__ inline void CopyOut(uint32_t r)
    {
        LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        LocalTensor<float> rstdLocal = outQueueRstd.DeQue<float>();
        DataCopyPad(yGm[static_cast<uint64_t>(r) * numCols], yLocal, RowParams());
        DataCopyPad(rstdGm[r], rstdLocal, DataCopyExtParams{1, sizeof(float), 0, 0, 0});
        outQueueY.FreeTensor(yLocal);
        outQueueRstd.FreeTensor(rstdLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueY;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueRstd;
    TBuf<TPosition::VECCALC> gammaBuf;
    TBuf<TPosition::VECCALC> rowBuf;
    TBuf<TPosition::VECCALC> sqBuf;
    TBuf<TPosition::VECCALC> workBuf;
    GlobalTensor<T> xGm;
    GlobalTensor<T> gammaGm;
    GlobalTensor<T> yGm;
    GlobalTensor<float> rstdGm;
    uint32_t numCols = 0;
    uint32_t colsAligned = 0;
    uint32_t myRows = 0;
    float eps = 0.0f;
    float avgFactor = 0.0f;
};

extern "C" __global__ __aicore__ void rms_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR rstd,
                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(RmsNormCustomTilingData);
    GET_TILING_DATA_WITH_STRUCT(RmsNormCustomTilingData, tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    if (TILING_KEY_IS(0)) {
        KernelRmsNorm<half> op;
        op.Init(x, gamma, y, rstd, tilingData);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        KernelRmsNorm<float> op;
        op.Init(x, gamma, y, rstd, tilingData);
        op.Process();
    }
}
