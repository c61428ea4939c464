// A cube kernel buffering A1 through four queues (3 + 3 + 2 + 3 = 11 buffers); B1 uses 6 and is fine.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void cube_buffers(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::A1, 3> a1q0, a1q1, a1q2, a1q3;
    TQue<TPosition::B1, 3> b1q0, b1q1;
    pipe.InitBuffer(a1q0, 3, 4096);
    pipe.InitBuffer(a1q1, 3, 4096);
    pipe.InitBuffer(b1q0, 3, 4096);
    pipe.InitBuffer(a1q2, 2, 4096);
    pipe.InitBuffer(a1q3, 3, 4096);  // expected-error {{11 TQue buffers in A1; the 910B2 allows 8 per TPosition}} [ASC208]
    pipe.InitBuffer(b1q1, 3, 4096);
}
