// 8 buffers in each of eight queue positions (64) plus a TBuf: 65 buffers, one past the TPipe's table.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void too_many_buffers(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> vin;
    TQue<TPosition::VECOUT, 1> vout;
    TQue<TPosition::A1, 1> a1;
    TQue<TPosition::B1, 1> b1;
    TQue<TPosition::A2, 1> a2;
    TQue<TPosition::B2, 1> b2;
    TQue<TPosition::CO1, 1> co1;
    TQue<TPosition::CO2, 1> co2;
    TBuf<TPosition::VECCALC> scratch;
    pipe.InitBuffer(vin, 8, 512);
    pipe.InitBuffer(vout, 8, 512);
    pipe.InitBuffer(a1, 8, 512);
    pipe.InitBuffer(b1, 8, 512);
    pipe.InitBuffer(a2, 8, 512);
    pipe.InitBuffer(b2, 8, 512);
    pipe.InitBuffer(co1, 8, 512);
    pipe.InitBuffer(co2, 8, 512);
    pipe.InitBuffer(scratch, 512);  // expected-error {{65 buffers over all InitBuffer calls; at most 64 are allowed}} [ASC209]
}
