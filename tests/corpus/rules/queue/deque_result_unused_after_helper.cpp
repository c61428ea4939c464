// After a helper the checker cannot see has used the queue, its FIFO is unknown: a DeQue whose result is
// dropped (vendor matmul samples write `CO1_.template DeQue<float>();` and go on with the tensor they
// enqueued) may have returned that tensor, so using it is not "enqueued and not yet dequeued" (no error;
// the only diagnostic is the missing header).
#include "kernel_operator.h"
// expected-warning@+1 {{cannot find include file 'prefetch_helpers.h'; skipped}} [ASC002]
#include "prefetch_helpers.h"  // not part of this case: Prefetch is a call the checker cannot follow
using namespace AscendC;

extern "C" __global__ __aicore__ void deque_result_unused(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQue;
    TQue<TPosition::VECOUT, 1> outQue;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 256);
    yGm.SetGlobalBuffer((__gm__ float *)y, 256);
    pipe.InitBuffer(inQue, 1, 256 * sizeof(float));
    pipe.InitBuffer(outQue, 1, 256 * sizeof(float));
    Prefetch(inQue, xGm);
    LocalTensor<float> xLocal = inQue.AllocTensor<float>();
    DataCopy(xLocal, xGm, 256);
    inQue.EnQue(xLocal);
    inQue.DeQue<float>();
    LocalTensor<float> yLocal = outQue.AllocTensor<float>();
    Relu(yLocal, xLocal, 256);
    outQue.EnQue(yLocal);
    LocalTensor<float> yOut = outQue.DeQue<float>();
    DataCopy(yGm, yOut, 256);
    outQue.FreeTensor(yOut);
    inQue.FreeTensor(xLocal);
}
