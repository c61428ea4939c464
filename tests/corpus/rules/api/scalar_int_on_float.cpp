// An int literal is int32_t: on float (or int16_t) tensors T cannot be deduced.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void int_on_float(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> fbuf;
    TBuf<TPosition::VECCALC> sbuf;
    TBuf<TPosition::VECCALC> ibuf;
    pipe.InitBuffer(fbuf, 4096);
    pipe.InitBuffer(sbuf, 4096);
    pipe.InitBuffer(ibuf, 4096);
    LocalTensor<float> f = fbuf.Get<float>();
    LocalTensor<int16_t> s = sbuf.Get<int16_t>();
    LocalTensor<int32_t> i = ibuf.Get<int32_t>();
    Maxs(f, f, 0, 1024);  // expected-error {{Maxs on float tensors needs a scalarValue of type float, but the argument is int32_t}} [ASC503]
    Mins(f, f, 6, 1024);  // expected-error {{Mins on float tensors needs a scalarValue of type float, but the argument is int32_t}} [ASC503]
    Adds(s, s, 1, 2048);  // expected-error {{Adds on int16_t tensors needs a scalarValue of type int16_t, but the argument is int32_t}} [ASC503]
    Maxs(f, f, 0.0f, 1024);
    Mins(f, f, 6.0f, 1024);
    Adds(s, s, (int16_t)1, 2048);
    Adds(i, i, 1, 1024);
}
