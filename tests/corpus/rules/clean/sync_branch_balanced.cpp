// Clean: each branch sets and the join waits; a flag set and waited inside the same branch; a wait in a
// branch matched by a set under the same condition.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void branchy(GM_ADDR x, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 4096);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> t = ub.Alloc<float, 1024>();
    if (td.mode == 0) {
        DataCopy(t, xGm, 1024);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    } else {
        DataCopy(t, xGm[1024], 1024);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    }
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Abs(t, t, 1024);
    if (td.scale != 0) {
        SetFlag<HardEvent::V_S>(EVENT_ID1);
        WaitFlag<HardEvent::V_S>(EVENT_ID1);
        float v = t.GetValue(0);
        t.SetValue(0, v * 2.0f);
        SetFlag<HardEvent::S_V>(EVENT_ID1);
        WaitFlag<HardEvent::S_V>(EVENT_ID1);
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(xGm, t, 1024);
}
