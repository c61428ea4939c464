// Clean: buffers that add up to exactly the 192 KB of UB (2 x 32 KB + 2 x 32 KB + 2 x 16 KB + 32 KB), and
// L0A/L0B/L0C queues exactly at their sizes.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void full_ub(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inX, inY;
    TQue<TPosition::VECOUT, 2> outZ;
    TBuf<TPosition::VECCALC> tmp;
    TQue<TPosition::A2, 2> a2;
    TQue<TPosition::B2, 2> b2;
    TQue<TPosition::CO1, 2> co1;
    pipe.InitBuffer(inX, 2, 32 * 1024);
    pipe.InitBuffer(inY, 2, 32 * 1024);
    pipe.InitBuffer(outZ, 2, 16 * 1024);
    pipe.InitBuffer(tmp, 32 * 1024);
    pipe.InitBuffer(a2, 2, 32 * 1024);
    pipe.InitBuffer(b2, 2, 32 * 1024);
    pipe.InitBuffer(co1, 2, 64 * 1024);
}
