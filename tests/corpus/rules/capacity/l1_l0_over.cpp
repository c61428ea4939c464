// Cube buffers over their memories: A1 + B1 tiles over the 512 KB L1, two A2 queues over the 64 KB L0A,
// two CO1 queues over the 128 KB L0C. B2 at 64 KB exactly fits L0B.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void cube_budget(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::A1, 2> inQueueA1;
    TQue<TPosition::B1, 2> inQueueB1;
    TQue<TPosition::A2, 2> inQueueA2, biasA2;
    TQue<TPosition::B2, 2> inQueueB2;
    TQue<TPosition::CO1, 2> outQueueCO1, accCO1;
    pipe.InitBuffer(inQueueA1, 2, 128 * 1024);
    pipe.InitBuffer(inQueueB1, 2, 160 * 1024);  // expected-error {{L1 buffers need 589824 bytes; the 910B2 L1 holds 524288}} [ASC301]
    pipe.InitBuffer(inQueueA2, 2, 24 * 1024);
    pipe.InitBuffer(biasA2, 1, 24 * 1024);  // expected-error {{L0A buffers need 73728 bytes; the 910B2 L0A holds 65536}} [ASC301]
    pipe.InitBuffer(inQueueB2, 2, 32 * 1024);
    pipe.InitBuffer(outQueueCO1, 2, 48 * 1024);
    pipe.InitBuffer(accCO1, 1, 48 * 1024);  // expected-error {{L0C buffers need 147456 bytes; the 910B2 L0C holds 131072}} [ASC301]
}
