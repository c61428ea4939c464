// Vector operands at t[off] must start on a 32-byte boundary; scalar access at any offset is fine.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void shifted(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> hbuf;
    TBuf<TPosition::VECCALC> fbuf;
    pipe.InitBuffer(hbuf, 4096);
    pipe.InitBuffer(fbuf, 4096);
    LocalTensor<half> h = hbuf.Get<half>();
    LocalTensor<float> f = fbuf.Get<float>();
    Duplicate(h, (half)0, 1024);
    Duplicate(f, 0.0f, 512);
    // expected-error@+1 {{Add src0 starts 10 elements = 20 bytes into its tensor; UB operands must be 32-byte aligned}} [ASC404]
    Add(h, h[10], h, 64);
    Add(h, h[16], h, 64);
    Muls(f[4], f, 2.0f, 64);  // expected-error {{Muls dst starts 4 elements = 16 bytes}} [ASC404]
    Muls(f[8], f, 2.0f, 64);
    Exp(f, f[12], 64);        // expected-error {{Exp src starts 12 elements = 48 bytes}} [ASC404]
    float v = f[3].GetValue(0);
    f[5].SetValue(0, v);
}
