// A call of a method defined in its class body with fewer arguments than its parameters without a default:
// C++ rejects it ('no matching member function for call'), so the answer does not build. KernelHive
// trilinear_upsample#3 called 'op.Init(x, y)' of an Init taking three GM_ADDR; the lowering left the call out as
// a gap, and the run then said 'not evaluated' (ASC958) where the build fails. Defaults count, from the
// definition or, for a method defined outside its class, from the declaration in the class.
#include "kernel_operator.h"
using namespace AscendC;

class KernelCopy {
public:
    __aicore__ inline KernelCopy() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t n)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x, n);
        yGm.SetGlobalBuffer((__gm__ float *)y, n);
        pipe.InitBuffer(queue, 1, 256 * sizeof(float));
    }
    __aicore__ inline void Scale(float factor = 2.0f) { this->factor = factor; }
    __aicore__ inline void Process(uint32_t tiles, uint32_t first = 0);

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> queue;
    GlobalTensor<float> xGm, yGm;
    float factor = 1.0f;
};

__aicore__ inline void KernelCopy::Process(uint32_t tiles, uint32_t first)
{
    for (uint32_t t = first; t < tiles; t++) {
        LocalTensor<float> local = queue.AllocTensor<float>();
        DataCopy(local, xGm[t * 256], 256);
        queue.EnQue(local);
        local = queue.DeQue<float>();
        Muls(local, local, factor, 256);
        DataCopy(yGm[t * 256], local, 256);
        queue.FreeTensor(local);
    }
}

extern "C" __global__ __aicore__ void too_few(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelCopy op;
    op.Init(x, y);  // expected-error {{no matching function for call to 'Init': it takes 3 arguments without a default and 2 are given}} [ASC101]
    op.Init(x, y, 1024);
    op.Scale();
    op.Process(4);
}
