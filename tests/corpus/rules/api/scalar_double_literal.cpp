// An unsuffixed floating literal is a double: no tensor element type matches it.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void double_literal(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> fbuf;
    TBuf<TPosition::VECCALC> hbuf;
    pipe.InitBuffer(fbuf, 4096);
    pipe.InitBuffer(hbuf, 4096);
    LocalTensor<float> f = fbuf.Get<float>();
    LocalTensor<half> h = hbuf.Get<half>();
    Muls(f, f, 0.5, 1024);  // expected-error {{Muls on float tensors needs a scalarValue of type float, but the argument is double}} [ASC503]
    // expected-error@+1 {{LeakyRelu on half tensors needs a scalarValue of type half, but the argument is float}} [ASC503]
    LeakyRelu(h, h, 0.01f, 2048);
    LeakyRelu(f, f, -0.01, 1024);  // expected-error {{LeakyRelu on float tensors needs a scalarValue of type float, but the argument is double}} [ASC503]
    Muls(f, f, 0.5f, 1024);
    LeakyRelu(h, h, static_cast<half>(0.01f), 2048);
    LeakyRelu(f, f, -0.01f, 1024);
}
