// Reductions in the mask form follow the same lane limits.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void mask_reduce(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> fbuf;
    TBuf<TPosition::VECCALC> hbuf;
    pipe.InitBuffer(fbuf, 8192);
    pipe.InitBuffer(hbuf, 8192);
    LocalTensor<float> src = fbuf.Get<float>(1024);
    LocalTensor<float> dst = fbuf.GetWithOffset<float>(64, 4096);
    LocalTensor<half> hsrc = hbuf.Get<half>(2048);
    LocalTensor<half> hdst = hbuf.GetWithOffset<half>(128, 4096);
    WholeReduceSum(dst, src, 128, 8, 1, 1, 8);  // expected-error {{WholeReduceSum has mask 128, but a repeat of 32-bit elements holds 64 lanes}} [ASC505]
    WholeReduceSum(dst, src, 64, 16, 1, 1, 8);
    BlockReduceMax(hdst, hsrc, 8, 200, 1, 1, 8);  // expected-error {{BlockReduceMax has mask 200, but a repeat of 16-bit elements holds 128 lanes}} [ASC505]
    BlockReduceMax(hdst, hsrc, 8, 128, 1, 1, 8);
}
