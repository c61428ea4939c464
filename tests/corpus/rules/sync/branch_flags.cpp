// Flags set on only one branch: a wait after the join may or may not hang (not reported), but a wait
// that no path before it sets hangs whichever branch ran, and a set with no wait anywhere stays set.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void branches(GM_ADDR x, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 4096);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> t = ub.Alloc<float, 1024>();
    DataCopy(t, xGm, 1024);
    if (td.mode == 1) {
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    } else {
        SetFlag<HardEvent::MTE2_V>(EVENT_ID1);
    }
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);  // only the first branch set it: may hang, not provable
    if (td.mode == 2) {
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID2);  // expected-error {{WaitFlag<HardEvent::MTE2_V, event id 2> waits for a flag no SetFlag has set on any path here}} [ASC701]
    }
    Abs(t, t, 1024);
    if (td.mode == 3) {
        SetFlag<HardEvent::V_MTE3>(EVENT_ID5);  // expected-error {{SetFlag<HardEvent::V_MTE3, event id 5> has no WaitFlag of the same event and id}} [ASC702]
    }
    SetFlag<HardEvent::MTE2_V>(EVENT_ID2);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID2);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(xGm, t, 1024);
}
