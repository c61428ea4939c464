// InitBuffer for the same queue and TBuf a second time on one path: Init runs the setup twice. After a
// pipe Reset the queue may be initialised again.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void init_twice(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueueX;
    TBuf<TPosition::VECCALC> calcBuf;
    pipe.InitBuffer(inQueueX, 2, 4096);
    pipe.InitBuffer(calcBuf, 8192);
    if (td.wide != 0) {
        pipe.InitBuffer(inQueueX, 2, 8192);  // expected-warning {{InitBuffer on inQueueX a second time; the first buffers stay carved out of UB}} [ASC212]
    }
    pipe.InitBuffer(calcBuf, 8192);  // expected-warning {{InitBuffer on calcBuf a second time}} [ASC212]
    pipe.Reset();
    pipe.InitBuffer(inQueueX, 2, 8192);
    pipe.InitBuffer(calcBuf, 8192);
}
