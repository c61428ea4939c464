// Scratch space declared as a TQue on VECCALC (twice, with the legacy QuePosition spelling too): it compiles and
// works as a buffer pool, but the TBuf on VECCALC is the form the API documents (a warning).
#include "kernel_operator.h"
using namespace AscendC;

class KernelNorm {
public:
    __aicore__ inline KernelNorm() {}
    __aicore__ inline void Init(GM_ADDR x)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x, 1024);
        pipe.InitBuffer(inQueue, 1, 4096);
        pipe.InitBuffer(tmpQueue, 1, 4096);
        pipe.InitBuffer(workQueue, 1, 4096);
        pipe.InitBuffer(tmpBuf, 4096);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECCALC, 1> tmpQueue;  // expected-warning {{TQue 'tmpQueue' is on VECCALC; queues move data between pipes, scratch memory is a TBuf<TPosition::VECCALC>}} [ASC210]
    TQue<QuePosition::VECCALC, 1> workQueue;  // expected-warning {{TQue 'workQueue' is on VECCALC}} [ASC210]
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<float> xGm;
};

extern "C" __global__ __aicore__ void norm_veccalc(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelNorm op;
    op.Init(x);
}
