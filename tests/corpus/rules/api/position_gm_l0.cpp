// DataCopy moves GM <-> UB/L1 only: L0A/L0B/L0C tensors are filled by LoadData and drained by Fixpipe.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void copy_l0(GM_ADDR a, GM_ADDR c, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::A1, 1> a1Q;
    TQue<TPosition::A2, 1> a2Q;
    TQue<TPosition::CO1, 1> co1Q;
    GlobalTensor<half> aGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, 256);
    cGm.SetGlobalBuffer((__gm__ float *)c, 256);
    pipe.InitBuffer(a1Q, 1, 512);
    pipe.InitBuffer(a2Q, 1, 512);
    pipe.InitBuffer(co1Q, 1, 1024);
    LocalTensor<half> a1 = a1Q.AllocTensor<half>();
    LocalTensor<half> a2 = a2Q.AllocTensor<half>();
    LocalTensor<float> c1 = co1Q.AllocTensor<float>();
    DataCopy(a1, aGm, 256);
    // expected-error@+1 {{DataCopy dst is in A2 (L0A); DataCopy cannot reach L0A here, it needs L1/UB}} [ASC506]
    DataCopy(a2, aGm, 256);
    DataCopy(cGm, c1, 256);  // expected-error {{DataCopy src is in CO1 (L0C)}} [ASC506]
    a1Q.FreeTensor(a1);
    a2Q.FreeTensor(a2);
    co1Q.FreeTensor(c1);
}
