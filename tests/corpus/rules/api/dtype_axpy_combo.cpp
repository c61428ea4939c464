// Axpy accumulates half into half, float into float, or half into float; never float into half.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void axpy_combo(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> hbuf;
    TBuf<TPosition::VECCALC> fbuf;
    pipe.InitBuffer(hbuf, 4096);
    pipe.InitBuffer(fbuf, 8192);
    LocalTensor<half> h = hbuf.Get<half>();
    LocalTensor<float> f = fbuf.Get<float>();
    Axpy(h, f, 0.5f, 1024);  // expected-error {{Axpy does not support T = half, U = float on 910B2}} [ASC502]
    Axpy(f, h, (half)0.5, 1024);
    Axpy(f, f, 0.5f, 1024);
}
