// sim-check ASC953: every core writes the whole of y
// sim-launch: block_dim=4 tiling=blockLength:256 inputs=x:1024:float32 outputs=y:1024:float32
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void cross_core(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + td.blockLength * GetBlockIdx(), td.blockLength);
#ifdef SIM_BUG
    yGm.SetGlobalBuffer((__gm__ float *)y, td.blockLength); // every core: the same slice
#else
    yGm.SetGlobalBuffer((__gm__ float *)y + td.blockLength * GetBlockIdx(), td.blockLength);
#endif
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, td.blockLength * sizeof(float));
    LocalTensor<float> buf = q.AllocTensor<float>();
    DataCopy(buf, xGm, td.blockLength);
    q.EnQue(buf);
    buf = q.DeQue<float>();
    PipeBarrier<PIPE_ALL>(); // copied straight out: the DeQue orders MTE2 before V, not MTE3
    DataCopy(yGm, buf, td.blockLength); // expected-finding ASC953
    q.FreeTensor(buf);
}
