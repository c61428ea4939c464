// A const method cannot call SetValue or queue operations on its members: they are const there.
#include "kernel_operator.h"
using namespace AscendC;

class KernelStub {
public:
    __aicore__ inline KernelStub() {}
    __aicore__ inline void Init(GM_ADDR y, uint32_t n)
    {
        yGm.SetGlobalBuffer((__gm__ float *)y, n);
        pipe.InitBuffer(outQ, 1, 256);
        this->n = n;
    }
    __aicore__ inline void Process() const
    {
        if (this->n > 0) {
            yGm.SetValue(0, 0.0f);  // expected-error {{'SetValue' changes yGm, but Process() is const}} [ASC511]
        }
        float first = yGm.GetValue(0);
        this->yGm.SetValue(1, first);  // expected-error {{'SetValue' changes yGm}} [ASC511]
    }
    __aicore__ inline void Fill() const;
    __aicore__ inline void Write()
    {
        yGm.SetValue(2, 1.0f);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQ;
    GlobalTensor<float> yGm;
    uint32_t n = 0;
};

__aicore__ inline void KernelStub::Fill() const
{
    LocalTensor<float> t = outQ.AllocTensor<float>();  // expected-error {{'AllocTensor' changes outQ, but Fill() is const}} [ASC511]
    outQ.FreeTensor(t);  // expected-error {{'FreeTensor' changes outQ}} [ASC511]
}

extern "C" __global__ __aicore__ void stub(GM_ADDR y, GM_ADDR tiling)
{
    KernelStub op;
    op.Init(y, 64);
    op.Process();
    op.Write();
}
