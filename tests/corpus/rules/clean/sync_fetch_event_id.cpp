// Clean: a TPipe kernel that takes its event ids from the pipe (FetchEventID / AllocEventID) instead of
// hard-coding them; ids that are not constants are not paired by the rules.
#include "kernel_operator.h"
using namespace AscendC;

class KernelRowMax {
public:
    __aicore__ inline KernelRowMax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x, 1024);
        yGm.SetGlobalBuffer((__gm__ float *)y, 8);
        pipe.InitBuffer(inQ, 1, 1024 * sizeof(float));
        pipe.InitBuffer(maxBuf, 64 * sizeof(float));
        pipe.InitBuffer(workBuf, 1024 * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> xLocal = inQ.AllocTensor<float>();
        DataCopy(xLocal, xGm, 1024);
        inQ.EnQue(xLocal);
        LocalTensor<float> xIn = inQ.DeQue<float>();
        LocalTensor<float> m = maxBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        ReduceMax(m, xIn, work, 1024);
        event_t vToS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(vToS);
        WaitFlag<HardEvent::V_S>(vToS);
        float maxValue = m.GetValue(0);
        yGm.SetValue(0, maxValue);
        inQ.FreeTensor(xIn);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TBuf<TPosition::VECCALC> maxBuf;
    TBuf<TPosition::VECCALC> workBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
};

extern "C" __global__ __aicore__ void row_max(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelRowMax op;
    op.Init(x, y);
    op.Process();
}
