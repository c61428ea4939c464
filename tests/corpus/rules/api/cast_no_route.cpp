// Routes the 2201 vector unit has no conversion instruction for.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void cast_routes(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> sbuf;
    TBuf<TPosition::VECCALC> ibuf;
    TBuf<TPosition::VECCALC> fbuf;
    TBuf<TPosition::VECCALC> ubuf;
    pipe.InitBuffer(sbuf, 2048);
    pipe.InitBuffer(ibuf, 4096);
    pipe.InitBuffer(fbuf, 4096);
    pipe.InitBuffer(ubuf, 1024);
    LocalTensor<int16_t> s = sbuf.Get<int16_t>();
    LocalTensor<int32_t> i = ibuf.Get<int32_t>();
    LocalTensor<float> f = fbuf.Get<float>();
    LocalTensor<uint8_t> u = ubuf.Get<uint8_t>();
    Cast(i, s, RoundMode::CAST_NONE, 1024);  // expected-error {{Cast from int16_t to int32_t does not exist on 910B2 (arch 2201)}} [ASC504]
    // expected-error@+1 {{Cast from float to uint8_t does not exist}} [ASC504]
    Cast(u, f, RoundMode::CAST_RINT, 1024);
    Cast(f, s, RoundMode::CAST_NONE, 1024);
    Cast(f, i, RoundMode::CAST_NONE, 1024);
    Cast(s, i, RoundMode::CAST_NONE, 1024);
}
