// Two TQues on VECCALC in one kernel: the first only allocates scratch tensors (a warning), the second is enqueued
// and dequeued (an error). ASC210 collects the enqueued queues once, at the first VECCALC queue, and the second
// queue is judged by that same collection.
#include "kernel_operator.h"
using namespace AscendC;
class KernelAbs {
public:
    __aicore__ inline void Init(GM_ADDR x) {
        xGm.SetGlobalBuffer((__gm__ float *)x, 1024);
        pipe.InitBuffer(scratch, 1, 4096);
        pipe.InitBuffer(q, 1, 4096);
        pipe.InitBuffer(outQ, 1, 4096);
    }
    __aicore__ inline void Process() {
        LocalTensor<float> t = q.AllocTensor<float>();
        DataCopy(t, xGm, 1024);
        q.EnQue(t);
        LocalTensor<float> u = q.DeQue<float>();
        LocalTensor<float> s = scratch.AllocTensor<float>();
        LocalTensor<float> o = outQ.AllocTensor<float>();
        Abs(s, u, 1024);
        Abs(o, s, 1024);
        scratch.FreeTensor(s);
        q.FreeTensor(u);
        outQ.EnQue(o);
        o = outQ.DeQue<float>();
        DataCopy(xGm, o, 1024);
        outQ.FreeTensor(o);
    }
    TPipe pipe;
    TQue<TPosition::VECCALC, 1> scratch;  // expected-warning {{TQue 'scratch' is on VECCALC; queues move data between pipes}} [ASC210]
    TQue<TPosition::VECCALC, 1> q;  // expected-error {{TQue 'q' is on VECCALC and used as a queue}} [ASC210]
    TQue<TPosition::VECOUT, 1> outQ;
    GlobalTensor<float> xGm;
};
extern "C" __global__ __aicore__ void abs_veccalc_two_queues(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling) { KernelAbs op; op.Init(x); op.Process(); }
