// A TPipe kernel in the class style that hands a scalar result to the vector pipe with S_V but forgets
// the WaitFlag: the flag stays set after the kernel.
#include "kernel_operator.h"
using namespace AscendC;

class KernelScale {
public:
    __aicore__ inline KernelScale() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x, 1024);
        yGm.SetGlobalBuffer((__gm__ float *)y, 1024);
        pipe.InitBuffer(inQ, 1, 1024 * sizeof(float));
        pipe.InitBuffer(outQ, 1, 1024 * sizeof(float));
        pipe.InitBuffer(tmpBuf, 256);
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> xLocal = inQ.AllocTensor<float>();
        DataCopy(xLocal, xGm, 1024);
        inQ.EnQue(xLocal);
        LocalTensor<float> xIn = inQ.DeQue<float>();
        LocalTensor<float> scale = tmpBuf.Get<float>();
        scale.SetValue(0, 0.5f);
        SetFlag<HardEvent::S_V>(EVENT_ID0);  // expected-error {{SetFlag<HardEvent::S_V, event id 0> is still set when the kernel ends}} [ASC702]
        LocalTensor<float> yLocal = outQ.AllocTensor<float>();
        Mul(yLocal, xIn, scale, 64);
        outQ.EnQue(yLocal);
        inQ.FreeTensor(xIn);
        LocalTensor<float> yOut = outQ.DeQue<float>();
        DataCopy(yGm, yOut, 1024);
        outQ.FreeTensor(yOut);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
};

extern "C" __global__ __aicore__ void scale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelScale op;
    op.Init(x, y);
    op.Process();
}
