// The EnQue after the copy-in was dropped, in a loop long enough that the analysis widens it (16 rounds,
// and a buffer taken each round and never given back): the FIFO is still empty at every DeQue, so the
// DeQue waits forever in the first iteration already.
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t TILE = 256;
constexpr int32_t TILES = 16;

extern "C" __global__ __aicore__ void deque_empty_long_loop(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueueX;
    TQue<TPosition::VECOUT, 2> outQueueY;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, TILE * TILES);
    yGm.SetGlobalBuffer((__gm__ float *)y, TILE * TILES);
    pipe.InitBuffer(inQueueX, 2, TILE * sizeof(float));
    pipe.InitBuffer(outQueueY, 2, TILE * sizeof(float));
    for (int32_t i = 0; i < TILES; i++) {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        DataCopy(xLocal, xGm[i * TILE], TILE);
        LocalTensor<float> xIn = inQueueX.DeQue<float>();  // expected-error {{DeQue on inQueueX finds no tensor: nothing was enqueued on this path}} [ASC204]
        LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        Relu(yLocal, xIn, TILE);
        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(xIn);
        LocalTensor<float> yOut = outQueueY.DeQue<float>();
        DataCopy(yGm[i * TILE], yOut, TILE);
        outQueueY.FreeTensor(yOut);
    }
}
