// Clean: two phases with different buffer plans. pipe.Reset() releases phase one's buffers, so the same
// queue and TBuf are initialised again; each phase frees everything it takes.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void two_phase(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TBuf<TPosition::VECCALC> calcBuf;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 4096);
    yGm.SetGlobalBuffer((__gm__ float *)y, 4096);

    pipe.InitBuffer(inQueue, 1, 1024 * sizeof(float));
    pipe.InitBuffer(calcBuf, 1024 * sizeof(float));
    LocalTensor<float> a = inQueue.AllocTensor<float>();
    DataCopy(a, xGm, 1024);
    inQueue.EnQue(a);
    a = inQueue.DeQue<float>();
    LocalTensor<float> tmp = calcBuf.Get<float>();
    Exp(tmp, a, 1024);
    inQueue.FreeTensor(a);

    pipe.Reset();
    pipe.InitBuffer(inQueue, 1, 4096 * sizeof(float));
    pipe.InitBuffer(calcBuf, 4096 * sizeof(float));
    LocalTensor<float> b = inQueue.AllocTensor<float>();
    DataCopy(b, xGm, 4096);
    inQueue.EnQue(b);
    b = inQueue.DeQue<float>();
    LocalTensor<float> tmp2 = calcBuf.Get<float>();
    Abs(tmp2, b, 4096);
    inQueue.FreeTensor(b);
}
