// Reads of a tensor after FreeTensor gave its buffer back, told apart by whether the queue can have handed
// that buffer out again (AllocTensor takes the first free buffer after the queue's cursor, so with two buffers
// the AllocTensor after a free takes the other one). Kept intact by construction: a warning that says the code
// relies on the rotation. Handed out again, or read on a pipe the next writer does not wait for: errors.
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ void FillOutside(const LocalTensor<float> &t);  // defined elsewhere: what it does is not followed

extern "C" __global__ __aicore__ void use_after_free_rotation(GM_ADDR xAddr, GM_ADDR zAddr, GM_ADDR workspace,
                                                              GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueueX;
    TQue<TPosition::VECOUT, 1> outQueueY;  // two buffers: x and y below take turns
    TQue<TPosition::VECOUT, 1> outQueueS;  // one buffer
    TQue<TPosition::VECOUT, 1> outQueueW;  // two buffers, the other one held
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)xAddr, 8192);
    zGm.SetGlobalBuffer((__gm__ float *)zAddr, 8192);
    pipe.InitBuffer(inQueueX, 1, 1024 * sizeof(float));
    pipe.InitBuffer(outQueueY, 2, 1024 * sizeof(float));
    pipe.InitBuffer(outQueueS, 1, 1024 * sizeof(float));
    pipe.InitBuffer(outQueueW, 2, 1024 * sizeof(float));
    pipe.InitBuffer(tmpBuf, 1024 * sizeof(float));
    LocalTensor<float> tmp = tmpBuf.Get<float>();

    for (int32_t i = 0; i < 8; i++) {
        LocalTensor<float> in = inQueueX.AllocTensor<float>();
        DataCopy(in, xGm[i * 1024], 1024);
        inQueueX.EnQue(in);
        in = inQueueX.DeQue<float>();
        LocalTensor<float> x = outQueueY.AllocTensor<float>();
        Abs(x, in, 1024);
        inQueueX.FreeTensor(in);
        outQueueY.EnQue(x);
        LocalTensor<float> xOut = outQueueY.DeQue<float>();
        DataCopy(zGm[i * 1024], xOut, 1024);
        outQueueY.FreeTensor(xOut);
        // x's buffer is free, but no AllocTensor took it since: the vector pipe reads it before it writes it again
        Exp(tmp, x, 1024);  // expected-warning {{Exp uses a tensor of outQueueY after FreeTensor gave its buffer back}} [ASC201]
        LocalTensor<float> y = outQueueY.AllocTensor<float>();  // the other of the two buffers
        Mul(y, x, tmp, 1024);  // expected-warning {{Mul uses a tensor of outQueueY after FreeTensor}} [ASC201]
        outQueueY.EnQue(y);
        y = outQueueY.DeQue<float>();
        DataCopy(zGm[4096 + i * 1024], y, 1024);
        outQueueY.FreeTensor(y);
    }

    LocalTensor<float> s = outQueueS.AllocTensor<float>();
    Duplicate(s, 1.0f, 1024);
    outQueueS.EnQue(s);
    LocalTensor<float> sOut = outQueueS.DeQue<float>();
    DataCopy(zGm, sOut, 1024);
    outQueueS.FreeTensor(sOut);
    // the copy-out pipe reads it: the next AllocTensor's writer does not wait for that read
    DataCopy(zGm[1024], s, 1024);  // expected-error {{DataCopy uses a tensor of outQueueS after FreeTensor}} [ASC201]
    LocalTensor<float> s2 = outQueueS.AllocTensor<float>();  // the only buffer: s's bytes are s2's now
    Duplicate(s2, 2.0f, 1024);
    Add(tmp, s, tmp, 1024);  // expected-error {{Add uses a tensor of outQueueS after FreeTensor}} [ASC201]
    outQueueS.EnQue(s2);
    s2 = outQueueS.DeQue<float>();
    DataCopy(zGm[2048], s2, 1024);
    outQueueS.FreeTensor(s2);
    // written through the freed tensor, then read, with no AllocTensor since: the bytes are still no other
    // tensor's, and the copy-out still reading them is ordered by the compiler's auto-sync (use_after_free_write.cpp)
    Duplicate(s2, 3.0f, 1024);  // expected-warning {{Duplicate uses a tensor of outQueueS after FreeTensor}} [ASC201]
    Exp(tmp, s2, 1024);  // expected-warning {{Exp uses a tensor of outQueueS after FreeTensor}} [ASC201]

    // two buffers, but the other one is still taken: the next AllocTensor must hand out the freed one
    LocalTensor<float> a = outQueueW.AllocTensor<float>();
    LocalTensor<float> b = outQueueW.AllocTensor<float>();
    Duplicate(a, 1.0f, 1024);
    Duplicate(b, 2.0f, 1024);
    outQueueW.FreeTensor(a);
    LocalTensor<float> c = outQueueW.AllocTensor<float>();
    Duplicate(c, 4.0f, 1024);
    Add(tmp, a, b, 1024);  // expected-error {{Add uses a tensor of outQueueW after FreeTensor}} [ASC201]
    outQueueW.FreeTensor(b);
    outQueueW.FreeTensor(c);

    // handed to a function the check does not follow, which may write it
    LocalTensor<float> d = outQueueY.AllocTensor<float>();
    Duplicate(d, 1.0f, 1024);
    outQueueY.EnQue(d);
    LocalTensor<float> dOut = outQueueY.DeQue<float>();
    DataCopy(zGm, dOut, 1024);
    outQueueY.FreeTensor(dOut);
    FillOutside(d);
    Exp(tmp, d, 1024);  // expected-error {{Exp uses a tensor of outQueueY after FreeTensor}} [ASC201]
}
