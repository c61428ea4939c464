// Div is half/float only; the bitwise And/Or are 16-bit integer only.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void div_int16(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> sbuf;
    TBuf<TPosition::VECCALC> fbuf;
    pipe.InitBuffer(sbuf, 4096);
    pipe.InitBuffer(fbuf, 4096);
    LocalTensor<int16_t> a = sbuf.Get<int16_t>();
    LocalTensor<float> f = fbuf.Get<float>();
    Div(a, a, a, 2048);  // expected-error {{Div does not support int16_t on 910B2 (arch 2201); supported element types: half, float}} [ASC502]
    And(f, f, f, 1024);  // expected-error {{And does not support float on 910B2 (arch 2201); supported element types: int16_t, uint16_t}} [ASC502]
    Or(f, f, f, 1024);   // expected-error {{Or does not support float}} [ASC502]
    Max(a, a, a, 2048);
    And(a, a, a, 2048);
    Div(f, f, f, 1024);
}
