// sim-check ASC955: DeQue of a queue nothing was EnQue'd on
// sim-launch: block_dim=1 tiling=n:256 inputs=x:256:float32 outputs=y:256:float32
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void deque_empty(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, td.n);
    yGm.SetGlobalBuffer((__gm__ float *)y, td.n);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    pipe.InitBuffer(inQ, 1, td.n * sizeof(float));
    LocalTensor<float> buf = inQ.AllocTensor<float>();
    DataCopy(buf, xGm, td.n);
#ifndef SIM_BUG
    inQ.EnQue(buf);
#endif
    buf = inQ.DeQue<float>(); // expected-finding ASC955
    PipeBarrier<PIPE_ALL>(); // copied straight out: the DeQue orders MTE2 before V, not MTE3
    DataCopy(yGm, buf, td.n);
    inQ.FreeTensor(buf);
}
