// One element of an event-id array set twice: the flag of ids[0] (event id 0), not the array's last element.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void double_set_array_element(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 256);
    yGm.SetGlobalBuffer((__gm__ float *)y, 256);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> a = ub.Alloc<float, 256>();
    TEventID ids[2] = {EVENT_ID0, EVENT_ID1};
    DataCopy(a, xGm, 256);
    SetFlag<HardEvent::MTE2_MTE3>(ids[0]);
    // expected-note@-1 {{set here before}}
    SetFlag<HardEvent::MTE2_MTE3>(ids[0]);   // expected-error {{SetFlag<HardEvent::MTE2_MTE3, event id 0> while the flag is already set on every path; the first set is lost}} [ASC703]
    WaitFlag<HardEvent::MTE2_MTE3>(ids[0]);
    DataCopy(yGm, a, 256);
    WaitFlag<HardEvent::MTE2_MTE3>(ids[0]);  // expected-error {{WaitFlag<HardEvent::MTE2_MTE3, event id 0> waits for a flag no SetFlag has set}} [ASC701]
}
