// Each TILING_KEY_IS branch has its own pipe: key 1 fits (two 80 KB buffers), key 2 does not (three).
// The budgets of the two branches are not added together.
#include "kernel_operator.h"
using namespace AscendC;

class KernelSmall {
public:
    __aicore__ inline KernelSmall() {}
    __aicore__ inline void Init()
    {
        pipe.InitBuffer(inQueue, 1, 80 * 1024);
        pipe.InitBuffer(outQueue, 1, 80 * 1024);
    }
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
};

class KernelLarge {
public:
    __aicore__ inline KernelLarge() {}
    __aicore__ inline void Init()
    {
        pipe.InitBuffer(inQueue, 1, 80 * 1024);
        pipe.InitBuffer(outQueue, 1, 80 * 1024);
        pipe.InitBuffer(tmpBuf, 80 * 1024);  // expected-error {{UB buffers need 245760 bytes; the 910B2 UB holds 196608}} [ASC301]
    }
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> tmpBuf;
};

extern "C" __global__ __aicore__ void keyed(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    if (TILING_KEY_IS(1)) {
        KernelSmall op;
        op.Init();
    } else if (TILING_KEY_IS(2)) {
        KernelLarge op;
        op.Init();
    }
}
