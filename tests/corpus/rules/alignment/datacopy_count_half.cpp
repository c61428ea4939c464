// DataCopy count form with half tiles whose byte length is not a multiple of 32: the tail is dropped.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t TILE = 100;   // 200 bytes of half

extern "C" __global__ __aicore__ void copy_half(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, 4096);
    yGm.SetGlobalBuffer((__gm__ half*)y, 4096);
    pipe.InitBuffer(inQ, 1, 256 * sizeof(half));
    pipe.InitBuffer(outQ, 1, 256 * sizeof(half));

    LocalTensor<half> xLocal = inQ.AllocTensor<half>();
    // expected-error@+1 {{DataCopy moves 100 x half = 200 bytes, not a multiple of 32 bytes; only the first 192 bytes (96 elements) are copied}} [ASC401]
    DataCopy(xLocal, xGm, TILE);
    DataCopy(xLocal, xGm[128], 128);
    inQ.EnQue(xLocal);
    LocalTensor<half> xIn = inQ.DeQue<half>();
    LocalTensor<half> yLocal = outQ.AllocTensor<half>();
    Adds(yLocal, xIn, (half)1.0, 128);
    outQ.EnQue(yLocal);
    inQ.FreeTensor(xIn);
    LocalTensor<half> yOut = outQ.DeQue<half>();
    DataCopy(yGm, yOut, TILE);  // expected-error {{DataCopy moves 100 x half = 200 bytes}} [ASC401]
    DataCopy(yGm[128], yOut, 112);
    outQ.FreeTensor(yOut);
}
