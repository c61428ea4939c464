// FreeTensor twice on the same tensor: directly, and through a helper that frees again after CopyOut
// already did. One tile freed once is fine.
#include "kernel_operator.h"
using namespace AscendC;

class KernelCopy {
public:
    __aicore__ inline KernelCopy() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ half *)x, 4096);
        yGm.SetGlobalBuffer((__gm__ half *)y, 4096);
        pipe.InitBuffer(queBind, 2, 1024 * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<half> t = queBind.AllocTensor<half>();
        DataCopy(t, xGm, 1024);
        queBind.EnQue(t);
        t = queBind.DeQue<half>();
        DataCopy(yGm, t, 1024);
        queBind.FreeTensor(t);
        queBind.FreeTensor(t);  // expected-error {{FreeTensor on queBind frees a tensor that is already free}} [ASC205]

        LocalTensor<half> u = queBind.AllocTensor<half>();
        DataCopy(u, xGm[1024], 1024);
        queBind.EnQue(u);
        u = queBind.DeQue<half>();
        DataCopy(yGm[1024], u, 1024);
        CopyOutDone(u);
        Cleanup(u);
    }
    __aicore__ inline void CopyOutDone(LocalTensor<half> &u) { queBind.FreeTensor(u); }
    __aicore__ inline void Cleanup(LocalTensor<half> &u)
    {
        queBind.FreeTensor(u);  // expected-error {{already free}} [ASC205]
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> queBind;
    GlobalTensor<half> xGm, yGm;
};

extern "C" __global__ __aicore__ void double_free(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelCopy op;
    op.Init(x, y);
    op.Process();
}
