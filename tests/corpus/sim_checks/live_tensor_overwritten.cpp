// sim-check ASC954: a copy twice the size of its buffer runs into the next queue's live buffer
// sim-launch: block_dim=1 tiling=n:256 inputs=x:512:float32 outputs=y:256:float32
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void live_overwrite(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 2 * td.n);
    yGm.SetGlobalBuffer((__gm__ float *)y, td.n);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, td.n * sizeof(float));
    pipe.InitBuffer(outQ, 1, td.n * sizeof(float));
    LocalTensor<float> yLocal = outQ.AllocTensor<float>();
    Duplicate(yLocal, 1.0f, td.n);
    LocalTensor<float> xLocal = inQ.AllocTensor<float>();
#ifdef SIM_BUG
    DataCopy(xLocal, xGm, 2 * td.n); // expected-finding ASC954
#else
    DataCopy(xLocal, xGm, td.n);
#endif
    inQ.EnQue(xLocal);
    xLocal = inQ.DeQue<float>();
    Add(yLocal, yLocal, xLocal, td.n);
    outQ.EnQue(yLocal);
    yLocal = outQ.DeQue<float>();
    DataCopy(yGm, yLocal, td.n);
    outQ.FreeTensor(yLocal);
    inQ.FreeTensor(xLocal);
}
