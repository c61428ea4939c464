// sim-check ASC965: a vector fill rewrites a tile MTE3 may still be copying out, with no MTE3 -> V flag
// sim-launch: block_dim=1 tiling=n:256 inputs=x:256:float32 outputs=y:512:float32
#include "kernel_operator.h"
using namespace AscendC;

// The second fill stores the value the tile already holds (a warning: no order changes what MTE3 reads), or,
// with SIM_NEW_VALUE, another value (an error: MTE3 may copy out the new one).
extern "C" __global__ __aicore__ void fill_twice(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float *)y, 2 * td.n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> tileBuf; // no queue: the kernel orders the pipes itself
    pipe.InitBuffer(tileBuf, td.n * sizeof(float));
    LocalTensor<float> tile = tileBuf.Get<float>();
    Duplicate(tile, 1.0f, td.n);
    event_t filled = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
    SetFlag<HardEvent::V_MTE3>(filled);
    WaitFlag<HardEvent::V_MTE3>(filled);
    DataCopy(yGm, tile, td.n);
#ifndef SIM_BUG
    event_t copied = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE3_V));
    SetFlag<HardEvent::MTE3_V>(copied);
    WaitFlag<HardEvent::MTE3_V>(copied);
#endif
#ifdef SIM_NEW_VALUE
    Duplicate(tile, 2.0f, td.n);
#else
    Duplicate(tile, 1.0f, td.n); // expected-finding ASC965
#endif
    SetFlag<HardEvent::V_MTE3>(filled);
    WaitFlag<HardEvent::V_MTE3>(filled);
    DataCopy(yGm[td.n], tile, td.n);
}
