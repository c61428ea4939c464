// Transcendental vector ops exist for half and float only: int32_t tensors must be cast first.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void exp_int(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ibuf;
    TBuf<TPosition::VECCALC> fbuf;
    pipe.InitBuffer(ibuf, 4096);
    pipe.InitBuffer(fbuf, 4096);
    LocalTensor<int32_t> ti = ibuf.Get<int32_t>();
    LocalTensor<float> tf = fbuf.Get<float>();
    Exp(ti, ti, 1024);  // expected-error {{Exp does not support int32_t on 910B2 (arch 2201); supported element types: half, float}} [ASC502]
    Ln(ti, ti, 1024);  // expected-error {{Ln does not support int32_t}} [ASC502]
    // expected-error@+1 {{Sqrt does not support int32_t}} [ASC502]
    Sqrt(ti, ti, 64, 16, {1, 1, 8, 8});
    Cast(tf, ti, RoundMode::CAST_NONE, 1024);
    Exp(tf, tf, 1024);
    Sqrt(tf, tf, 1024);
}
