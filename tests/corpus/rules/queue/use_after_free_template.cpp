// One class template, instantiated with two buffers and with one: the read after FreeTensor and an AllocTensor
// on the same queue keeps its bytes only in the two-buffer instantiation. The line is reported once, and as the
// error it is in the one-buffer instantiation, whichever instantiation is lowered first.
#include "kernel_operator.h"
using namespace AscendC;

template <int32_t BUFS>
class KernelRotate {
public:
    __aicore__ inline KernelRotate() {}
    __aicore__ inline void Init(GM_ADDR z)
    {
        zGm.SetGlobalBuffer((__gm__ float *)z, 4096);
        pipe.InitBuffer(outQueue, BUFS, 1024 * sizeof(float));
        pipe.InitBuffer(tmpBuf, 1024 * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> x = outQueue.AllocTensor<float>();
        Duplicate(x, 1.0f, 1024);
        outQueue.EnQue(x);
        LocalTensor<float> xOut = outQueue.DeQue<float>();
        DataCopy(zGm, xOut, 1024);
        outQueue.FreeTensor(xOut);
        LocalTensor<float> y = outQueue.AllocTensor<float>();
        Mul(y, x, x, 1024);  // expected-error {{Mul uses a tensor of outQueue after FreeTensor}} [ASC201]
        outQueue.EnQue(y);
        y = outQueue.DeQue<float>();
        DataCopy(zGm[1024], y, 1024);
        outQueue.FreeTensor(y);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQueue;
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<float> zGm;
};

extern "C" __global__ __aicore__ void use_after_free_template(GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    if (TILING_KEY_IS(1)) {
        KernelRotate<2> op;
        op.Init(z);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        KernelRotate<1> op;
        op.Init(z);
        op.Process();
    }
}
