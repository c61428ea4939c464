// Copies shorter than one 32-byte block move nothing at all; int8 and int32 tiles too.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void copy_tiny(GM_ADDR x, GM_ADDR i8, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> fbuf;
    TBuf<TPosition::VECCALC> bbuf;
    GlobalTensor<float> xGm;
    GlobalTensor<int8_t> bGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 1024);
    bGm.SetGlobalBuffer((__gm__ int8_t*)i8, 1024);
    pipe.InitBuffer(fbuf, 4096);
    pipe.InitBuffer(bbuf, 4096);
    LocalTensor<float> f = fbuf.Get<float>();
    LocalTensor<int8_t> b = bbuf.Get<int8_t>();
    DataCopy(f, xGm, 7);   // expected-error {{7 x float = 28 bytes, not a multiple of 32 bytes; nothing is copied}} [ASC401]
    DataCopy(b, bGm, 48);  // expected-error {{48 x int8_t = 48 bytes}} [ASC401]
    DataCopy(b, bGm, 64);
    DataCopy(f, xGm, 8);
}
