// Setting a flag that is already set loses the first set: the second wait then hangs.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void double_set(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 1024);
    yGm.SetGlobalBuffer((__gm__ float *)y, 1024);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> a = ub.Alloc<float, 1024>();
    LocalTensor<float> b = ub.Alloc<float, 1024>();
    DataCopy(a, xGm, 1024);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    DataCopy(b, yGm, 1024);
    // expected-note@-2 {{set here before}}
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);   // expected-error {{SetFlag<HardEvent::MTE2_V, event id 0> while the flag is already set on every path; the first set is lost}} [ASC703]
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);  // expected-error {{WaitFlag<HardEvent::MTE2_V, event id 0> waits for a flag no SetFlag has set}} [ASC701]
    Add(a, a, b, 1024);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
    DataCopy(yGm, a, 1024);
}
