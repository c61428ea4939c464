// Counter mode: after SetMaskCount() the mask argument is an element count, not lanes per repeat.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void counter_mode(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> fbuf;
    pipe.InitBuffer(fbuf, 8192);
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 2048);
    LocalTensor<float> f = fbuf.Get<float>();
    DataCopy(f, xGm, 2048);
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, 1000);
    Adds<float, false>(f, f, 1.0f, 1000, 1, {1, 1, 8, 8});
    Muls(f, f, 2.0f, 1000, 1, {1, 1, 8, 8});
    SetMaskNorm();
    ResetMask();
    DataCopy(xGm, f, 2048);
}
