/**
 * @file softmax_rows.cpp
 * @brief Row-wise softmax over the last axis of an fp16 [rows, cols] tensor, computed in fp32.
 *
 *   m = max(x_r);  e = exp(x_r - m);  y_r = e / sum(e)
 *
 * One row per iteration; each core takes a contiguous block of rows.
 * The row must fit in UB (cols <= 8192 on A2 with the buffers below).
 */
#include "kernel_operator.h"

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t HALF_ALIGN = 16; // halves per 32-byte block
} // namespace

class KernelSoftmaxRows {
public:
    __aicore__ inline KernelSoftmaxRows() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols)
    {
        const uint32_t blockNum = AscendC::GetBlockNum();
        const uint32_t blockIdx = AscendC::GetBlockIdx();
        const uint32_t base = rows / blockNum;
        const uint32_t extra = rows % blockNum;
        rowCount = base + (blockIdx < extra ? 1U : 0U);
        const uint32_t rowStart = base * blockIdx + (blockIdx < extra ? blockIdx : extra);

        this->cols = cols;
        colsPadded = (cols + HALF_ALIGN - 1) / HALF_ALIGN * HALF_ALIGN;

        const uint64_t elemStart = static_cast<uint64_t>(rowStart) * cols;
        xGm.SetGlobalBuffer((__gm__ half *)x + elemStart, static_cast<uint64_t>(rowCount) * cols);
        yGm.SetGlobalBuffer((__gm__ half *)y + elemStart, static_cast<uint64_t>(rowCount) * cols);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, colsPadded * sizeof(half));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, colsPadded * sizeof(half));
        pipe.InitBuffer(rowBuf, colsPadded * sizeof(float));
        pipe.InitBuffer(workBuf, colsPadded * sizeof(float));
        pipe.InitBuffer(scalarBuf, 32);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowCount; ++r) {
            CopyIn(r);
            Compute();
            CopyOut(r);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t r)
    {
        AscendC::LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(cols * sizeof(half)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<half> pad{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[static_cast<uint64_t>(r) * cols], params, pad);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline float ReadScalar(const AscendC::LocalTensor<float> &t)
    {
        event_t eventId = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(eventId);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(eventId);
        return t.GetValue(0);
    }

    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        AscendC::LocalTensor<half> yLocal = outQueueY.AllocTensor<half>();
        AscendC::LocalTensor<float> row = rowBuf.Get<float>();
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> scalar = scalarBuf.Get<float>();

        AscendC::Cast(row, xLocal, AscendC::RoundMode::CAST_NONE, cols);
        inQueueX.FreeTensor(xLocal);

        AscendC::ReduceMax<float>(scalar, row, work, cols);
        const float rowMax = ReadScalar(scalar);
        AscendC::Adds(row, row, -rowMax, cols);
        AscendC::Exp(row, row, cols);

        AscendC::ReduceSum<float>(scalar, row, work, cols);
        const float rowSum = ReadScalar(scalar);
        AscendC::Muls(row, row, 1.0f / rowSum, cols);

        AscendC::Cast(yLocal, row, AscendC::RoundMode::CAST_ROUND, cols);
        outQueueY.EnQue(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t r)
    {
        AscendC::LocalTensor<half> yLocal = outQueueY.DeQue<half>();
        AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(cols * sizeof(half)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[static_cast<uint64_t>(r) * cols], yLocal, params);
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> rowBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> workBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> scalarBuf;
    AscendC::GlobalTensor<half> xGm;
    AscendC::GlobalTensor<half> yGm;
    uint32_t rowCount = 0;
    uint32_t cols = 0;
    uint32_t colsPadded = 0;
};

extern "C" __global__ __aicore__ void softmax_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelSoftmaxRows op;
    op.Init(x, y, tilingData.rows, tilingData.cols);
    op.Process();
}
