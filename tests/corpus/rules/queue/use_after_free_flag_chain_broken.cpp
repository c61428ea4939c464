// use_after_free_flag_chain.cpp's reads of a freed buffer with one link of the chain missing, or in the wrong
// place: the next write of the buffer may overtake the read, so each stays an error, with a note at that
// write. A WaitFlag with no SetFlag (or the reverse) also gets the flag rules' own diagnostics.
#include "kernel_operator.h"
using namespace AscendC;

// the sorter's loop without the WaitFlag<MTE2_V>: the vector write of the next round does not wait for the
// copy-in, so not for the copy-out before it either
extern "C" __global__ __aicore__ void chain_without_wait(GM_ADDR xAddr, GM_ADDR zAddr, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> inBuf;
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)xAddr, 8192);
    zGm.SetGlobalBuffer((__gm__ float *)zAddr, 8192);
    pipe.InitBuffer(outQueue, 1, 1024 * sizeof(float));
    pipe.InitBuffer(inBuf, 1024 * sizeof(float));
    LocalTensor<float> in = inBuf.Get<float>();
    LocalTensor<float> out = outQueue.AllocTensor<float>();
    outQueue.FreeTensor(out);
    for (int32_t i = 0; i < 8; i++) {
        SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        DataCopy(in, xGm[i * 1024], 1024);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID1);  // expected-error {{is still set when the kernel ends}} [ASC702]
        // expected-error@-1 {{while the flag is already set on every path}} [ASC703]
        Muls(out, in, 2.0f, 1024);  // expected-warning {{Muls uses a tensor of outQueue after FreeTensor}} [ASC201]
        // expected-note@-1 {{the write relies on the queue's buffer rotation}}
        // expected-note@-2 {{the write also relies on the compiler's auto-sync}}
        // expected-note@-3 {{the buffer is written again here on PIPE_V, with no chain of SetFlag/WaitFlag}}
        SetFlag<HardEvent::V_MTE3>(EVENT_ID2);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID2);
        DataCopy(zGm[i * 1024], out, 1024);  // expected-error {{DataCopy uses a tensor of outQueue after FreeTensor}} [ASC201]
    }
}

// without the SetFlag<MTE3_MTE2>: the copy-in is not ordered after the copy-out
extern "C" __global__ __aicore__ void chain_without_set(GM_ADDR xAddr, GM_ADDR zAddr, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> inBuf;
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)xAddr, 8192);
    zGm.SetGlobalBuffer((__gm__ float *)zAddr, 8192);
    pipe.InitBuffer(outQueue, 1, 1024 * sizeof(float));
    pipe.InitBuffer(inBuf, 1024 * sizeof(float));
    LocalTensor<float> in = inBuf.Get<float>();
    LocalTensor<float> out = outQueue.AllocTensor<float>();
    outQueue.FreeTensor(out);
    for (int32_t i = 0; i < 8; i++) {
        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);  // expected-error {{waits for a flag no SetFlag has set}} [ASC701]
        DataCopy(in, xGm[i * 1024], 1024);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID1);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);
        Muls(out, in, 2.0f, 1024);  // expected-warning {{Muls uses a tensor of outQueue after FreeTensor}} [ASC201]
        // expected-note@-1 {{the write relies on the queue's buffer rotation}}
        // expected-note@-2 {{the write also relies on the compiler's auto-sync}}
        // expected-note@-3 {{the buffer is written again here on PIPE_V}}
        SetFlag<HardEvent::V_MTE3>(EVENT_ID2);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID2);
        DataCopy(zGm[i * 1024], out, 1024);  // expected-error {{DataCopy uses a tensor of outQueue after FreeTensor}} [ASC201]
    }
}

// every flag there, in the wrong places: the MTE2_V pair before the MTE3_MTE2 one (V waits for a copy-in
// that is not yet ordered after the copy-out), and a SetFlag<MTE3_MTE2> issued before the copy-out it should
// follow
extern "C" __global__ __aicore__ void chain_out_of_order(GM_ADDR xAddr, GM_ADDR zAddr, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQueue;
    TQue<TPosition::VECOUT, 1> earlyQueue;
    TBuf<TPosition::VECCALC> inBuf;
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)xAddr, 8192);
    zGm.SetGlobalBuffer((__gm__ float *)zAddr, 8192);
    pipe.InitBuffer(outQueue, 1, 1024 * sizeof(float));
    pipe.InitBuffer(earlyQueue, 1, 1024 * sizeof(float));
    pipe.InitBuffer(inBuf, 1024 * sizeof(float));
    LocalTensor<float> in = inBuf.Get<float>();
    LocalTensor<float> out = outQueue.AllocTensor<float>();
    outQueue.FreeTensor(out);
    for (int32_t i = 0; i < 8; i++) {
        SetFlag<HardEvent::MTE2_V>(EVENT_ID1);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);
        SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        DataCopy(in, xGm[i * 1024], 1024);
        Muls(out, in, 2.0f, 1024);  // expected-warning {{Muls uses a tensor of outQueue after FreeTensor}} [ASC201]
        // expected-note@-1 {{the write relies on the queue's buffer rotation}}
        // expected-note@-2 {{the write also relies on the compiler's auto-sync}}
        // expected-note@-3 {{the buffer is written again here on PIPE_V}}
        SetFlag<HardEvent::V_MTE3>(EVENT_ID2);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID2);
        DataCopy(zGm[i * 1024], out, 1024);  // expected-error {{DataCopy uses a tensor of outQueue after FreeTensor}} [ASC201]
    }

    LocalTensor<float> e = earlyQueue.AllocTensor<float>();
    earlyQueue.FreeTensor(e);
    Duplicate(e, 0.0f, 1024);  // expected-warning {{Duplicate uses a tensor of earlyQueue after FreeTensor}} [ASC201]
    // expected-note@-1 {{the write relies on the queue's buffer rotation}}
    // expected-note@-2 {{the write also relies on the compiler's auto-sync}}
    SetFlag<HardEvent::V_MTE3>(EVENT_ID2);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID2);
    SetFlag<HardEvent::MTE3_V>(EVENT_ID3);
    DataCopy(zGm, e, 1024);  // expected-error {{DataCopy uses a tensor of earlyQueue after FreeTensor}} [ASC201]
    WaitFlag<HardEvent::MTE3_V>(EVENT_ID3);
    Duplicate(e, 1.0f, 1024);  // expected-warning {{Duplicate uses a tensor of earlyQueue after FreeTensor}} [ASC201]
    // expected-note@-1 {{the write relies on the queue's buffer rotation}}
    // expected-note@-2 {{the write also relies on the compiler's auto-sync}}
    // expected-note@-3 {{the buffer is written again here on PIPE_V}}
}

// the three-pipe chain (V -> MTE3 -> MTE2) of use_after_free_flag_chain.cpp without its MTE3_MTE2 pair: the
// next tile's copy-in may overwrite the freed input while the vector pipe still reads it
extern "C" __global__ __aicore__ void chain_three_pipes_broken(GM_ADDR xAddr, GM_ADDR zAddr, GM_ADDR workspace,
                                                               GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> resQueue;
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)xAddr, 8192);
    zGm.SetGlobalBuffer((__gm__ float *)zAddr, 8192);
    pipe.InitBuffer(inQueue, 1, 1024 * sizeof(float));
    pipe.InitBuffer(resQueue, 1, 1024 * sizeof(float));
    for (int32_t i = 0; i < 8; i++) {
        LocalTensor<float> x = inQueue.AllocTensor<float>();
        DataCopy(x, xGm[i * 1024], 1024);  // expected-note {{the buffer is written again here on PIPE_MTE2}}
        inQueue.EnQue(x);
        x = inQueue.DeQue<float>();
        LocalTensor<float> r = resQueue.AllocTensor<float>();
        inQueue.FreeTensor(x);
        Exp(r, x, 1024);  // expected-error {{Exp uses a tensor of inQueue after FreeTensor}} [ASC201]
        SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
        resQueue.EnQue(r);
        r = resQueue.DeQue<float>();
        DataCopy(zGm[i * 1024], r, 1024);
        resQueue.FreeTensor(r);
    }
}

// the sorter's loop ends with a copy-out; the buffer is then handed out again and written with no chain
// after that last copy-out
extern "C" __global__ __aicore__ void chain_after_loop(GM_ADDR xAddr, GM_ADDR zAddr, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> inBuf;
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)xAddr, 8192);
    zGm.SetGlobalBuffer((__gm__ float *)zAddr, 8192);
    pipe.InitBuffer(outQueue, 1, 1024 * sizeof(float));
    pipe.InitBuffer(inBuf, 1024 * sizeof(float));
    LocalTensor<float> in = inBuf.Get<float>();
    LocalTensor<float> out = outQueue.AllocTensor<float>();
    outQueue.FreeTensor(out);
    for (int32_t i = 0; i < 8; i++) {
        SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        DataCopy(in, xGm[i * 1024], 1024);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID1);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);
        Muls(out, in, 2.0f, 1024);  // expected-warning {{Muls uses a tensor of outQueue after FreeTensor}} [ASC201]
        // expected-note@-1 {{the write relies on the queue's buffer rotation}}
        // expected-note@-2 {{the write also relies on the compiler's auto-sync}}
        SetFlag<HardEvent::V_MTE3>(EVENT_ID2);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID2);
        DataCopy(zGm[i * 1024], out, 1024);  // expected-error {{DataCopy uses a tensor of outQueue after FreeTensor}} [ASC201]
    }
    LocalTensor<float> next = outQueue.AllocTensor<float>();
    Duplicate(next, 0.0f, 1024);  // expected-note {{the buffer is written again here on PIPE_V}}
    outQueue.EnQue(next);
    next = outQueue.DeQue<float>();
    DataCopy(zGm, next, 1024);
    outQueue.FreeTensor(next);
}

// TPipe::Reset gives the buffers back without a barrier (unlike Destroy): the next owner of the bytes may
// write them while the copy-out still reads them
extern "C" __global__ __aicore__ void chain_reset(GM_ADDR xAddr, GM_ADDR zAddr, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> zGm;
    zGm.SetGlobalBuffer((__gm__ float *)zAddr, 8192);
    pipe.InitBuffer(outQueue, 1, 1024 * sizeof(float));
    LocalTensor<float> out = outQueue.AllocTensor<float>();
    Duplicate(out, 0.0f, 1024);
    outQueue.EnQue(out);
    out = outQueue.DeQue<float>();
    outQueue.FreeTensor(out);
    DataCopy(zGm, out, 1024);  // expected-error {{DataCopy uses a tensor of outQueue after FreeTensor}} [ASC201]
    pipe.Reset();  // expected-note {{TPipe::Reset gives the buffer back here, with no chain}}
}

// the software SyncAll(gm, ub, cores) is not taken as a barrier of this core's pipes (the hardware SyncAll()
// is: asc-devkit's SyncAllImpl starts with PipeBarrier<PIPE_ALL>), so the next vector write may overtake the
// copy-out
extern "C" __global__ __aicore__ void chain_soft_sync_all(GM_ADDR xAddr, GM_ADDR zAddr, GM_ADDR workspace,
                                                          GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> syncBuf;
    GlobalTensor<float> zGm;
    GlobalTensor<int32_t> syncGm;
    zGm.SetGlobalBuffer((__gm__ float *)zAddr, 8192);
    syncGm.SetGlobalBuffer((__gm__ int32_t *)workspace, 256);
    pipe.InitBuffer(outQueue, 1, 1024 * sizeof(float));
    pipe.InitBuffer(syncBuf, 256 * sizeof(int32_t));
    LocalTensor<int32_t> syncLocal = syncBuf.Get<int32_t>();
    LocalTensor<float> out = outQueue.AllocTensor<float>();
    outQueue.FreeTensor(out);
    Duplicate(out, 0.0f, 1024);  // expected-warning {{Duplicate uses a tensor of outQueue after FreeTensor}} [ASC201]
    // expected-note@-1 {{the write relies on the queue's buffer rotation}}
    // expected-note@-2 {{the write also relies on the compiler's auto-sync}}
    SetFlag<HardEvent::V_MTE3>(EVENT_ID2);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID2);
    DataCopy(zGm, out, 1024);  // expected-error {{DataCopy uses a tensor of outQueue after FreeTensor}} [ASC201]
    SyncAll(syncGm, syncLocal, 8);
    Duplicate(out, 1.0f, 1024);  // expected-warning {{Duplicate uses a tensor of outQueue after FreeTensor}} [ASC201]
    // expected-note@-1 {{the write relies on the queue's buffer rotation}}
    // expected-note@-2 {{the write also relies on the compiler's auto-sync}}
    // expected-note@-3 {{the buffer is written again here on PIPE_V}}
}
