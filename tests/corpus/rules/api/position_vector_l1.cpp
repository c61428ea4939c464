// Vector instructions read and write the Unified Buffer only: not L1 (A1/B1) nor L0 (A2/B2/CO1).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void vec_l1(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::A1, 1> a1Q;
    TQue<TPosition::B2, 1> b2Q;
    TQue<TPosition::VECIN, 1> inQ;
    TBuf<TPosition::VECCALC> tmp;
    pipe.InitBuffer(a1Q, 1, 4096);
    pipe.InitBuffer(b2Q, 1, 4096);
    pipe.InitBuffer(inQ, 1, 4096);
    pipe.InitBuffer(tmp, 4096);
    LocalTensor<half> l1 = a1Q.AllocTensor<half>();
    LocalTensor<half> l0b = b2Q.AllocTensor<half>();
    LocalTensor<half> ub = inQ.AllocTensor<half>();
    LocalTensor<half> t = tmp.Get<half>();
    Add(t, l1, ub, 2048);  // expected-error {{Add src0 is in A1 (L1); Add cannot reach L1 here, it needs UB}} [ASC506]
    Exp(l0b, t, 2048);  // expected-error {{Exp dst is in B2 (L0B)}} [ASC506]
    Add(t, ub, t, 2048);
    Exp(ub, t, 2048);
    a1Q.FreeTensor(l1);
    b2Q.FreeTensor(l0b);
    inQ.FreeTensor(ub);
}
