// Ten VECIN buffers (three input queues, 4 + 4 + 2) on a chip with 8 event ids per position; the VECOUT
// queues stay within the limit. TBufs hold no event ids and do not count.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void many_inputs(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR y, GM_ADDR workspace,
                                                   GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 4> inA;
    TQue<TPosition::VECIN, 4> inB;
    TQue<TPosition::VECIN, 2> inC;
    TQue<TPosition::VECOUT, 4> outY;
    TQue<TPosition::VECOUT, 4> outZ;
    TBuf<TPosition::VECCALC> t0, t1, t2, t3, t4, t5, t6, t7, t8;
    pipe.InitBuffer(inA, 4, 1024);
    pipe.InitBuffer(inB, 4, 1024);
    pipe.InitBuffer(inC, 2, 1024);  // expected-error {{10 TQue buffers in VECIN; the 910B2 allows 8 per TPosition}} [ASC208]
    pipe.InitBuffer(outY, 4, 1024);
    pipe.InitBuffer(outZ, 4, 1024);
    pipe.InitBuffer(t0, 1024);
    pipe.InitBuffer(t1, 1024);
    pipe.InitBuffer(t2, 1024);
    pipe.InitBuffer(t3, 1024);
    pipe.InitBuffer(t4, 1024);
    pipe.InitBuffer(t5, 1024);
    pipe.InitBuffer(t6, 1024);
    pipe.InitBuffer(t7, 1024);
    pipe.InitBuffer(t8, 1024);
}
