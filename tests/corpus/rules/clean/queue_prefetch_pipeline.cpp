// Clean: software pipelining. The first tile is loaded before the loop; each iteration dequeues the
// current tile, prefetches the next one (if any) and frees the current one; a depth-2 queue holds two.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void prefetch(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, td.tiles * 1024);
    yGm.SetGlobalBuffer((__gm__ half *)y, td.tiles * 1024);
    pipe.InitBuffer(inQueue, 2, 1024 * sizeof(half));
    pipe.InitBuffer(outQueue, 1, 1024 * sizeof(half));

    LocalTensor<half> first = inQueue.AllocTensor<half>();
    DataCopy(first, xGm, 1024);
    inQueue.EnQue(first);
    for (uint32_t i = 0; i < td.tiles; i++) {
        if (i + 1 < td.tiles) {
            LocalTensor<half> next = inQueue.AllocTensor<half>();
            DataCopy(next, xGm[(i + 1) * 1024], 1024);
            inQueue.EnQue(next);
        }
        LocalTensor<half> x = inQueue.DeQue<half>();
        LocalTensor<half> y = outQueue.AllocTensor<half>();
        Abs(y, x, 1024);
        inQueue.FreeTensor(x);
        outQueue.EnQue(y);
        y = outQueue.DeQue<half>();
        DataCopy(yGm[i * 1024], y, 1024);
        outQueue.FreeTensor(y);
    }
}
