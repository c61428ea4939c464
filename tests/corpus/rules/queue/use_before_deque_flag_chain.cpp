// use_before_deque_flags.cpp with the copy-in ordered before the vector read by a chain of flags through
// another pipe, or a barrier, instead of one MTE2_V pair: the same happens-before relation as the DeQue's,
// so a warning. The chain's links in the wrong order, or one missing, order nothing: errors.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void use_before_deque_flag_chain(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                                  GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueueX;
    TQue<TPosition::VECOUT, 1> outQueueY;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 4096);
    yGm.SetGlobalBuffer((__gm__ float *)y, 4096);
    pipe.InitBuffer(inQueueX, 1, 1024 * sizeof(float));
    pipe.InitBuffer(outQueueY, 1, 1024 * sizeof(float));

    // MTE2 -> MTE3, then MTE3 -> V: the copy-in is ordered before the vector read
    LocalTensor<float> aLocal = inQueueX.AllocTensor<float>();
    LocalTensor<float> bLocal = outQueueY.AllocTensor<float>();
    DataCopy(aLocal, xGm, 1024);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    SetFlag<HardEvent::MTE3_V>(EVENT_ID1);
    WaitFlag<HardEvent::MTE3_V>(EVENT_ID1);
    inQueueX.EnQue(aLocal);
    Exp(bLocal, aLocal, 1024);  // expected-warning {{Exp uses a tensor of inQueueX that is enqueued and not yet dequeued}} [ASC202]
    LocalTensor<float> a1 = inQueueX.DeQue<float>();
    inQueueX.FreeTensor(a1);
    outQueueY.EnQue(bLocal);
    bLocal = outQueueY.DeQue<float>();
    DataCopy(yGm, bLocal, 1024);
    outQueueY.FreeTensor(bLocal);

    // the same links in the wrong order: V waits for an MTE3 that is not yet behind the copy-in
    LocalTensor<float> cLocal = inQueueX.AllocTensor<float>();
    LocalTensor<float> dLocal = outQueueY.AllocTensor<float>();
    DataCopy(cLocal, xGm[1024], 1024);
    SetFlag<HardEvent::MTE3_V>(EVENT_ID1);
    WaitFlag<HardEvent::MTE3_V>(EVENT_ID1);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    inQueueX.EnQue(cLocal);
    Exp(dLocal, cLocal, 1024);  // expected-error {{Exp uses a tensor of inQueueX that is enqueued and not yet dequeued}} [ASC202]
    LocalTensor<float> c1 = inQueueX.DeQue<float>();
    inQueueX.FreeTensor(c1);
    outQueueY.EnQue(dLocal);
    dLocal = outQueueY.DeQue<float>();
    DataCopy(yGm[1024], dLocal, 1024);
    outQueueY.FreeTensor(dLocal);

    // a PipeBarrier<PIPE_ALL> after the copy-in orders it before everything
    LocalTensor<float> eLocal = inQueueX.AllocTensor<float>();
    LocalTensor<float> fLocal = outQueueY.AllocTensor<float>();
    DataCopy(eLocal, xGm[2048], 1024);
    PipeBarrier<PIPE_ALL>();
    inQueueX.EnQue(eLocal);
    Exp(fLocal, eLocal, 1024);  // expected-warning {{Exp uses a tensor of inQueueX that is enqueued and not yet dequeued}} [ASC202]
    LocalTensor<float> e1 = inQueueX.DeQue<float>();
    inQueueX.FreeTensor(e1);
    outQueueY.EnQue(fLocal);
    fLocal = outQueueY.DeQue<float>();
    DataCopy(yGm[2048], fLocal, 1024);
    outQueueY.FreeTensor(fLocal);
}
