// sim-check ASC965: a vector instruction reads a TBuf tile MTE2 is copying in, with no MTE2 -> V flag
// sim-launch: block_dim=1 tiling=n:256 inputs=x:256:float32 outputs=y:256:float32
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void double_in_place(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, td.n);
    yGm.SetGlobalBuffer((__gm__ float *)y, td.n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> tileBuf; // no queue: the kernel orders the pipes itself
    pipe.InitBuffer(tileBuf, td.n * sizeof(float));
    LocalTensor<float> tile = tileBuf.Get<float>();
    DataCopy(tile, xGm, td.n);
#ifndef SIM_BUG
    event_t copiedIn = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
    SetFlag<HardEvent::MTE2_V>(copiedIn);
    WaitFlag<HardEvent::MTE2_V>(copiedIn);
#endif
    Muls(tile, tile, 2.0f, td.n); // expected-finding ASC965
    event_t computed = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
    SetFlag<HardEvent::V_MTE3>(computed);
    WaitFlag<HardEvent::V_MTE3>(computed);
    DataCopy(yGm, tile, td.n);
}
