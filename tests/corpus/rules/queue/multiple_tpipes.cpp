// The kernel function declares a TPipe for the matmul object while the kernel class owns another one;
// a helper that builds its own local pipe is a third. Pipes in separate scopes are not flagged.
#include "kernel_operator.h"
using namespace AscendC;

class KernelGemmAct {
public:
    __aicore__ inline KernelGemmAct() {}
    __aicore__ inline void Init(GM_ADDR y)
    {
        yGm.SetGlobalBuffer((__gm__ float *)y, 1024);
        pipe.InitBuffer(outQueue, 1, 4096);
    }

    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> yGm;
};

extern "C" __global__ __aicore__ void gemm_act(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelGemmAct op;
    TPipe pipe;  // expected-error {{a second TPipe 'pipe' while 'pipe' is alive; a kernel has exactly one TPipe}} [ASC211]
    op.Init(y);
    {
        TPipe scratchPipe;  // expected-error {{a second TPipe 'scratchPipe'}} [ASC211]
    }
}
