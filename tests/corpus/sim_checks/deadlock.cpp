// sim-check ASC956: the vector pipe waits for a flag no SetFlag raises
// sim-launch: block_dim=1 tiling=n:256 inputs=x:256:float32 outputs=y:256:float32
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void deadlock(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, td.n);
    yGm.SetGlobalBuffer((__gm__ float *)y, td.n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, td.n * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, td.n);
#ifndef SIM_BUG
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
#endif
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0); // expected-finding ASC956
    Muls(t, t, 2.0f, td.n);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, t, td.n);
}
