// Queues that fit, then scratch TBufs sized for three rows of 8192 floats each: 64 KB + 3 x 32 KB + 48 KB
// = 208 KB of UB. Rows of 4096 would fit.
#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t ROW = 8192;

extern "C" __global__ __aicore__ void norm_scratch(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> sqBuf, sumBuf, meanBuf, workBuf;
    pipe.InitBuffer(inQueue, 1, ROW * sizeof(float));
    pipe.InitBuffer(outQueue, 1, ROW * sizeof(float));
    pipe.InitBuffer(sqBuf, ROW * sizeof(float));
    pipe.InitBuffer(sumBuf, ROW * sizeof(float));
    pipe.InitBuffer(meanBuf, ROW * sizeof(float));
    pipe.InitBuffer(workBuf, 48 * 1024);  // expected-error {{UB buffers need 212992 bytes; the 910B2 UB holds 196608}} [ASC301]
}
