// DeQue with nothing enqueued: the EnQue was forgotten after the copy-in, and a second DeQue after one
// EnQue. Both wait forever on the NPU.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void deque_empty(GM_ADDR xAddr, GM_ADDR yAddr, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueueX;
    TQue<TPosition::VECOUT, 1> outQueueY;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)xAddr, 4096);
    yGm.SetGlobalBuffer((__gm__ float *)yAddr, 4096);
    pipe.InitBuffer(inQueueX, 2, 1024 * sizeof(float));
    pipe.InitBuffer(outQueueY, 1, 1024 * sizeof(float));

    LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    DataCopy(xLocal, xGm, 1024);
    LocalTensor<float> x = inQueueX.DeQue<float>();  // expected-error {{DeQue on inQueueX finds no tensor: nothing was enqueued on this path}} [ASC204]
    LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
    Relu(yLocal, x, 1024);
    outQueueY.EnQue(yLocal);
    LocalTensor<float> y = outQueueY.DeQue<float>();
    DataCopy(yGm, y, 1024);
    LocalTensor<float> again = outQueueY.DeQue<float>();  // expected-error {{DeQue on outQueueY finds no tensor}} [ASC204]
    outQueueY.FreeTensor(y);
    inQueueX.FreeTensor(x);
}
