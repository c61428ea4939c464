// Class-style kernel: a float member used as the scalar of half tensors.
#include "kernel_operator.h"
using namespace AscendC;

class KernelScale {
public:
    __aicore__ inline KernelScale() {}
    __aicore__ inline void Init(GM_ADDR x, float scale, uint32_t n)
    {
        this->scale = scale;
        this->n = n;
        this->scaleHalf = (half)scale;
        xGm.SetGlobalBuffer((__gm__ half *)x, n);
        pipe.InitBuffer(buf, n * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<half> t = buf.Get<half>();
        DataCopy(t, xGm, n);
        Muls(t, t, scale, n);  // expected-error {{Muls on half tensors needs a scalarValue of type half, but the argument is float}} [ASC503]
        Muls(t, t, scaleHalf, n);
        Muls(t, t, (half)scale, n);
        Maxs(t, t, scale * 2.0f, n);  // expected-error {{Maxs on half tensors needs a scalarValue of type half, but the argument is float}} [ASC503]
        DataCopy(xGm, t, n);
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<half> xGm;
    float scale;
    half scaleHalf;
    uint32_t n;
};

extern "C" __global__ __aicore__ void scale_half(GM_ADDR x, GM_ADDR tiling)
{
    KernelScale op;
    op.Init(x, 0.5f, 2048);
    op.Process();
}
