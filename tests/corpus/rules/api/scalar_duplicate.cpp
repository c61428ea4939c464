// Duplicate fills a tensor with a scalar of its own element type.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void fill(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> fbuf;
    TBuf<TPosition::VECCALC> hbuf;
    pipe.InitBuffer(fbuf, 4096);
    pipe.InitBuffer(hbuf, 4096);
    LocalTensor<float> f = fbuf.Get<float>();
    LocalTensor<half> h = hbuf.Get<half>();
    Duplicate(f, 0, 1024);  // expected-error {{Duplicate on float tensors needs a scalarValue of type float, but the argument is int32_t}} [ASC503]
    Duplicate(h, 0.0f, 2048);  // expected-error {{Duplicate on half tensors needs a scalarValue of type half, but the argument is float}} [ASC503]
    // expected-error@+1 {{Duplicate on float tensors needs a scalarValue of type float, but the argument is int32_t}} [ASC503]
    Duplicate(f, -1, 64, 16, 1, 8);
    Duplicate(f, 0.0f, 1024);
    Duplicate(h, (half)0, 2048);
    Duplicate<float>(f, 0, 1024);
}
