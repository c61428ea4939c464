// Compare's count form works on whole 256-byte repeats.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void cmp(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> fbuf;
    TBuf<TPosition::VECCALC> hbuf;
    TBuf<TPosition::VECCALC> mbuf;
    pipe.InitBuffer(fbuf, 4096);
    pipe.InitBuffer(hbuf, 4096);
    pipe.InitBuffer(mbuf, 1024);
    LocalTensor<float> f = fbuf.Get<float>();
    LocalTensor<half> h = hbuf.Get<half>();
    LocalTensor<uint8_t> m = mbuf.Get<uint8_t>();
    Duplicate(f, 1.0f, 1024);
    Duplicate(h, (half)1.0, 2048);
    Compare(m, f, f, CMPMODE::LT, 100);  // expected-error {{Compare over 100 elements = 400 bytes; the count form needs a multiple of 256 bytes (64 elements)}} [ASC407]
    Compare(m, f, f, CMPMODE::LT, 128);
    Compare(m, h, h, CMPMODE::EQ, 200);  // expected-error {{Compare over 200 elements = 400 bytes}} [ASC407]
    Compare(m, h, h, CMPMODE::EQ, 256);
}
