// Clean: two kernel variants under ASCEND_IS_AIV / mode branches, each with its own pipe using 160 KB of UB;
// they never coexist, so the 320 KB total over both branches is not a budget.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void variants(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (td.mode == 0) {
        TPipe pipe;
        TQue<TPosition::VECIN, 2> inQueue;
        TBuf<TPosition::VECCALC> work;
        pipe.InitBuffer(inQueue, 2, 48 * 1024);
        pipe.InitBuffer(work, 64 * 1024);
    } else {
        TPipe pipe;
        TQue<TPosition::VECOUT, 2> outQueue;
        TBuf<TPosition::VECCALC> work;
        pipe.InitBuffer(outQueue, 2, 64 * 1024);
        pipe.InitBuffer(work, 32 * 1024);
    }
}
