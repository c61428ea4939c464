// Cast routes of the 2201 table with round modes each route accepts.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void cast_ok(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> hbuf;
    TBuf<TPosition::VECCALC> fbuf;
    TBuf<TPosition::VECCALC> ibuf;
    TBuf<TPosition::VECCALC> sbuf;
    pipe.InitBuffer(hbuf, 2048);
    pipe.InitBuffer(fbuf, 4096);
    pipe.InitBuffer(ibuf, 4096);
    pipe.InitBuffer(sbuf, 2048);
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, 1024);
    yGm.SetGlobalBuffer((__gm__ half *)y, 1024);
    LocalTensor<half> h = hbuf.Get<half>();
    LocalTensor<float> f = fbuf.Get<float>();
    LocalTensor<int32_t> i = ibuf.Get<int32_t>();
    LocalTensor<int16_t> s = sbuf.Get<int16_t>();
    DataCopy(h, xGm, 1024);
    Cast(f, h, RoundMode::CAST_NONE, 1024);
    Cast(i, f, RoundMode::CAST_ROUND, 1024);
    Cast(f, i, RoundMode::CAST_NONE, 1024);
    Cast(s, h, RoundMode::CAST_TRUNC, 1024);
    Cast(h, s, RoundMode::CAST_NONE, 1024);
    Cast(h, f, RoundMode::CAST_RINT, 1024);
    Cast(h, f, RoundMode::CAST_ODD, 64, 16, {1, 1, 4, 8});
    DataCopy(yGm, h, 1024);
}
