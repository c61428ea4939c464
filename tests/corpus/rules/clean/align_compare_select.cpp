// Clean: Compare over whole 256-byte repeats, then Select with the mask.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void clamp_neg(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> fbuf;
    TBuf<TPosition::VECCALC> zbuf;
    TBuf<TPosition::VECCALC> mbuf;
    pipe.InitBuffer(fbuf, 1024 * sizeof(float));
    pipe.InitBuffer(zbuf, 1024 * sizeof(float));
    pipe.InitBuffer(mbuf, 1024);
    LocalTensor<float> f = fbuf.Get<float>();
    LocalTensor<float> z = zbuf.Get<float>();
    LocalTensor<uint8_t> m = mbuf.Get<uint8_t>();
    Duplicate(f, -1.0f, 1024);
    Duplicate(z, 0.0f, 1024);
    Compare(m, f, z, CMPMODE::GT, 1024);
    Compare(m, f, z, CMPMODE::GT, 64);
    Select(f, m, f, z, SELMODE::VSEL_TENSOR_TENSOR_MODE, 1024);
}
