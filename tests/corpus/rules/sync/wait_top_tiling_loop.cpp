// A loop of tiling-dependent length that waits at the top: the first iteration hangs (no pre-set),
// even though the drain after the loop is there.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void tiling_loop(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, td.total);
    yGm.SetGlobalBuffer((__gm__ half *)y, td.total);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<half> t = ub.Alloc<half, 2048>();
    for (uint32_t i = 0; i < td.tiles; ++i) {
        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);  // expected-error {{WaitFlag<HardEvent::MTE3_MTE2, event id 0> waits for a flag no SetFlag has set on any path here}} [ASC701]
        DataCopy(t, xGm[i * 2048], 2048);
        SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
        DataCopy(yGm[i * 2048], t, 2048);
        SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
    }
    WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
}
