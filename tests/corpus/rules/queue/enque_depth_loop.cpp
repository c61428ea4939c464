// A depth-1 queue fed twice per loop iteration before the consumer dequeues (x and its neighbour tile go
// through the same queue). The second queue takes one tensor per DeQue and is fine.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void diff_tiles(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 65536);
    yGm.SetGlobalBuffer((__gm__ float *)y, 65536);
    pipe.InitBuffer(inQueue, 2, 256 * sizeof(float));
    pipe.InitBuffer(outQueue, 1, 256 * sizeof(float));
    for (uint32_t i = 0; i < td.tiles; i++) {
        LocalTensor<float> cur = inQueue.AllocTensor<float>();
        LocalTensor<float> next = inQueue.AllocTensor<float>();
        DataCopy(cur, xGm[i * 256], 256);
        DataCopy(next, xGm[i * 256 + 256], 256);
        inQueue.EnQue(cur);
        inQueue.EnQue(next);  // expected-error {{EnQue on inQueue with 1 tensor already waiting; its depth is 1}} [ASC203]
        LocalTensor<float> c = inQueue.DeQue<float>();
        LocalTensor<float> n = inQueue.DeQue<float>();
        LocalTensor<float> d = outQueue.AllocTensor<float>();
        Sub(d, n, c, 256);
        inQueue.FreeTensor(c);
        inQueue.FreeTensor(n);
        outQueue.EnQue(d);
        d = outQueue.DeQue<float>();
        DataCopy(yGm[i * 256], d, 256);
        outQueue.FreeTensor(d);
    }
}
