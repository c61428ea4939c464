// Shifts are integer operations; Abs and LeakyRelu are float operations.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void shift_float(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> fbuf;
    TBuf<TPosition::VECCALC> ubuf;
    TBuf<TPosition::VECCALC> ibuf;
    pipe.InitBuffer(fbuf, 4096);
    pipe.InitBuffer(ubuf, 4096);
    pipe.InitBuffer(ibuf, 4096);
    LocalTensor<float> f = fbuf.Get<float>();
    LocalTensor<uint32_t> u = ubuf.Get<uint32_t>();
    LocalTensor<int16_t> s = ibuf.Get<int16_t>();
    ShiftLeft(f, f, 2.0f, 1024);  // expected-error {{ShiftLeft does not support float}} [ASC502]
    ShiftLeft(u, u, (uint32_t)2, 1024);
    Abs(s, s, 2048);  // expected-error {{Abs does not support int16_t}} [ASC502]
    LeakyRelu(s, s, (int16_t)1, 2048);  // expected-error {{LeakyRelu does not support int16_t}} [ASC502]
    Abs(f, f, 1024);
}
