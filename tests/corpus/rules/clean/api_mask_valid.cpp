// Continuous masks within the lanes of a repeat, and bit masks.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void mask_ok(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> fbuf;
    TBuf<TPosition::VECCALC> hbuf;
    pipe.InitBuffer(fbuf, 8192);
    pipe.InitBuffer(hbuf, 8192);
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 2048);
    LocalTensor<float> f = fbuf.Get<float>();
    LocalTensor<half> h = hbuf.Get<half>();
    DataCopy(f, xGm, 2048);
    Add(f, f, f, 64, 32, {1, 1, 1, 8, 8, 8});
    Exp(f, f, 17, 4, {1, 1, 8, 8});
    Cast(h, f, RoundMode::CAST_NONE, 64, 32, {1, 1, 4, 8});
    Muls(h, h, (half)0.5, 128, 16, {1, 1, 8, 8});
    uint64_t bits[2] = {0xffffffffffffffffULL, 0};
    Adds(h, h, (half)1.0, bits, 16, {1, 1, 8, 8});
    Duplicate(f, 0.0f, 64, 32, 1, 8);
    DataCopy(xGm, f, 2048);
}
