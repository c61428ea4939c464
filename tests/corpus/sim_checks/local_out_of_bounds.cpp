// sim-check ASC951: the queue's buffers need more UB than the chip has; the device places them anyway (a
// warning at InitBuffer) and faults at the first access past the end
// sim-launch: block_dim=1 tiling=n:1024 inputs=x:1024:float32 outputs=y:1024:float32
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void local_oob(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, td.n);
    yGm.SetGlobalBuffer((__gm__ float *)y, td.n);
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQ;
#ifdef SIM_BUG
    TBuf<TPosition::VECCALC> scratch;
    pipe.InitBuffer(scratch, 190 * 1024);
#endif
    pipe.InitBuffer(inQ, 2, td.n * sizeof(float));
    LocalTensor<float> buf = inQ.AllocTensor<float>();
    DataCopy(buf, xGm, td.n); // expected-finding ASC951
    inQ.EnQue(buf);
    buf = inQ.DeQue<float>();
    PipeBarrier<PIPE_ALL>(); // copied straight out: the DeQue orders MTE2 before V, not MTE3
    DataCopy(yGm, buf, td.n);
    inQ.FreeTensor(buf);
}
