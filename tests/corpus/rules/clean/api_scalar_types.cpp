// Scalars whose type is the element type: int literals on int32_t, float literals on float.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void scalar_ok(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> fbuf;
    TBuf<TPosition::VECCALC> ibuf;
    TBuf<TPosition::VECCALC> sbuf;
    pipe.InitBuffer(fbuf, 4096);
    pipe.InitBuffer(ibuf, 4096);
    pipe.InitBuffer(sbuf, 4096);
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 1024);
    LocalTensor<float> f = fbuf.Get<float>();
    LocalTensor<int32_t> i = ibuf.Get<int32_t>();
    LocalTensor<uint16_t> u = sbuf.Get<uint16_t>();
    DataCopy(f, xGm, 1024);
    Duplicate(i, 0, 1024);
    Adds(i, i, 1, 1024);
    Muls(i, i, -3, 1024);
    Duplicate<float>(f, 0, 64);
    Maxs(f, f, 0.0f, 1024);
    Mins(f, f, -1.5e-3f, 1024);
    float eps = 1e-5f;
    Adds(f, f, eps, 1024);
    Duplicate(u, (uint16_t)7, 2048);
    ShiftLeft(u, u, (uint16_t)2, 2048);
    DataCopy(xGm, f, 1024);
}
