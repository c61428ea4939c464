// A TQue on VECCALC used as an input queue: the DataCopy into it is enqueued and dequeued, but the queue's events
// join the vector pipe to itself, so Abs may read the tensor before MTE2 has filled it (an error; a VECCALC TQue
// used only for AllocTensor/FreeTensor is the warning of tque_veccalc.cpp).
#include "kernel_operator.h"
using namespace AscendC;
class KernelAbs {
public:
    __aicore__ inline void Init(GM_ADDR x) {
        xGm.SetGlobalBuffer((__gm__ float *)x, 1024);
        pipe.InitBuffer(q, 1, 4096);
        pipe.InitBuffer(outQ, 1, 4096);
    }
    __aicore__ inline void Process() {
        LocalTensor<float> t = q.AllocTensor<float>();
        DataCopy(t, xGm, 1024);
        q.EnQue(t);
        LocalTensor<float> u = q.DeQue<float>();
        LocalTensor<float> o = outQ.AllocTensor<float>();
        Abs(o, u, 1024);
        q.FreeTensor(u);
        outQ.EnQue(o);
        o = outQ.DeQue<float>();
        DataCopy(xGm, o, 1024);
        outQ.FreeTensor(o);
    }
    TPipe pipe;
    TQue<TPosition::VECCALC, 1> q;  // expected-error {{TQue 'q' is on VECCALC and used as a queue}} [ASC210]
    TQue<TPosition::VECOUT, 1> outQ;
    GlobalTensor<float> xGm;
};
extern "C" __global__ __aicore__ void abs_veccalc_queue(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling) { KernelAbs op; op.Init(x); op.Process(); }
