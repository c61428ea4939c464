// Tensors used after FreeTensor gave their buffers back: a vector op reading the freed input, and a
// copy-out of a freed output. The last tile frees only after its last use and is not flagged.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void use_after_free(GM_ADDR xAddr, GM_ADDR zAddr, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueueX;
    TQue<TPosition::VECOUT, 1> outQueueZ;
    GlobalTensor<half> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ half *)xAddr, 4096);
    zGm.SetGlobalBuffer((__gm__ half *)zAddr, 4096);
    pipe.InitBuffer(inQueueX, 1, 2048 * sizeof(half));
    pipe.InitBuffer(outQueueZ, 1, 2048 * sizeof(half));

    LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
    DataCopy(xLocal, xGm, 2048);
    inQueueX.EnQue(xLocal);
    LocalTensor<half> x = inQueueX.DeQue<half>();
    LocalTensor<half> z = outQueueZ.AllocTensor<half>();
    inQueueX.FreeTensor(x);
    Abs(z, x, 2048);  // expected-error {{Abs uses a tensor of inQueueX after FreeTensor gave its buffer back}} [ASC201]
    outQueueZ.EnQue(z);
    LocalTensor<half> zOut = outQueueZ.DeQue<half>();
    outQueueZ.FreeTensor(zOut);
    // expected-error@+1 {{DataCopy uses a tensor of outQueueZ after FreeTensor}} [ASC201]
    DataCopy(zGm, zOut, 2048);

    // correct: free after the last use
    LocalTensor<half> x2 = inQueueX.AllocTensor<half>();
    DataCopy(x2, xGm[2048], 2048);
    inQueueX.EnQue(x2);
    LocalTensor<half> y2 = inQueueX.DeQue<half>();
    LocalTensor<half> z2 = outQueueZ.AllocTensor<half>();
    Abs(z2, y2, 2048);
    inQueueX.FreeTensor(y2);
    outQueueZ.EnQue(z2);
    LocalTensor<half> z3 = outQueueZ.DeQue<half>();
    DataCopy(zGm[2048], z3, 2048);
    outQueueZ.FreeTensor(z3);
}
