// DataCopyPad pads each side of a row with at most 32 bytes.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void padding(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> hbuf;
    TBuf<TPosition::VECCALC> fbuf;
    GlobalTensor<half> hGm;
    GlobalTensor<float> fGm;
    hGm.SetGlobalBuffer((__gm__ half*)x, 4096);
    fGm.SetGlobalBuffer((__gm__ float*)x, 2048);
    pipe.InitBuffer(hbuf, 8192);
    pipe.InitBuffer(fbuf, 8192);
    LocalTensor<half> h = hbuf.Get<half>();
    LocalTensor<float> f = fbuf.Get<float>();
    DataCopyExtParams row{4, 30, 0, 0, 0};
    DataCopyPadExtParams<half> wide{true, 0, 20, 0};
    DataCopyPad(h, hGm, row, wide);  // expected-error {{DataCopyPad rightPadding = 20 elements = 40 bytes; padding is at most 32 bytes}} [ASC403]
    DataCopyPadExtParams<half> fits{true, 16, 1, 0};
    DataCopyPad(h, hGm, row, fits);
    DataCopyPadExtParams<float> left{true, 9, 0, 0.0f};
    DataCopyPad(f, fGm, row, left);  // expected-error {{leftPadding = 9 elements = 36 bytes}} [ASC403]
}
