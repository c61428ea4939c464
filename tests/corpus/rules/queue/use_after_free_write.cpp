// Writes to a tensor after FreeTensor gave its buffer back, and reads that the rotation argument covers on
// other pipes. A vector write to a freed VECOUT buffer that no AllocTensor since the free can have handed out
// is the situation of a read there: no other tensor owns the bytes and the next writer is the vector pipe,
// behind it; the one user still in flight is the queue's own copy-out (MTE3), which the compiler's auto-sync
// orders before the write (the simulator grades that V <-> MTE3 pair the same way). A warning naming both.
// Errors: the buffer can have been handed out again, a VECIN buffer (or a TQueBind<VECIN, VECOUT> copy
// through UB), whose next copy-in MTE2 may overtake a vector use, and a copy into the freed buffer.
// (NPUKernelBench AddRmsNorm's _multi_n.h: Gather(rstdLocal, rstdLocal, ...) after CopyOutRstd freed it;
// FeedsRepeat: GetValue of a freed VECIN tensor.)
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void use_after_free_write(GM_ADDR xAddr, GM_ADDR zAddr, GM_ADDR workspace,
                                                           GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueueX;    // one buffer
    TQue<TPosition::VECOUT, 1> outQueueR;  // one buffer
    TQue<TPosition::VECOUT, 1> outQueueY;  // two buffers
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> copyQueue;  // a copy through UB: MTE2 in, MTE3 out
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)xAddr, 8192);
    zGm.SetGlobalBuffer((__gm__ float *)zAddr, 8192);
    pipe.InitBuffer(inQueueX, 1, 1024 * sizeof(float));
    pipe.InitBuffer(outQueueR, 1, 1024 * sizeof(float));
    pipe.InitBuffer(outQueueY, 2, 1024 * sizeof(float));
    pipe.InitBuffer(copyQueue, 1, 1024 * sizeof(float));
    pipe.InitBuffer(tmpBuf, 1024 * sizeof(float));
    LocalTensor<float> tmp = tmpBuf.Get<float>();

    for (int32_t i = 0; i < 4; i++) {
        LocalTensor<float> in = inQueueX.AllocTensor<float>();
        DataCopy(in, xGm[i * 1024], 1024);
        inQueueX.EnQue(in);
        in = inQueueX.DeQue<float>();
        LocalTensor<float> r = outQueueR.AllocTensor<float>();
        Exp(r, in, 1024);
        inQueueX.FreeTensor(in);
        outQueueR.EnQue(r);
        LocalTensor<float> rOut = outQueueR.DeQue<float>();
        DataCopy(zGm[i * 1024], rOut, 1024);
        outQueueR.FreeTensor(rOut);
        // r's only buffer is free and no AllocTensor took it since: written in place, then read (AddRmsNorm)
        Muls(r, r, 2.0f, 1024);  // expected-warning {{Muls uses a tensor of outQueueR after FreeTensor}} [ASC201]
        // expected-note@-1 {{the write relies on the queue's buffer rotation}}
        // expected-note@-2 {{the write also relies on the compiler's auto-sync to order it after the copy-out}}
        Add(tmp, r, tmp, 1024);  // expected-warning {{Add uses a tensor of outQueueR after FreeTensor}} [ASC201]
        // expected-note@-1 {{the read relies on the queue's buffer rotation}}
        r.SetValue(0, 1.0f);  // expected-warning {{SetValue uses a tensor of outQueueR after FreeTensor}} [ASC201]
        // the vector reads of `in` and the GetValue below are done before the next AllocTensor is issued
        float first = in.GetValue(0);  // expected-warning {{GetValue uses a tensor of inQueueX after FreeTensor}} [ASC201]
        Adds(tmp, tmp, first, 1024);
    }

    // handed out again: the AllocTensor takes the one buffer, the write lands in s2's bytes
    LocalTensor<float> s = outQueueR.AllocTensor<float>();
    Duplicate(s, 1.0f, 1024);
    outQueueR.EnQue(s);
    LocalTensor<float> sOut = outQueueR.DeQue<float>();
    DataCopy(zGm, sOut, 1024);
    outQueueR.FreeTensor(sOut);
    LocalTensor<float> s2 = outQueueR.AllocTensor<float>();
    Duplicate(s, 2.0f, 1024);  // expected-error {{Duplicate uses a tensor of outQueueR after FreeTensor}} [ASC201]
    outQueueR.FreeTensor(s2);

    // two buffers, the other one held: the AllocTensor after the free must hand out the freed one
    LocalTensor<float> a = outQueueY.AllocTensor<float>();
    LocalTensor<float> b = outQueueY.AllocTensor<float>();
    Duplicate(a, 1.0f, 1024);
    Duplicate(b, 2.0f, 1024);
    outQueueY.FreeTensor(a);
    LocalTensor<float> c = outQueueY.AllocTensor<float>();
    Duplicate(c, 4.0f, 1024);
    Adds(a, b, 1.0f, 1024);  // expected-error {{Adds uses a tensor of outQueueY after FreeTensor}} [ASC201]
    outQueueY.FreeTensor(b);
    outQueueY.FreeTensor(c);

    // a freed VECIN buffer: the next copy-in (MTE2) waits only for what ran before the free
    LocalTensor<float> x = inQueueX.AllocTensor<float>();
    DataCopy(x, xGm, 1024);
    inQueueX.EnQue(x);
    x = inQueueX.DeQue<float>();
    inQueueX.FreeTensor(x);
    Muls(x, x, 2.0f, 1024);  // expected-error {{Muls uses a tensor of inQueueX after FreeTensor}} [ASC201]
    LocalTensor<float> x2 = inQueueX.AllocTensor<float>();  // the one buffer again: x's bytes are x2's now
    DataCopy(x2, xGm[1024], 1024);
    float late = x.GetValue(0);  // expected-error {{GetValue uses a tensor of inQueueX after FreeTensor}} [ASC201]
    inQueueX.EnQue(x2);
    x2 = inQueueX.DeQue<float>();
    Adds(tmp, x2, late, 1024);
    inQueueX.FreeTensor(x2);

    // a copy into the freed VECOUT buffer is no vector write (MTE2 is not ordered behind the copy-out)
    LocalTensor<float> d = outQueueR.AllocTensor<float>();
    Duplicate(d, 1.0f, 1024);
    outQueueR.EnQue(d);
    LocalTensor<float> dOut = outQueueR.DeQue<float>();
    DataCopy(zGm[1024], dOut, 1024);
    outQueueR.FreeTensor(dOut);
    DataCopy(d, xGm, 1024);  // expected-error {{DataCopy uses a tensor of outQueueR after FreeTensor}} [ASC201]

    // TQueBind<VECIN, VECOUT>: a VECOUT position, but MTE2 fills the buffer next, so a vector read stays an error
    // (the next row's copy-in, which nothing orders after it; with no later write at all, or one behind a
    // chain of flags, it would be a warning: use_after_free_flag_chain.cpp)
    LocalTensor<float> row = copyQueue.AllocTensor<float>();
    DataCopy(row, xGm, 1024);
    copyQueue.EnQue(row);
    row = copyQueue.DeQue<float>();
    DataCopy(zGm[2048], row, 1024);
    copyQueue.FreeTensor(row);
    Exp(tmp, row, 1024);  // expected-error {{Exp uses a tensor of copyQueue after FreeTensor}} [ASC201]
    LocalTensor<float> nextRow = copyQueue.AllocTensor<float>();
    DataCopy(nextRow, xGm[1024], 1024);  // expected-note {{the buffer is written again here on PIPE_MTE2}}
    copyQueue.EnQue(nextRow);
    nextRow = copyQueue.DeQue<float>();
    DataCopy(zGm[3072], nextRow, 1024);
    copyQueue.FreeTensor(nextRow);
}
