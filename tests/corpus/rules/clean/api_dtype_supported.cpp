// Every call on an element type the API supports on 2201.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void dtype_ok(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> hbuf;
    TBuf<TPosition::VECCALC> fbuf;
    TBuf<TPosition::VECCALC> sbuf;
    TBuf<TPosition::VECCALC> wbuf;
    pipe.InitBuffer(hbuf, 4096);
    pipe.InitBuffer(fbuf, 8192);
    pipe.InitBuffer(sbuf, 4096);
    pipe.InitBuffer(wbuf, 8192);
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 2048);
    LocalTensor<half> h = hbuf.Get<half>();
    LocalTensor<float> f = fbuf.Get<float>();
    LocalTensor<int16_t> s = sbuf.Get<int16_t>();
    LocalTensor<float> w = wbuf.Get<float>();
    DataCopy(f, xGm, 2048);
    Exp(f, f, 2048);
    Ln(f, f, 2048);
    Div(f, f, f, 2048);
    Cast(h, f, RoundMode::CAST_NONE, 2048);
    Abs(h, h, 2048);
    Sqrt(h, h, 2048);
    And(s, s, s, 2048);
    Max(s, s, s, 2048);
    Axpy(f, h, (half)0.5, 2048);
    ReduceSum(w, f, w, 2048);
    DataCopy(xGm, f, 2048);
}
