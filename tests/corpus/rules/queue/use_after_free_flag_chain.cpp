// A read of a freed buffer on a pipe the buffer's next writer does not wait for (a copy-out, MTE3, of a
// VECOUT buffer; a vector read of a VECIN one): FreeTensor's event was set before the read, so the queue does
// not order it. It is still safe when every later write of the buffer is ordered after it by the kernel's own
// SetFlag/WaitFlag chain, through any pipes: the happens-before relation of the path (happens_before.py), a
// warning naming the rotation and the chain. The broken chains are in use_after_free_flag_chain_broken.cpp.
// (ops-transformer's MoE sorters: moe_mrgsort.h CopyOut reads a freed sortDataCopyOutQueue tensor; the next
// MrgSort is behind CopyIn's MTE3_MTE2 pair and MrgsortCompute's MTE2_V pair.)
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void use_after_free_flag_chain(GM_ADDR xAddr, GM_ADDR zAddr, GM_ADDR workspace,
                                                                GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQueue;  // one buffer
    TQue<TPosition::VECIN, 1> inQueue;    // one buffer
    TQue<TPosition::VECOUT, 1> resQueue;
    TQue<TPosition::VECOUT, 1> lastQueue;
    TBuf<TPosition::VECCALC> inBuf;
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)xAddr, 8192);
    zGm.SetGlobalBuffer((__gm__ float *)zAddr, 8192);
    pipe.InitBuffer(outQueue, 1, 1024 * sizeof(float));
    pipe.InitBuffer(inQueue, 1, 1024 * sizeof(float));
    pipe.InitBuffer(resQueue, 1, 1024 * sizeof(float));
    pipe.InitBuffer(lastQueue, 1, 1024 * sizeof(float));
    pipe.InitBuffer(inBuf, 1024 * sizeof(float));
    LocalTensor<float> in = inBuf.Get<float>();

    // the sorter's loop: borrowed and given back at once, then written (V) and copied out (MTE3) each round
    LocalTensor<float> out = outQueue.AllocTensor<float>();
    outQueue.FreeTensor(out);
    for (int32_t i = 0; i < 8; i++) {
        // CopyIn: MTE3 -> MTE2 orders the copy-in after the previous round's copy-out
        event_t eventMte3Mte2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_MTE2));
        SetFlag<HardEvent::MTE3_MTE2>(eventMte3Mte2);
        WaitFlag<HardEvent::MTE3_MTE2>(eventMte3Mte2);
        DataCopy(in, xGm[i * 1024], 1024);
        // Compute: MTE2 -> V orders the vector write after the copy-in, so after the copy-out too
        event_t eventMte2V = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(eventMte2V);
        WaitFlag<HardEvent::MTE2_V>(eventMte2V);
        Muls(out, in, 2.0f, 1024);  // expected-warning {{Muls uses a tensor of outQueue after FreeTensor}} [ASC201]
        // expected-note@-1 {{the write relies on the queue's buffer rotation}}
        // expected-note@-2 {{the write also relies on the compiler's auto-sync}}
        // CopyOut: V -> MTE3, then the read of the freed buffer
        event_t eventVMte3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(eventVMte3);
        WaitFlag<HardEvent::V_MTE3>(eventVMte3);
        DataCopy(zGm[i * 1024], out, 1024);  // expected-warning {{DataCopy uses a tensor of outQueue after FreeTensor}} [ASC201]
        // expected-note@-1 {{the read relies on the queue's buffer rotation}}
        // expected-note@-2 {{the read runs on PIPE_MTE3, which FreeTensor's event does not order}}
    }

    // through three pipes: a vector read (V) of a freed VECIN buffer, whose next writer is the copy-in (MTE2)
    // of the next tile; V -> MTE3, then MTE3 -> MTE2, orders it before that copy-in
    for (int32_t i = 0; i < 8; i++) {
        LocalTensor<float> x = inQueue.AllocTensor<float>();
        DataCopy(x, xGm[i * 1024], 1024);
        inQueue.EnQue(x);
        x = inQueue.DeQue<float>();
        LocalTensor<float> r = resQueue.AllocTensor<float>();
        inQueue.FreeTensor(x);
        Exp(r, x, 1024);  // expected-warning {{Exp uses a tensor of inQueue after FreeTensor}} [ASC201]
        // expected-note@-1 {{the read relies on the queue's buffer rotation}}
        // expected-note@-2 {{the read runs on PIPE_V, which FreeTensor's event does not order}}
        SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
        resQueue.EnQue(r);
        r = resQueue.DeQue<float>();
        DataCopy(zGm[i * 1024], r, 1024);
        resQueue.FreeTensor(r);
        SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID2);
        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID2);
    }

    // a WaitFlag on the scalar pipe, or PipeBarrier<PIPE_ALL>, orders the read before everything issued after
    LocalTensor<float> s = lastQueue.AllocTensor<float>();
    lastQueue.FreeTensor(s);
    Duplicate(s, 0.0f, 1024);  // expected-warning {{Duplicate uses a tensor of lastQueue after FreeTensor}} [ASC201]
    // expected-note@-1 {{the write relies on the queue's buffer rotation}}
    // expected-note@-2 {{the write also relies on the compiler's auto-sync}}
    SetFlag<HardEvent::V_MTE3>(EVENT_ID3);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID3);
    DataCopy(zGm, s, 1024);  // expected-warning {{DataCopy uses a tensor of lastQueue after FreeTensor}} [ASC201]
    // expected-note@-1 {{the read relies on the queue's buffer rotation}}
    // expected-note@-2 {{the read runs on PIPE_MTE3}}
    SetFlag<HardEvent::MTE3_S>(EVENT_ID4);
    WaitFlag<HardEvent::MTE3_S>(EVENT_ID4);
    Duplicate(s, 1.0f, 1024);  // expected-warning {{Duplicate uses a tensor of lastQueue after FreeTensor}} [ASC201]
    // expected-note@-1 {{the write relies on the queue's buffer rotation}}
    // expected-note@-2 {{the write also relies on the compiler's auto-sync}}
    SetFlag<HardEvent::V_MTE3>(EVENT_ID3);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID3);
    DataCopy(zGm[1024], s, 1024);  // expected-warning {{DataCopy uses a tensor of lastQueue after FreeTensor}} [ASC201]
    // expected-note@-1 {{the read relies on the queue's buffer rotation}}
    // expected-note@-2 {{the read runs on PIPE_MTE3}}
    PipeBarrier<PIPE_ALL>();
    Duplicate(s, 2.0f, 1024);  // expected-warning {{Duplicate uses a tensor of lastQueue after FreeTensor}} [ASC201]
    // expected-note@-1 {{the write relies on the queue's buffer rotation}}
    // expected-note@-2 {{the write also relies on the compiler's auto-sync}}
    SetFlag<HardEvent::V_MTE3>(EVENT_ID3);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID3);
    DataCopy(zGm[2048], s, 1024);  // expected-warning {{DataCopy uses a tensor of lastQueue after FreeTensor}} [ASC201]
    // expected-note@-1 {{the read relies on the queue's buffer rotation}}
    // expected-note@-2 {{the read runs on PIPE_MTE3}}
    SyncAll();  // the hardware SyncAll starts with PipeBarrier<PIPE_ALL>
    Duplicate(s, 3.0f, 1024);  // expected-warning {{Duplicate uses a tensor of lastQueue after FreeTensor}} [ASC201]
    // expected-note@-1 {{the write relies on the queue's buffer rotation}}
    // expected-note@-2 {{the write also relies on the compiler's auto-sync}}
    SetFlag<HardEvent::V_MTE3>(EVENT_ID3);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID3);
    DataCopy(zGm[3072], s, 1024);  // expected-warning {{DataCopy uses a tensor of lastQueue after FreeTensor}} [ASC201]
    // expected-note@-1 {{the read relies on the queue's buffer rotation}}
    // expected-note@-2 {{the read runs on PIPE_MTE3}}
    // TPipe::Destroy ends with PipeBarrier<PIPE_ALL>: the copy-out is done before the buffer is anyone's again
    pipe.Destroy();
}
