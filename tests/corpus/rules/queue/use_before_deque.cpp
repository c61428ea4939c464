// Tensors used while they sit in their queue: EnQue signals the consumer but only DeQue waits for the
// copy, so computing on the enqueued tensor races with MTE2. Enqueuing it twice is flagged as well.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void use_before_deque(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueueX;
    TQue<TPosition::VECOUT, 1> outQueueY;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 2048);
    yGm.SetGlobalBuffer((__gm__ float *)y, 2048);
    pipe.InitBuffer(inQueueX, 2, 1024 * sizeof(float));
    pipe.InitBuffer(outQueueY, 1, 1024 * sizeof(float));

    LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    DataCopy(xLocal, xGm, 1024);
    inQueueX.EnQue(xLocal);
    LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
    Exp(yLocal, xLocal, 1024);  // expected-error {{Exp uses a tensor of inQueueX that is enqueued and not yet dequeued}} [ASC202]
    inQueueX.EnQue(xLocal);  // expected-error {{EnQue uses a tensor of inQueueX that is enqueued}} [ASC202]
    LocalTensor<float> x1 = inQueueX.DeQue<float>();
    LocalTensor<float> x2 = inQueueX.DeQue<float>();
    inQueueX.FreeTensor(x1);
    outQueueY.EnQue(yLocal);
    float v = yLocal.GetValue(0);  // expected-error {{GetValue uses a tensor of outQueueY that is enqueued}} [ASC202]
    LocalTensor<float> yOut = outQueueY.DeQue<float>();
    DataCopy(yGm, yOut, 1024);
    outQueueY.FreeTensor(yOut);

    // correct: DeQue first, then compute on the same buffer through the original handle
    LocalTensor<float> a = inQueueX.AllocTensor<float>();
    DataCopy(a, xGm[1024], 1024);
    inQueueX.EnQue(a);
    inQueueX.DeQue<float>();
    LocalTensor<float> b = outQueueY.AllocTensor<float>();
    Adds(b, a, v, 1024);
    inQueueX.FreeTensor(a);
    outQueueY.EnQue(b);
    b = outQueueY.DeQue<float>();
    DataCopy(yGm[1024], b, 1024);
    outQueueY.FreeTensor(b);
}
