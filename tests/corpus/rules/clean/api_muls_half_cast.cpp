// Half-precision scalar ops with scalars of the tensors' own type.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void muls_half_ok(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, 2048);
    yGm.SetGlobalBuffer((__gm__ half *)y, 2048);
    pipe.InitBuffer(inQ, 1, 4096);
    pipe.InitBuffer(outQ, 1, 4096);
    LocalTensor<half> a = inQ.AllocTensor<half>();
    DataCopy(a, xGm, 2048);
    inQ.EnQue(a);
    LocalTensor<half> b = inQ.DeQue<half>();
    LocalTensor<half> c = outQ.AllocTensor<half>();
    half bias = 1.0f;
    Muls(c, b, (half)2.0, 2048);
    Adds(c, c, bias, 2048);
    Maxs(c, c, static_cast<half>(0.0f), 2048);
    Mins<half>(c, c, 6.0f, 2048);
    LeakyRelu(c, c, (half)0.01f, 2048);
    outQ.EnQue(c);
    inQ.FreeTensor(b);
    LocalTensor<half> o = outQ.DeQue<half>();
    DataCopy(yGm, o, 2048);
    outQ.FreeTensor(o);
}
