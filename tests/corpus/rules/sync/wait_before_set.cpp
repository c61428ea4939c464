// The wait comes before the set on the straight-line path: the consumer pipe blocks forever.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void swapped(GM_ADDR x, GM_ADDR tiling)
{
    GlobalTensor<half> xGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, 2048);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<half> t = ub.Alloc<half, 2048>();
    DataCopy(t, xGm, 2048);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID3);  // expected-error {{WaitFlag<HardEvent::MTE2_V, event id 3> waits for a flag no SetFlag has set on any path here}} [ASC701]
    SetFlag<HardEvent::MTE2_V>(EVENT_ID3);   // expected-error {{SetFlag<HardEvent::MTE2_V, event id 3> is still set when the kernel ends}} [ASC702]
    Relu(t, t, 2048);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID3);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID3);
    DataCopy(xGm, t, 2048);
}
