// Clean: sub-tensors at 32-byte multiples, offsets only known at run time, and scalar accesses at
// any element offset.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void halves(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> hbuf;
    TBuf<TPosition::VECCALC> fbuf;
    GlobalTensor<half> xGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, 4096);
    pipe.InitBuffer(hbuf, 8192);
    pipe.InitBuffer(fbuf, 8192);
    LocalTensor<half> h = hbuf.Get<half>();
    LocalTensor<float> f = fbuf.Get<float>();
    DataCopy(h, xGm, 2048);
    DataCopy(h[2048], xGm[2048], 1024);
    Add(h[128], h[16], h[1024], 128);
    Cast(f, h[512], RoundMode::CAST_NONE, 1024);
    Muls(f[8], f[64], 0.5f, 256);
    uint32_t row = td.row;
    Adds(f[row * 8], f, 1.0f, 64);
    float first = f[3].GetValue(0);
    f[5].SetValue(1, first);
}
