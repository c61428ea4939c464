// Consecutive EnQue calls beyond the TQue depth: a depth-1 queue given two tensors, and a depth-2 queue
// given three. The depth-2 queue taking two tensors is fine.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void enque_depth(GM_ADDR a, GM_ADDR b, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> shallow;
    TQue<TPosition::VECIN, 2> deeper;
    GlobalTensor<half> aGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, 8192);
    pipe.InitBuffer(shallow, 2, 512 * sizeof(half));
    pipe.InitBuffer(deeper, 3, 512 * sizeof(half));

    LocalTensor<half> a0 = shallow.AllocTensor<half>();
    LocalTensor<half> a1 = shallow.AllocTensor<half>();
    DataCopy(a0, aGm, 512);
    DataCopy(a1, aGm[512], 512);
    shallow.EnQue(a0);
    shallow.EnQue(a1);  // expected-error {{EnQue on shallow with 1 tensor already waiting; its depth is 1}} [ASC203]

    LocalTensor<half> b0 = deeper.AllocTensor<half>();
    LocalTensor<half> b1 = deeper.AllocTensor<half>();
    LocalTensor<half> b2 = deeper.AllocTensor<half>();
    DataCopy(b0, aGm[1024], 512);
    DataCopy(b1, aGm[1536], 512);
    DataCopy(b2, aGm[2048], 512);
    deeper.EnQue(b0);
    deeper.EnQue(b1);
    deeper.EnQue(b2);  // expected-error {{EnQue on deeper with 2 tensors already waiting; its depth is 2}} [ASC203]
}
