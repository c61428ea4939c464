// Muls/Adds deduce T from the tensors and the scalar alike: a float scalar on half tensors does not compile,
// whether it is a float literal or a cast to float.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void muls_half(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
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
    const half one_third = 0.333f;
    // expected-error@+1 {{Muls on half tensors needs a scalarValue of type half, but the argument is float}} [ASC503]
    Muls(c, b, 2.0f, 2048);
    Muls(c, b, (half)2.0f, 2048);
    Muls(c, b, static_cast<float>(one_third), 2048);  // expected-error {{Muls on half tensors needs a scalarValue of type half, but the argument is float}} [ASC503]
    Maxs(c, c, static_cast<half>(one_third), 2048);
    Adds(c, c, 1.5f, 2048);  // expected-error {{Adds on half tensors needs a scalarValue of type half, but the argument is float}} [ASC503]
    half one = 1.0f;
    Adds(c, c, one, 2048);
    Muls<half>(c, c, 0.5f, 2048);  // T given explicitly: the scalar converts
    outQ.EnQue(c);
    inQ.FreeTensor(b);
    LocalTensor<half> o = outQ.DeQue<half>();
    DataCopy(yGm, o, 2048);
    outQ.FreeTensor(o);
}
