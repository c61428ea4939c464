// A while loop over the remaining elements: the scratch tile of the input queue is taken each round and
// given back only on the last, tail round (the free sits in the wrong branch).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void leak_while(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, td.total);
    yGm.SetGlobalBuffer((__gm__ float *)y, td.total);
    pipe.InitBuffer(inQueue, 2, 2048 * sizeof(float));
    uint32_t offset = 0;
    while (offset < td.total) {
        // expected-error@+1 {{each loop iteration takes a buffer of inQueue and does not free it; with 2 buffers, AllocTensor blocks forever on iteration 3}} [ASC207]
        LocalTensor<float> t = inQueue.AllocTensor<float>();
        DataCopy(t, xGm[offset], 2048);
        inQueue.EnQue(t);
        t = inQueue.DeQue<float>();
        Abs(t, t, 2048);
        DataCopy(yGm[offset], t, 2048);
        offset += 2048;
    }
}
