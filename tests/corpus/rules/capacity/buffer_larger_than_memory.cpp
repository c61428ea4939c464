// Single buffers bigger than their whole memory: a 256 KB UB scratch TBuf, and a double-buffered queue of
// 2 x 100 KB. A 128 KB TBuf alone fits.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void huge_buffers(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> calcBuf;
    TQue<TPosition::VECIN, 2> inQueue;
    if (td.mode == 0) {
        pipe.InitBuffer(calcBuf, 256 * 1024);  // expected-error {{InitBuffer of calcBuf asks for 262144 bytes; the 910B2 UB holds 196608}} [ASC302]
    } else if (td.mode == 1) {
        pipe.InitBuffer(inQueue, 2, 100 * 1024);  // expected-error {{InitBuffer of inQueue asks for 2 x 102400 = 204800 bytes}} [ASC302]
    } else {
        pipe.InitBuffer(calcBuf, 128 * 1024);
    }
}
