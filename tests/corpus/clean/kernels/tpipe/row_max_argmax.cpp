/**
 * @file row_max_argmax.cpp
 * @brief For x[rows, cols] (fp32): maxOut[r] = max_c x[r, c], argOut[r] = argmax_c x[r, c].
 *
 * ReduceMax with calIndex = true writes the value to dst[0] and the index, bit-cast into the
 * float slot, to dst[1]. Row results are gathered on the scalar unit and each core writes its
 * block of rows once at the end.
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_ROWS_PER_CORE = 256;
}

class KernelRowMax {
public:
    __aicore__ inline KernelRowMax() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR maxOut, GM_ADDR argOut, uint32_t rows, uint32_t cols,
                                uint32_t rowsPerCore)
    {
        this->cols = cols;
        const uint32_t firstRow = rowsPerCore * GetBlockIdx();
        myRows = firstRow >= rows ? 0 : (rows - firstRow < rowsPerCore ? rows - firstRow : rowsPerCore);
        // the host keeps rowsPerCore <= MAX_ROWS_PER_CORE so the row results fit in one buffer
        colsAligned = (cols + 7) / 8 * 8;

        xGm.SetGlobalBuffer((__gm__ float *)x + static_cast<uint64_t>(firstRow) * cols,
                            static_cast<uint64_t>(myRows) * cols);
        maxGm.SetGlobalBuffer((__gm__ float *)maxOut + firstRow, myRows);
        argGm.SetGlobalBuffer((__gm__ int32_t *)argOut + firstRow, myRows);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, colsAligned * sizeof(float));
        pipe.InitBuffer(workBuf, colsAligned * sizeof(float));
        pipe.InitBuffer(resBuf, 8 * sizeof(float));
        pipe.InitBuffer(outQueueMax, 1, MAX_ROWS_PER_CORE * sizeof(float));
        pipe.InitBuffer(outQueueArg, 1, MAX_ROWS_PER_CORE * sizeof(int32_t));
    }

    __aicore__ inline void Process()
    {
        if (myRows == 0) {
            return;
        }
        LocalTensor<float> maxLocal = outQueueMax.AllocTensor<float>();
        LocalTensor<int32_t> argLocal = outQueueArg.AllocTensor<int32_t>();
        for (uint32_t r = 0; r < myRows; ++r) {
            CopyIn(r);
            ComputeRow(r, maxLocal, argLocal);
        }
        CopyOut(maxLocal, argLocal);
    }

private:
    __aicore__ inline void CopyIn(uint32_t row)
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        DataCopyExtParams params{1, cols * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[static_cast<uint64_t>(row) * cols], params, padParams);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline void ComputeRow(uint32_t row, LocalTensor<float> &maxLocal, LocalTensor<int32_t> &argLocal)
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> res = resBuf.Get<float>();
        ReduceMax<float>(res, xLocal, work, cols, true);
        inQueueX.FreeTensor(xLocal);

        event_t vToS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vToS);
        WaitFlag<HardEvent::V_S>(vToS);

        float maxValue = res.GetValue(0);
        float indexBits = res.GetValue(1);
        uint32_t index = *reinterpret_cast<uint32_t *>(&indexBits);
        maxLocal.SetValue(row, maxValue);
        argLocal.SetValue(row, static_cast<int32_t>(index));
    }

    __aicore__ inline void CopyOut(LocalTensor<float> &maxLocal, LocalTensor<int32_t> &argLocal)
    {
        event_t sToMte3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(sToMte3);
        WaitFlag<HardEvent::S_MTE3>(sToMte3);

        DataCopyExtParams maxParams{1, myRows * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyExtParams argParams{1, myRows * static_cast<uint32_t>(sizeof(int32_t)), 0, 0, 0};
        DataCopyPad(maxGm, maxLocal, maxParams);
        DataCopyPad(argGm, argLocal, argParams);
        outQueueMax.FreeTensor(maxLocal);
        outQueueArg.FreeTensor(argLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, 1> outQueueMax;
    TQue<TPosition::VECOUT, 1> outQueueArg;
    TBuf<TPosition::VECCALC> workBuf;
    TBuf<TPosition::VECCALC> resBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> maxGm;
    GlobalTensor<int32_t> argGm;
    uint32_t cols = 0;
    uint32_t colsAligned = 0;
    uint32_t myRows = 0;
};

extern "C" __global__ __aicore__ void row_max_custom(GM_ADDR x, GM_ADDR maxOut, GM_ADDR argOut, GM_ADDR workspace,
                                                     GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelRowMax op;
    op.Init(x, maxOut, argOut, tilingData.rows, tilingData.cols, tilingData.rowsPerCore);
    op.Process();
}
