// The set and the wait name different event ids: the wait never sees its flag, the set is never consumed.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void mismatched(GM_ADDR x, GM_ADDR tiling)
{
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 1024);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> t = ub.Alloc<float, 1024>();
    DataCopy(t, xGm, 1024);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);   // expected-error {{SetFlag<HardEvent::MTE2_V, event id 0> is still set when the kernel ends}} [ASC702]
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);  // expected-error {{WaitFlag<HardEvent::MTE2_V, event id 1> waits for a flag no SetFlag has set}} [ASC701]
    Abs(t, t, 1024);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID2);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID2);
    DataCopy(xGm, t, 1024);
}
