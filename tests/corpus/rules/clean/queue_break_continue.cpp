// Clean: a loop with break and continue; every path through the body frees the tile it took, including
// the paths that leave early.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void scan_tiles(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, td.tiles * 256);
    yGm.SetGlobalBuffer((__gm__ float *)y, td.tiles * 256);
    pipe.InitBuffer(inQueue, 1, 256 * sizeof(float));
    pipe.InitBuffer(outQueue, 1, 256 * sizeof(float));
    for (uint32_t i = 0; i < td.tiles; i++) {
        LocalTensor<float> x = inQueue.AllocTensor<float>();
        if (i == td.stopAt) {
            inQueue.FreeTensor(x);
            break;
        }
        if (i % 2 == 1) {
            inQueue.FreeTensor(x);
            continue;
        }
        DataCopy(x, xGm[i * 256], 256);
        inQueue.EnQue(x);
        x = inQueue.DeQue<float>();
        LocalTensor<float> y = outQueue.AllocTensor<float>();
        Muls(y, x, 0.5f, 256);
        inQueue.FreeTensor(x);
        outQueue.EnQue(y);
        y = outQueue.DeQue<float>();
        DataCopy(yGm[i * 256], y, 256);
        outQueue.FreeTensor(y);
    }
}
