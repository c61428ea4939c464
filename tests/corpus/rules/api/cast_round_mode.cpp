// Widening casts are exact (CAST_NONE only); float -> int32_t must say how to round.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void cast_modes(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> hbuf;
    TBuf<TPosition::VECCALC> fbuf;
    TBuf<TPosition::VECCALC> ibuf;
    pipe.InitBuffer(hbuf, 2048);
    pipe.InitBuffer(fbuf, 4096);
    pipe.InitBuffer(ibuf, 4096);
    LocalTensor<half> h = hbuf.Get<half>();
    LocalTensor<float> f = fbuf.Get<float>();
    LocalTensor<int32_t> i = ibuf.Get<int32_t>();
    // expected-error@+1 {{Cast from half to float does not take RoundMode::CAST_RINT on 910B2; allowed: CAST_NONE}} [ASC504]
    Cast(f, h, RoundMode::CAST_RINT, 1024);
    Cast(f, h, RoundMode::CAST_NONE, 1024);
    Cast(i, f, RoundMode::CAST_NONE, 1024);  // expected-error {{Cast from float to int32_t does not take RoundMode::CAST_NONE}} [ASC504]
    Cast(i, f, RoundMode::CAST_ODD, 1024);  // expected-error {{Cast from float to int32_t does not take RoundMode::CAST_ODD}} [ASC504]
    Cast(i, f, RoundMode::CAST_TRUNC, 1024);
    Cast(h, f, RoundMode::CAST_ODD, 1024);
    AscendC::Cast(f, i, AscendC::RoundMode::CAST_NONE, 1024);
}
