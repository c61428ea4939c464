// The output tile is allocated every iteration and copied out without FreeTensor: each iteration keeps a
// buffer, and with BUFFER_NUM = 2 the third AllocTensor never returns. The input queue is balanced.
#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t BUFFER_NUM = 2;

extern "C" __global__ __aicore__ void leak_loop(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueY;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 65536);
    yGm.SetGlobalBuffer((__gm__ float *)y, 65536);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, 512 * sizeof(float));
    pipe.InitBuffer(outQueueY, BUFFER_NUM, 512 * sizeof(float));
    for (uint32_t i = 0; i < td.tileNum; i++) {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        DataCopy(xLocal, xGm[i * 512], 512);
        inQueueX.EnQue(xLocal);
        LocalTensor<float> x = inQueueX.DeQue<float>();
        // expected-error@+1 {{each loop iteration takes a buffer of outQueueY and does not free it; with 2 buffers, AllocTensor blocks forever on iteration 3}} [ASC207]
        LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        Abs(yLocal, x, 512);
        inQueueX.FreeTensor(x);
        outQueueY.EnQue(yLocal);
        LocalTensor<float> y = outQueueY.DeQue<float>();
        DataCopy(yGm[i * 512], y, 512);
    }
}
