/**
 * @file layernorm_rows.cpp
 * @brief LayerNorm over the last axis, fp32: y = (x - mean) / sqrt(var + eps) * gamma + beta.
 *
 * gamma / beta are loaded once per core into a TBuf and reused for every row. Statistics are
 * reduced with ReduceSum; the square root is taken on a one-element vector because device code
 * has no libm.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

struct RowRange {
    uint32_t start;
    uint32_t count;
};

__aicore__ inline RowRange SplitRows(uint32_t rows, uint32_t blockIdx, uint32_t blockNum)
{
    RowRange range{};
    const uint32_t per = rows / blockNum;
    const uint32_t rem = rows % blockNum;
    range.count = per + (blockIdx < rem);
    range.start = blockIdx * per + (blockIdx < rem ? blockIdx : rem);
    return range;
}

class KernelLayerNorm {
public:
    __aicore__ inline KernelLayerNorm() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, uint32_t rows, uint32_t cols,
                                float eps)
    {
        RowRange range = SplitRows(rows, GetBlockIdx(), GetBlockNum());
        rowCount = range.count;
        this->cols = cols;
        this->eps = eps;
        invCols = 1.0f / static_cast<float>(static_cast<int32_t>(cols));  // via int32: float <-> unsigned casts do not compile for the AI core

        const uint64_t offset = static_cast<uint64_t>(range.start) * cols;
        xGm.SetGlobalBuffer((__gm__ float *)x + offset, static_cast<uint64_t>(rowCount) * cols);
        yGm.SetGlobalBuffer((__gm__ float *)y + offset, static_cast<uint64_t>(rowCount) * cols);
        gammaGm.SetGlobalBuffer((__gm__ float *)gamma, cols);
        betaGm.SetGlobalBuffer((__gm__ float *)beta, cols);

        const uint32_t rowBytes = cols * sizeof(float); // host keeps cols % 8 == 0
        pipe.InitBuffer(inQueueX, BUFFER_NUM, rowBytes);
        pipe.InitBuffer(outQueueY, BUFFER_NUM, rowBytes);
        pipe.InitBuffer(gammaBuf, rowBytes);
        pipe.InitBuffer(betaBuf, rowBytes);
        pipe.InitBuffer(workBuf, rowBytes);
        pipe.InitBuffer(sqBuf, rowBytes);
        pipe.InitBuffer(statBuf, 64);
    }

    __aicore__ inline void Process()
    {
        LoadAffine();
        for (uint32_t r = 0; r < rowCount; ++r) {
            CopyIn(r);
            Compute();
            CopyOut(r);
        }
    }

private:
    __aicore__ inline void LoadAffine()
    {
        LocalTensor<float> gammaLocal = gammaBuf.Get<float>();
        LocalTensor<float> betaLocal = betaBuf.Get<float>();
        DataCopy(gammaLocal, gammaGm, cols);
        DataCopy(betaLocal, betaGm, cols);
        event_t mte2ToV = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(mte2ToV);
        WaitFlag<HardEvent::MTE2_V>(mte2ToV);
    }

    __aicore__ inline void CopyIn(uint32_t r)
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        DataCopy(xLocal, xGm[static_cast<uint64_t>(r) * cols], cols);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline float VectorToScalar(const LocalTensor<float> &src)
    {
        event_t vToS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vToS);
        WaitFlag<HardEvent::V_S>(vToS);
        return src.GetValue(0);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> stat = statBuf.Get<float>();

        ReduceSum<float>(stat, xLocal, work, cols);
        const float mean = VectorToScalar(stat) * invCols;

        Adds(yLocal, xLocal, -mean, cols);      // centered
        LocalTensor<float> sq = sqBuf.Get<float>();
        Mul(sq, yLocal, yLocal, cols);          // squared
        ReduceSum<float>(stat, sq, work, cols);
        Muls(stat, stat, invCols, 1);
        Adds(stat, stat, eps, 1);
        Sqrt(stat, stat, 1);
        const float rstd = 1.0f / VectorToScalar(stat);

        LocalTensor<float> gammaLocal = gammaBuf.Get<float>();
        LocalTensor<float> betaLocal = betaBuf.Get<float>();
        Muls(yLocal, yLocal, rstd, cols);
        Mul(yLocal, yLocal, gammaLocal, cols);
        Add(yLocal, yLocal, betaLocal, cols);

        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t r)
    {
        LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        DataCopy(yGm[static_cast<uint64_t>(r) * cols], yLocal, cols);
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueY;
    TBuf<TPosition::VECCALC> gammaBuf;
    TBuf<TPosition::VECCALC> betaBuf;
    TBuf<TPosition::VECCALC> workBuf;
    TBuf<TPosition::VECCALC> sqBuf;
    TBuf<TPosition::VECCALC> statBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> gammaGm;
    GlobalTensor<float> betaGm;
    GlobalTensor<float> yGm;
    uint32_t rowCount = 0;
    uint32_t cols = 0;
    float eps = 1e-5f;
    float invCols = 0.0f;
};

extern "C" __global__ __aicore__ void layer_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelLayerNorm op;
    op.Init(x, gamma, beta, y, tilingData.rows, tilingData.cols, tilingData.eps);
    op.Process();
}
