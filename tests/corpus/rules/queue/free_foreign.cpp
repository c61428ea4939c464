// FreeTensor of a tensor the queue did not hand out: one taken from the input queue freed on the output
// queue, and a TBuf scratch tensor freed on a queue.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void free_foreign(GM_ADDR xAddr, GM_ADDR yAddr, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueueX;
    TQue<TPosition::VECOUT, 1> outQueueY;
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)xAddr, 1024);
    yGm.SetGlobalBuffer((__gm__ float *)yAddr, 1024);
    pipe.InitBuffer(inQueueX, 1, 1024 * sizeof(float));
    pipe.InitBuffer(outQueueY, 1, 1024 * sizeof(float));
    pipe.InitBuffer(tmpBuf, 1024 * sizeof(float));

    LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    DataCopy(xLocal, xGm, 1024);
    inQueueX.EnQue(xLocal);
    LocalTensor<float> x = inQueueX.DeQue<float>();
    LocalTensor<float> tmp = tmpBuf.Get<float>();
    LocalTensor<float> y = outQueueY.AllocTensor<float>();
    Exp(tmp, x, 1024);
    Adds(y, tmp, 1.0f, 1024);
    outQueueY.FreeTensor(x);  // expected-error {{FreeTensor on outQueueY of a tensor taken from inQueueX}} [ASC205]
    outQueueY.FreeTensor(tmp);  // expected-error {{FreeTensor on outQueueY of a tensor from a TBuf}} [ASC205]
    outQueueY.EnQue(y);
    y = outQueueY.DeQue<float>();
    DataCopy(yGm, y, 1024);
    outQueueY.FreeTensor(y);
}
