// A flag set in a loop of unknown length and never waited anywhere: unpaired set.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void never_waited(GM_ADDR x, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 65536);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> t = ub.Alloc<float, 1024>();
    for (uint32_t i = 0; i < td.tiles; ++i) {
        t.SetValue(0, 1.0f);
        SetFlag<HardEvent::S_MTE3>(EVENT_ID0);  // expected-error {{SetFlag<HardEvent::S_MTE3, event id 0> has no WaitFlag of the same event and id in the kernel; the flag stays set}} [ASC702]
        DataCopy(xGm[i * 1024], t, 1024);
    }
}
