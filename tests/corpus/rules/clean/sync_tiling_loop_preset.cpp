// Clean: a loop whose length comes from tiling (possibly zero): the pre-set before the loop and the
// drain after it balance for any trip count.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void copy_tiles(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, td.total);
    yGm.SetGlobalBuffer((__gm__ half *)y, td.total);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<half> t = ub.Alloc<half, 4096>();
    SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID2);
    for (uint32_t i = 0; i < td.tiles; ++i) {
        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID2);
        DataCopy(t, xGm[i * 4096], 4096);
        SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID2);
        WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID2);
        DataCopy(yGm[i * 4096], t, 4096);
        SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID2);
    }
    WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID2);
}
