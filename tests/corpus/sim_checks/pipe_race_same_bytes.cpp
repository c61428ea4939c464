// sim-check ASC965: MTE2 reloads a tile MTE3 may still be copying out, with no MTE3 -> MTE2 flag
// sim-launch: block_dim=1 tiling=n:256 inputs=x:512:float32 outputs=y:512:float32
#include "kernel_operator.h"
using namespace AscendC;

// MTE2 <-> MTE3 is no pair the compiler's --cce-auto-sync orders, so the race is graded by what the reload
// stores: the bytes the tile already holds (a warning: no order changes what MTE3 reads), or, with
// SIM_NEW_VALUE, x's second half (an error: MTE3 may copy out the new bytes).
extern "C" __global__ __aicore__ void copy_twice(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 2 * td.n);
    yGm.SetGlobalBuffer((__gm__ float *)y, 2 * td.n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> tileBuf; // no queue: the kernel orders the pipes itself
    pipe.InitBuffer(tileBuf, td.n * sizeof(float));
    LocalTensor<float> tile = tileBuf.Get<float>();
    DataCopy(tile, xGm, td.n);
    event_t loaded = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_MTE3));
    SetFlag<HardEvent::MTE2_MTE3>(loaded);
    WaitFlag<HardEvent::MTE2_MTE3>(loaded);
    DataCopy(yGm, tile, td.n);
#ifndef SIM_BUG
    event_t stored = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE3_MTE2));
    SetFlag<HardEvent::MTE3_MTE2>(stored);
    WaitFlag<HardEvent::MTE3_MTE2>(stored);
#endif
#ifdef SIM_NEW_VALUE
    DataCopy(tile, xGm[td.n], td.n);
#else
    DataCopy(tile, xGm, td.n); // expected-finding ASC965
#endif
    SetFlag<HardEvent::MTE2_MTE3>(loaded);
    WaitFlag<HardEvent::MTE2_MTE3>(loaded);
    DataCopy(yGm[td.n], tile, td.n);
}
