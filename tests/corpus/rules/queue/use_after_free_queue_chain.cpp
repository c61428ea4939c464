// Queue operations are flags of the happens-before relation too (flag_edges.py; reference: hardware meaning of
// queue ops): EnQue sets the queue's forward event (VECIN: MTE2_V) for the tensor, the DeQue that takes it out
// waits on it; FreeTensor sets its backward event (VECOUT: MTE3_V, VECIN: V_MTE2) for the buffer it gives back,
// the AllocTensor that takes that buffer again waits on it. So a chain of use_after_free_flag_chain.cpp /
// use_before_deque_flag_chain.cpp may run through a queue instead of an explicit pair, and orders the same:
// warnings. The same chains with a link missing or in the wrong place are errors
// (use_after_free_queue_chain_broken.cpp).
#include "kernel_operator.h"
using namespace AscendC;

// the MoE sorter's loop with its MTE2 -> V link a VECIN queue's EnQue/DeQue instead of a SetFlag/WaitFlag<MTE2_V>
// pair: the copy-out (MTE3) of the freed buffer, MTE3_MTE2, the copy-in (MTE2) and its EnQue, the DeQue (V), the
// next round's vector write
extern "C" __global__ __aicore__ void chain_through_vecin_queue(GM_ADDR xAddr, GM_ADDR zAddr, GM_ADDR workspace,
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
        SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        LocalTensor<float> x = inQueue.AllocTensor<float>();
        DataCopy(x, xGm[i * 1024], 1024);
        inQueue.EnQue(x);
        x = inQueue.DeQue<float>();
        Muls(out, x, 2.0f, 1024);  // expected-warning {{Muls uses a tensor of outQueue after FreeTensor}} [ASC201]
        // expected-note@-1 {{the write relies on the queue's buffer rotation}}
        // expected-note@-2 {{the write also relies on the compiler's auto-sync}}
        inQueue.FreeTensor(x);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
        DataCopy(zGm[i * 1024], out, 1024);  // expected-warning {{DataCopy uses a tensor of outQueue after FreeTensor}} [ASC201]
        // expected-note@-1 {{the read relies on the queue's buffer rotation}}
        // expected-note@-2 {{the read runs on PIPE_MTE3, which FreeTensor's event does not order}}
    }
}

// MTE3 -> V through another VECOUT queue's FreeTensor (MTE3_V, set after the copy-out) and the next round's
// AllocTensor of the same buffer (one buffer: always the same), which holds V until then: the next round's
// vector write is ordered after the copy-out (an error while FreeTensor/AllocTensor were not edges)
extern "C" __global__ __aicore__ void chain_through_free_and_alloc(GM_ADDR xAddr, GM_ADDR zAddr, GM_ADDR workspace,
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
        Adds(r, in, 1.0f, 1024);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
        DataCopy(zGm[i * 1024], out, 1024);  // expected-warning {{DataCopy uses a tensor of outQueue after FreeTensor}} [ASC201]
        // expected-note@-1 {{the read relies on the queue's buffer rotation}}
        // expected-note@-2 {{the read runs on PIPE_MTE3, which FreeTensor's event does not order}}
        resQueue.EnQue(r);
        r = resQueue.DeQue<float>();
        DataCopy(zGm[4096 + i * 1024], r, 1024);
        resQueue.FreeTensor(r);
    }
}

// V -> MTE2 through another VECIN queue's FreeTensor (V_MTE2, set after the vector read of the freed x) and
// the next round's AllocTensor of that queue's one buffer, which holds MTE2 until then and comes before the
// next copy-in of x's buffer: ordered (an error while FreeTensor/AllocTensor were not edges)
extern "C" __global__ __aicore__ void chain_through_vecin_free(GM_ADDR xAddr, GM_ADDR yAddr, GM_ADDR zAddr,
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
        LocalTensor<float> a = auxQueue.AllocTensor<float>();
        LocalTensor<float> x = inQueue.AllocTensor<float>();
        DataCopy(x, xGm[i * 1024], 1024);
        DataCopy(a, yGm[i * 1024], 1024);
        inQueue.EnQue(x);
        auxQueue.EnQue(a);
        x = inQueue.DeQue<float>();
        a = auxQueue.DeQue<float>();
        inQueue.FreeTensor(x);
        LocalTensor<float> out = outQueue.AllocTensor<float>();
        Add(out, x, a, 1024);  // expected-warning {{Add uses a tensor of inQueue after FreeTensor}} [ASC201]
        // expected-note@-1 {{the read relies on the queue's buffer rotation}}
        // expected-note@-2 {{the read runs on PIPE_V, which FreeTensor's event does not order}}
        auxQueue.FreeTensor(a);
        outQueue.EnQue(out);
        out = outQueue.DeQue<float>();
        DataCopy(zGm[i * 1024], out, 1024);
        outQueue.FreeTensor(out);
    }
}

// ASC202: a tensor of one VECIN queue read before its DeQue, after the DeQue of another VECIN queue's tensor
// enqueued after it was copied in: that EnQue (MTE2, behind both copies) and DeQue (V) order the copy-in before
// the vector read, as use_before_deque_flag_chain.cpp's explicit chain does
extern "C" __global__ __aicore__ void enqueued_read_behind_another_deque(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                                         GM_ADDR tiling)
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
    DataCopy(aLocal, xGm, 1024);
    DataCopy(wLocal, xGm[1024], 1024);
    inQueueX.EnQue(aLocal);
    inQueueW.EnQue(wLocal);
    wLocal = inQueueW.DeQue<float>();
    LocalTensor<float> bLocal = outQueueY.AllocTensor<float>();
    Add(bLocal, aLocal, wLocal, 1024);  // expected-warning {{Add uses a tensor of inQueueX that is enqueued and not yet dequeued}} [ASC202]
    // expected-note@-1 {{SetFlag/WaitFlag after the tensor's last write (the pair of MTE2_V}}
    LocalTensor<float> a1 = inQueueX.DeQue<float>();
    inQueueX.FreeTensor(a1);
    inQueueW.FreeTensor(wLocal);
    outQueueY.EnQue(bLocal);
    bLocal = outQueueY.DeQue<float>();
    DataCopy(yGm, bLocal, 1024);
    outQueueY.FreeTensor(bLocal);
}
