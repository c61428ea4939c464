// EVENT_IDn are global enumerators: AscendC::EVENT_ID0 names nothing.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void event_ids(GM_ADDR x, GM_ADDR tiling)
{
    AscendC::GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    float v = xGm.GetValue(0);
    // expected-error@+1 {{no member named 'EVENT_ID0' in namespace 'AscendC': EVENT_ID0 is a global enumerator}} [ASC510]
    AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(AscendC::EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(AscendC::EVENT_ID0);  // expected-error {{no member named 'EVENT_ID0'}} [ASC510]
    AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID1);
    AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID1);
    xGm.SetValue(1, v);
}
