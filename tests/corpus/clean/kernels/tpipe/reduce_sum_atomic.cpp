/**
 * @file reduce_sum_atomic.cpp
 * @brief y[0] = sum(x) over an fp32 vector.
 *
 * Each core reduces its slice tile by tile with ReduceSum, pulls the tile result to the scalar
 * unit (GetValue after a V->S flag), keeps a running sum, and finally atomically adds its partial
 * into y. The caller zero-fills y before launch.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t ONE_BLOCK_FLOATS = 32 / sizeof(float);

class KernelReduceSum {
public:
    __aicore__ inline KernelReduceSum() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalLength, uint32_t tileLength)
    {
        const uint32_t blockNum = GetBlockNum();
        const uint32_t perCore = (totalLength / blockNum) / ONE_BLOCK_FLOATS * ONE_BLOCK_FLOATS;
        const uint32_t blockIdx = GetBlockIdx();
        // the last core also takes whatever the even split left over
        coreLength = (blockIdx == blockNum - 1) ? totalLength - perCore * (blockNum - 1) : perCore;
        this->tileLength = tileLength;

        xGm.SetGlobalBuffer((__gm__ float *)x + perCore * blockIdx, coreLength);
        yGm.SetGlobalBuffer((__gm__ float *)y, 1);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueY, 1, ONE_BLOCK_FLOATS * sizeof(float));
        pipe.InitBuffer(workBuf, tileLength * sizeof(float));
        pipe.InitBuffer(sumBuf, ONE_BLOCK_FLOATS * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        float partial = 0.0f;
        const uint32_t tiles = (coreLength + tileLength - 1) / tileLength;
        for (uint32_t i = 0; i < tiles; ++i) {
            const uint32_t len = (i + 1 == tiles) ? coreLength - i * tileLength : tileLength;
            CopyIn(i * tileLength, len);
            partial += Compute(len);
        }
        CopyOut(partial);
    }

private:
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t len)
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }

    __aicore__ inline float Compute(uint32_t len)
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> sum = sumBuf.Get<float>();
        ReduceSum(sum, xLocal, work, len);
        inQueueX.FreeTensor(xLocal);

        event_t eventIdVToS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(eventIdVToS);
        WaitFlag<HardEvent::V_S>(eventIdVToS);
        return sum.GetValue(0);
    }

    __aicore__ inline void CopyOut(float partial)
    {
        LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        yLocal.SetValue(0, partial);

        event_t eventIdSToMte3 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(eventIdSToMte3);
        WaitFlag<HardEvent::S_MTE3>(eventIdSToMte3);

        SetAtomicAdd<float>();
        DataCopyExtParams copyParams{1, static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm, yLocal, copyParams);
        SetAtomicNone();
        outQueueY.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, 1> outQueueY;
    TBuf<TPosition::VECCALC> workBuf;
    TBuf<TPosition::VECCALC> sumBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void reduce_sum_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelReduceSum op;
    op.Init(x, y, tilingData.totalLength, tilingData.tileLength);
    op.Process();
}
