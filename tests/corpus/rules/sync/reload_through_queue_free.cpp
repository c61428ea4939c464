// ASC708 follows the flags queue operations stand for on hardware (reference: hardware meaning of queue ops):
// FreeTensor sets the queue's backward event and AllocTensor waits on it, the events of the queue's route as
// the catalog gives them (Catalog.queue_events_of). A TQue<VECOUT>'s are V_MTE3 / MTE3_V: its FreeTensor and
// AllocTensor order the copy-out before the vector unit, not before the next copy-in (MTE2); a
// TQueBind<VECIN, VECOUT> (UB -> UB) frees with MTE3_MTE2, which does.
#include "kernel_operator.h"
using namespace AscendC;

// the TBuf is written back, a VECOUT queue's buffer is freed and taken again, then the TBuf is reloaded: the
// AllocTensor holds PIPE_V only, so nothing makes PIPE_MTE2 wait for the write-back
extern "C" __global__ __aicore__ void reload_after_vecout_free(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> work;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 2048);
    yGm.SetGlobalBuffer((__gm__ float *)y, 4096);
    pipe.InitBuffer(work, 1024 * sizeof(float));
    pipe.InitBuffer(outQueue, 1, 1024 * sizeof(float));
    LocalTensor<float> tile = work.Get<float>();
    LocalTensor<float> out = outQueue.AllocTensor<float>();

    DataCopy(tile, xGm, 1024);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Abs(out, tile, 1024);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, tile, 1024);
    outQueue.EnQue(out);
    out = outQueue.DeQue<float>();
    DataCopy(yGm[2048], out, 1024);
    outQueue.FreeTensor(out);
    out = outQueue.AllocTensor<float>();

    DataCopy(tile, xGm[1024], 1024);  // expected-error {{DataCopy reloads TBuf work while an earlier DataCopy may still be writing it back to GM}} [ASC708]
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Abs(out, tile, 1024);
    outQueue.EnQue(out);
    out = outQueue.DeQue<float>();
    DataCopy(yGm[3072], out, 1024);
    outQueue.FreeTensor(out);
}

// the same with a TQueBind<VECIN, VECOUT>: its FreeTensor sets MTE3_MTE2 after the write-back and its
// AllocTensor holds PIPE_MTE2 until then, so the reload comes after the write-back: no finding
extern "C" __global__ __aicore__ void reload_after_bind_free(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> work;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> copyQueue;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 2048);
    yGm.SetGlobalBuffer((__gm__ float *)y, 4096);
    pipe.InitBuffer(work, 1024 * sizeof(float));
    pipe.InitBuffer(copyQueue, 1, 1024 * sizeof(float));
    LocalTensor<float> tile = work.Get<float>();

    DataCopy(tile, xGm, 1024);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Abs(tile, tile, 1024);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, tile, 1024);
    LocalTensor<float> c = copyQueue.AllocTensor<float>();
    DataCopy(c, xGm[1024], 1024);
    copyQueue.EnQue(c);
    c = copyQueue.DeQue<float>();
    DataCopy(yGm[2048], c, 1024);
    copyQueue.FreeTensor(c);
    c = copyQueue.AllocTensor<float>();

    DataCopy(tile, xGm[1024], 1024);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Abs(tile, tile, 1024);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm[1024], tile, 1024);
    copyQueue.FreeTensor(c);
}
