// UB -> UB DataCopy follows the same 32-byte rule as GM <-> UB copies.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void copy_ub(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> a;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(a, 2048);
    pipe.InitBuffer(b, 2048);
    LocalTensor<float> src = a.Get<float>();
    LocalTensor<float> dst = b.Get<float>();
    Duplicate(src, 0.0f, 512);
    DataCopy(dst, src, 10);   // expected-error {{DataCopy moves 10 x float = 40 bytes}} [ASC401]
    DataCopy(dst, src, 16);
}
