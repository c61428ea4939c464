// Tensors used while enqueued, after an explicit SetFlag/WaitFlag pair. A pair of the event the DeQue would
// wait on (MTE2_V for a VECIN queue), set after the copy-in and waited before the vector read, orders the
// same pipes the DeQue would: a warning. Another event, a write after the pair, or a read on another pipe
// is not ordered by it: errors, as without the flags.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void use_before_deque_flags(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueueX;
    TQue<TPosition::VECOUT, 1> outQueueY;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 4096);
    yGm.SetGlobalBuffer((__gm__ float *)y, 4096);
    pipe.InitBuffer(inQueueX, 2, 1024 * sizeof(float));
    pipe.InitBuffer(outQueueY, 1, 1024 * sizeof(float));

    // the flag pair of MTE2_V orders the copy-in before the vector read
    LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
    DataCopy(xLocal, xGm, 1024);
    event_t eventMte2V = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
    SetFlag<HardEvent::MTE2_V>(eventMte2V);
    WaitFlag<HardEvent::MTE2_V>(eventMte2V);
    inQueueX.EnQue(xLocal);
    Exp(yLocal, xLocal, 1024);  // expected-warning {{Exp uses a tensor of inQueueX that is enqueued and not yet dequeued}} [ASC202]
    LocalTensor<float> x1 = inQueueX.DeQue<float>();
    inQueueX.FreeTensor(x1);
    outQueueY.EnQue(yLocal);
    yLocal = outQueueY.DeQue<float>();
    DataCopy(yGm, yLocal, 1024);
    outQueueY.FreeTensor(yLocal);

    // a pair of another event orders nothing the vector read needs
    LocalTensor<float> aLocal = inQueueX.AllocTensor<float>();
    LocalTensor<float> bLocal = outQueueY.AllocTensor<float>();
    DataCopy(aLocal, xGm[1024], 1024);
    SetFlag<HardEvent::MTE3_V>(EVENT_ID1);
    WaitFlag<HardEvent::MTE3_V>(EVENT_ID1);
    inQueueX.EnQue(aLocal);
    Exp(bLocal, aLocal, 1024);  // expected-error {{Exp uses a tensor of inQueueX that is enqueued and not yet dequeued}} [ASC202]
    LocalTensor<float> a1 = inQueueX.DeQue<float>();
    inQueueX.FreeTensor(a1);
    outQueueY.EnQue(bLocal);
    bLocal = outQueueY.DeQue<float>();
    DataCopy(yGm[1024], bLocal, 1024);
    outQueueY.FreeTensor(bLocal);

    // written again after the pair: the second copy-in is not covered
    LocalTensor<float> cLocal = inQueueX.AllocTensor<float>();
    LocalTensor<float> dLocal = outQueueY.AllocTensor<float>();
    DataCopy(cLocal, xGm[2048], 1024);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID2);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID2);
    DataCopy(cLocal, xGm[3072], 512);
    inQueueX.EnQue(cLocal);
    Exp(dLocal, cLocal, 1024);  // expected-error {{Exp uses a tensor of inQueueX that is enqueued and not yet dequeued}} [ASC202]
    // read on the copy-out pipe, which the MTE2_V pair does not order
    DataCopy(yGm[3072], cLocal, 1024);  // expected-error {{DataCopy uses a tensor of inQueueX that is enqueued}} [ASC202]
    LocalTensor<float> c1 = inQueueX.DeQue<float>();
    inQueueX.FreeTensor(c1);
    outQueueY.EnQue(dLocal);
    dLocal = outQueueY.DeQue<float>();
    DataCopy(yGm[2048], dLocal, 1024);
    outQueueY.FreeTensor(dLocal);
}
