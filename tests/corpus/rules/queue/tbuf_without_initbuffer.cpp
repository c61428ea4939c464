// A row reduction whose work TBuf was never given memory: Init sets up the queues and the statistics TBuf but
// forgets InitBuffer(workBuf, ...), so workBuf.Get hands ReduceSum a tensor with no address (the TBuf's buffer
// record is set only by InitBuffer). statBuf gets its memory on one path only, behind a tiling flag the check
// cannot follow, and scratchBuf is handed to a helper the check does not follow: neither is reported.
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void PrepareScratch(TPipe &pipe, TBuf<TPosition::VECCALC> &buf, uint32_t bytes);

class KernelRowSum {
public:
    __aicore__ inline KernelRowSum() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t cols, uint32_t withStat)
    {
        this->cols = cols;
        this->withStat = withStat;
        xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * cols, cols);
        yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * 8, 8);
        pipe.InitBuffer(inQueue, 1, cols * sizeof(float));
        pipe.InitBuffer(outQueue, 1, 32);
        if (withStat != 0) {
            pipe.InitBuffer(statBuf, 32);
        }
        PrepareScratch(pipe, scratchBuf, 32);
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> x = inQueue.AllocTensor<float>();
        DataCopy(x, xGm, cols);
        inQueue.EnQue(x);
        x = inQueue.DeQue<float>();
        LocalTensor<float> y = outQueue.AllocTensor<float>();
        ReduceSum<float>(y, x, workBuf.Get<float>(), cols);  // expected-error {{workBuf.Get hands out a tensor of a TBuf no InitBuffer gives memory: its address and length are not set}} [ASC213]
        if (withStat != 0) {
            LocalTensor<float> stat = statBuf.Get<float>();
            Duplicate(stat, 0.0f, 8);
        }
        LocalTensor<float> scratch = scratchBuf.Get<float>();
        Duplicate(scratch, 1.0f, 8);
        outQueue.EnQue(y);
        inQueue.FreeTensor(x);
        y = outQueue.DeQue<float>();
        DataCopy(yGm, y, 8);
        outQueue.FreeTensor(y);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> workBuf;  // expected-note {{workBuf is declared here and never passed to InitBuffer}}
    TBuf<TPosition::VECCALC> statBuf;
    TBuf<TPosition::VECCALC> scratchBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    uint32_t cols = 0;
    uint32_t withStat = 0;
};

extern "C" __global__ __aicore__ void row_sum(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelRowSum op;
    op.Init(x, y, tilingData.cols, tilingData.withStat);
    op.Process();
}
