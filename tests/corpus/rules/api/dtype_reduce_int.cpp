// The reductions work on half and float only.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void reduce_int(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ibuf;
    TBuf<TPosition::VECCALC> fbuf;
    pipe.InitBuffer(ibuf, 8192);
    pipe.InitBuffer(fbuf, 8192);
    LocalTensor<int32_t> src = ibuf.Get<int32_t>(1024);
    LocalTensor<int32_t> dst = ibuf.GetWithOffset<int32_t>(64, 4096);
    LocalTensor<float> fsrc = fbuf.Get<float>(1024);
    LocalTensor<float> fdst = fbuf.GetWithOffset<float>(64, 4096);
    ReduceSum(dst, src, src, 1024);  // expected-error {{ReduceSum does not support int32_t}} [ASC502]
    // expected-error@+1 {{WholeReduceMax does not support int32_t on 910B2}} [ASC502]
    WholeReduceMax(dst, src, 64, 16, 1, 1, 8);
    ReduceSum(fdst, fsrc, fsrc, 1024);
    WholeReduceMax(fdst, fsrc, 64, 16, 1, 1, 8);
}
