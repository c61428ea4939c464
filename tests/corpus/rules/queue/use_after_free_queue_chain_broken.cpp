// use_after_free_queue_chain.cpp's chains through a queue with a link missing or in the wrong place: a queue
// op orders only what its own flag orders (EnQue/DeQue: the tensor enqueued; FreeTensor/AllocTensor: one
// buffer), so each read stays an error, with a note at the write that may overtake it.
#include "kernel_operator.h"
using namespace AscendC;

// the sorter's loop through a VECIN queue without the SetFlag/WaitFlag<MTE3_MTE2>: the copy-in and its EnQue
// are not behind the copy-out, so neither is the DeQue
extern "C" __global__ __aicore__ void vecin_chain_without_mte3_mte2(GM_ADDR xAddr, GM_ADDR zAddr, GM_ADDR workspace,
                                                                    GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQueue;
    TQue<TPosition::VECIN, 1> inQueue;
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)xAddr, 8192);
    zGm.SetGlobalBuffer((__gm__ float *)zAddr, 8192);
    pipe.InitBuffer(outQueue, 1, 1024 * sizeof(float));
    pipe.InitBuffer(inQueue, 1, 1024 * sizeof(float));
    LocalTensor<float> out = outQueue.AllocTensor<float>();
    outQueue.FreeTensor(out);
    for (int32_t i = 0; i < 8; i++) {
        LocalTensor<float> x = inQueue.AllocTensor<float>();
        DataCopy(x, xGm[i * 1024], 1024);
        inQueue.EnQue(x);
        x = inQueue.DeQue<float>();
        Muls(out, x, 2.0f, 1024);  // expected-warning {{Muls uses a tensor of outQueue after FreeTensor}} [ASC201]
        // expected-note@-1 {{the write relies on the queue's buffer rotation}}
        // expected-note@-2 {{the write also relies on the compiler's auto-sync}}
        // expected-note@-3 {{the buffer is written again here on PIPE_V, with no chain of SetFlag/WaitFlag}}
        inQueue.FreeTensor(x);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
        DataCopy(zGm[i * 1024], out, 1024);  // expected-error {{DataCopy uses a tensor of outQueue after FreeTensor}} [ASC201]
    }
}

// the MTE3_MTE2 pair after the EnQue: the EnQue's flag was set on MTE2 before MTE2 waited for the copy-out
extern "C" __global__ __aicore__ void vecin_chain_enque_before_wait(GM_ADDR xAddr, GM_ADDR zAddr, GM_ADDR workspace,
                                                                    GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQueue;
    TQue<TPosition::VECIN, 1> inQueue;
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)xAddr, 8192);
    zGm.SetGlobalBuffer((__gm__ float *)zAddr, 8192);
    pipe.InitBuffer(outQueue, 1, 1024 * sizeof(float));
    pipe.InitBuffer(inQueue, 1, 1024 * sizeof(float));
    LocalTensor<float> out = outQueue.AllocTensor<float>();
    outQueue.FreeTensor(out);
    for (int32_t i = 0; i < 8; i++) {
        LocalTensor<float> x = inQueue.AllocTensor<float>();
        DataCopy(x, xGm[i * 1024], 1024);
        inQueue.EnQue(x);
        SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        x = inQueue.DeQue<float>();
        Muls(out, x, 2.0f, 1024);  // expected-warning {{Muls uses a tensor of outQueue after FreeTensor}} [ASC201]
        // expected-note@-1 {{the write relies on the queue's buffer rotation}}
        // expected-note@-2 {{the write also relies on the compiler's auto-sync}}
        // expected-note@-3 {{the buffer is written again here on PIPE_V, with no chain of SetFlag/WaitFlag}}
        inQueue.FreeTensor(x);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
        DataCopy(zGm[i * 1024], out, 1024);  // expected-error {{DataCopy uses a tensor of outQueue after FreeTensor}} [ASC201]
    }
}

// the other queue's FreeTensor before the copy-out: its MTE3_V flag orders nothing after the read
extern "C" __global__ __aicore__ void free_before_the_read(GM_ADDR xAddr, GM_ADDR zAddr, GM_ADDR workspace,
                                                           GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQueue;
    TQue<TPosition::VECOUT, 1> resQueue;
    TBuf<TPosition::VECCALC> inBuf;
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)xAddr, 8192);
    zGm.SetGlobalBuffer((__gm__ float *)zAddr, 8192);
    pipe.InitBuffer(outQueue, 1, 1024 * sizeof(float));
    pipe.InitBuffer(resQueue, 1, 1024 * sizeof(float));
    pipe.InitBuffer(inBuf, 1024 * sizeof(float));
    LocalTensor<float> in = inBuf.Get<float>();
    LocalTensor<float> out = outQueue.AllocTensor<float>();
    outQueue.FreeTensor(out);
    for (int32_t i = 0; i < 8; i++) {
        LocalTensor<float> r = resQueue.AllocTensor<float>();
        Muls(out, in, 2.0f, 1024);  // expected-warning {{Muls uses a tensor of outQueue after FreeTensor}} [ASC201]
        // expected-note@-1 {{the write relies on the queue's buffer rotation}}
        // expected-note@-2 {{the write also relies on the compiler's auto-sync}}
        // expected-note@-3 {{the buffer is written again here on PIPE_V, with no chain of SetFlag/WaitFlag}}
        Adds(r, in, 1.0f, 1024);
        resQueue.EnQue(r);
        r = resQueue.DeQue<float>();
        DataCopy(zGm[4096 + i * 1024], r, 1024);
        resQueue.FreeTensor(r);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
        DataCopy(zGm[i * 1024], out, 1024);  // expected-error {{DataCopy uses a tensor of outQueue after FreeTensor}} [ASC201]
    }
}

// two buffers: the next round's AllocTensor takes the other one, whose flag was set a round before this read
extern "C" __global__ __aicore__ void alloc_of_the_other_buffer(GM_ADDR xAddr, GM_ADDR zAddr, GM_ADDR workspace,
                                                                GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQueue;
    TQue<TPosition::VECOUT, 1> resQueue;
    TBuf<TPosition::VECCALC> inBuf;
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)xAddr, 8192);
    zGm.SetGlobalBuffer((__gm__ float *)zAddr, 8192);
    pipe.InitBuffer(outQueue, 1, 1024 * sizeof(float));
    pipe.InitBuffer(resQueue, 2, 1024 * sizeof(float));
    pipe.InitBuffer(inBuf, 1024 * sizeof(float));
    LocalTensor<float> in = inBuf.Get<float>();
    LocalTensor<float> out = outQueue.AllocTensor<float>();
    outQueue.FreeTensor(out);
    for (int32_t i = 0; i < 8; i++) {
        LocalTensor<float> r = resQueue.AllocTensor<float>();
        Muls(out, in, 2.0f, 1024);  // expected-warning {{Muls uses a tensor of outQueue after FreeTensor}} [ASC201]
        // expected-note@-1 {{the write relies on the queue's buffer rotation}}
        // expected-note@-2 {{the write also relies on the compiler's auto-sync}}
        // expected-note@-3 {{the buffer is written again here on PIPE_V, with no chain of SetFlag/WaitFlag}}
        Adds(r, in, 1.0f, 1024);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
        DataCopy(zGm[i * 1024], out, 1024);  // expected-error {{DataCopy uses a tensor of outQueue after FreeTensor}} [ASC201]
        resQueue.EnQue(r);
        r = resQueue.DeQue<float>();
        DataCopy(zGm[4096 + i * 1024], r, 1024);
        resQueue.FreeTensor(r);
    }
}

// chain_through_vecin_free with the other queue's AllocTensor after the copy-in of x's buffer: its wait holds
// MTE2 only from there on, so the copy-in may overtake the vector read of the round before
extern "C" __global__ __aicore__ void vecin_alloc_after_the_copy_in(GM_ADDR xAddr, GM_ADDR yAddr, GM_ADDR zAddr,
                                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECIN, 1> auxQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)xAddr, 8192);
    yGm.SetGlobalBuffer((__gm__ float *)yAddr, 8192);
    zGm.SetGlobalBuffer((__gm__ float *)zAddr, 8192);
    pipe.InitBuffer(inQueue, 1, 1024 * sizeof(float));
    pipe.InitBuffer(auxQueue, 1, 1024 * sizeof(float));
    pipe.InitBuffer(outQueue, 1, 1024 * sizeof(float));
    for (int32_t i = 0; i < 8; i++) {
        LocalTensor<float> x = inQueue.AllocTensor<float>();
        DataCopy(x, xGm[i * 1024], 1024);
        LocalTensor<float> a = auxQueue.AllocTensor<float>();
        DataCopy(a, yGm[i * 1024], 1024);
        inQueue.EnQue(x);
        auxQueue.EnQue(a);
        x = inQueue.DeQue<float>();
        a = auxQueue.DeQue<float>();
        inQueue.FreeTensor(x);
        LocalTensor<float> out = outQueue.AllocTensor<float>();
        Add(out, x, a, 1024);  // expected-error {{Add uses a tensor of inQueue after FreeTensor}} [ASC201]
        auxQueue.FreeTensor(a);
        outQueue.EnQue(out);
        out = outQueue.DeQue<float>();
        DataCopy(zGm[i * 1024], out, 1024);
        outQueue.FreeTensor(out);
    }
}

// ASC202: the other queue's tensor enqueued before this one was copied in: its DeQue orders an earlier copy only
extern "C" __global__ __aicore__ void enqueued_read_written_after_the_other_enque(GM_ADDR x, GM_ADDR y,
                                                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueueX;
    TQue<TPosition::VECIN, 1> inQueueW;
    TQue<TPosition::VECOUT, 1> outQueueY;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 4096);
    yGm.SetGlobalBuffer((__gm__ float *)y, 4096);
    pipe.InitBuffer(inQueueX, 1, 1024 * sizeof(float));
    pipe.InitBuffer(inQueueW, 1, 1024 * sizeof(float));
    pipe.InitBuffer(outQueueY, 1, 1024 * sizeof(float));
    LocalTensor<float> aLocal = inQueueX.AllocTensor<float>();
    LocalTensor<float> wLocal = inQueueW.AllocTensor<float>();
    DataCopy(wLocal, xGm[1024], 1024);
    inQueueW.EnQue(wLocal);
    DataCopy(aLocal, xGm, 1024);
    inQueueX.EnQue(aLocal);
    wLocal = inQueueW.DeQue<float>();
    LocalTensor<float> bLocal = outQueueY.AllocTensor<float>();
    Add(bLocal, aLocal, wLocal, 1024);  // expected-error {{Add uses a tensor of inQueueX that is enqueued and not yet dequeued}} [ASC202]
    LocalTensor<float> a1 = inQueueX.DeQue<float>();
    inQueueX.FreeTensor(a1);
    inQueueW.FreeTensor(wLocal);
    outQueueY.EnQue(bLocal);
    bLocal = outQueueY.DeQue<float>();
    DataCopy(yGm, bLocal, 1024);
    outQueueY.FreeTensor(bLocal);
}
