// A mask of 0 selects no lane; with isSetMask = false the argument is only a placeholder.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void mask_zero(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> fbuf;
    pipe.InitBuffer(fbuf, 8192);
    LocalTensor<float> f = fbuf.Get<float>();
    Adds(f, f, 1.0f, 0, 8, {1, 1, 8, 8});  // expected-error {{Adds has mask 0: no lane of any repeat takes part}} [ASC505]
    Duplicate(f, 0.0f, 0, 8, 1, 8);  // expected-error {{Duplicate has mask 0}} [ASC505]
    SetVectorMask<float, MaskMode::NORMAL>(0, 0xffffffffffffffffULL);
    Adds<float, false>(f, f, 1.0f, 0, 8, {1, 1, 8, 8});
    ResetMask();
    Adds(f, f, 1.0f, 64, 8, {1, 1, 8, 8});
}
