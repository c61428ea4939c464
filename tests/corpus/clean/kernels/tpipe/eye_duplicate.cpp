/**
 * @file eye_duplicate.cpp
 * @brief Batched identity (or anti-identity) matrices: y[b] = eye(numRows, numCols), fp32.
 *
 * Every matrix is zero-filled with Duplicate on the vector unit, the ones are placed with
 * scalar SetValue, and the tile is written back with DataCopyPad. The vector -> scalar and
 * scalar -> MTE3 hand-offs are synchronised explicitly.
 */
#include "kernel_operator.h"

using namespace AscendC;

enum DiagKind : uint32_t {
    MAIN_DIAGONAL = 0,
    ANTI_DIAGONAL = 1,
};

constexpr int32_t BUFFER_NUM = 2;

class KernelEye {
public:
    __aicore__ inline KernelEye() {}

    __aicore__ inline void Init(GM_ADDR y, uint32_t batch, uint32_t numRows, uint32_t numCols, uint32_t kind)
    {
        this->numRows = numRows;
        this->numCols = numCols;
        this->kind = static_cast<DiagKind>(kind);
        matrixSize = numRows * numCols;

        const uint32_t blockNum = GetBlockNum();
        const uint32_t blockIdx = GetBlockIdx();
        const uint32_t per = (batch + blockNum - 1) / blockNum;
        firstBatch = per * blockIdx;
        myBatches = firstBatch >= batch ? 0 : ((batch - firstBatch) < per ? (batch - firstBatch) : per);

        yGm.SetGlobalBuffer((__gm__ float *)y, static_cast<uint64_t>(batch) * matrixSize);
        const uint32_t alignedBytes = (matrixSize * sizeof(float) + 31) & ~31U;
        pipe.InitBuffer(outQueueY, BUFFER_NUM, alignedBytes);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t b = 0; b < myBatches; ++b) {
            Compute();
            CopyOut(firstBatch + b);
        }
    }

private:
    __aicore__ inline void Compute()
    {
        LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        Duplicate<float>(yLocal, 0.0f, matrixSize);

        event_t vToS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vToS);
        WaitFlag<HardEvent::V_S>(vToS);

        const uint32_t diagLen = numRows < numCols ? numRows : numCols;
        if (diagLen != 0) {
            uint32_t i = 0;
            do {
                const uint32_t col = (kind == ANTI_DIAGONAL) ? (numCols - 1 - i) : i;
                yLocal.SetValue(i * numCols + col, 1.0f);
                ++i;
            } while (i < diagLen);
        }

        event_t sToMte3 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(sToMte3);
        WaitFlag<HardEvent::S_MTE3>(sToMte3);
        outQueueY.EnQue(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t batchIdx)
    {
        LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        DataCopyExtParams params{1, matrixSize * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[static_cast<uint64_t>(batchIdx) * matrixSize], yLocal, params);
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueY;
    GlobalTensor<float> yGm;
    DiagKind kind = MAIN_DIAGONAL;
    uint32_t numRows = 0;
    uint32_t numCols = 0;
    uint32_t matrixSize = 0;
    uint32_t firstBatch = 0;
    uint32_t myBatches = 0;
};

extern "C" __global__ __aicore__ void eye_custom(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelEye op;
    op.Init(y, tilingData.batch, tilingData.numRows, tilingData.numCols, tilingData.diagKind);
    op.Process();
}
