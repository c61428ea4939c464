// sim-check ASC952: an accumulator never zeroed reaches the output
// sim-launch: block_dim=1 tiling=n:256 inputs=x:256:float32 outputs=y:256:float32
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void uninit(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, td.n);
    yGm.SetGlobalBuffer((__gm__ float *)y, td.n);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, td.n * sizeof(float));
    pipe.InitBuffer(outQ, 1, td.n * sizeof(float));
    LocalTensor<float> xLocal = inQ.AllocTensor<float>();
    DataCopy(xLocal, xGm, td.n);
    inQ.EnQue(xLocal);
    xLocal = inQ.DeQue<float>();
    LocalTensor<float> acc = outQ.AllocTensor<float>();
#ifndef SIM_BUG
    Duplicate(acc, 0.0f, td.n);
#endif
    Add(acc, acc, xLocal, td.n);
    outQ.EnQue(acc);
    acc = outQ.DeQue<float>();
    DataCopy(yGm, acc, td.n); // expected-finding ASC952
    outQ.FreeTensor(acc);
    inQ.FreeTensor(xLocal);
}
