// Both branches take the only buffer of the queue and keep it; the alloc after the join blocks on every
// path. The second queue is freed in one branch only, so its later alloc may proceed and is not flagged.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void alloc_branches(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qa;
    TQue<TPosition::VECIN, 1> qb;
    GlobalTensor<half> xGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, 4096);
    pipe.InitBuffer(qa, 1, 256 * sizeof(half));
    pipe.InitBuffer(qb, 1, 256 * sizeof(half));
    LocalTensor<half> t;
    LocalTensor<half> u = qb.AllocTensor<half>();
    if (td.mode == 1) {
        t = qa.AllocTensor<half>();
        DataCopy(t, xGm, 256);
        qb.FreeTensor(u);
    } else {
        t = qa.AllocTensor<half>();
        DataCopy(t, xGm[256], 256);
    }
    LocalTensor<half> again = qa.AllocTensor<half>();  // expected-error {{AllocTensor on qa blocks forever}} [ASC206]
    LocalTensor<half> other = qb.AllocTensor<half>();
}
