// Event ids kept in arrays (a member with a brace initialiser, a local filled element by element), as
// template-library kernels keep one id per buffer: each element is its own flag, so the two sets and the two
// waits pair up.
#include "kernel_operator.h"
using namespace AscendC;

class PingPong {
public:
    __aicore__ inline PingPong() {}
    __aicore__ inline void Run(GlobalTensor<float> &yGm, LocalTensor<float> &a)
    {
        SetFlag<HardEvent::MTE3_MTE2>(eventIds[0]);
        SetFlag<HardEvent::MTE3_MTE2>(eventIds[1]);
        WaitFlag<HardEvent::MTE3_MTE2>(eventIds[0]);
        DataCopy(yGm, a, 256);
        WaitFlag<HardEvent::MTE3_MTE2>(eventIds[1]);
    }

private:
    static const uint32_t BUFFER_NUM = 2;
    TEventID eventIds[BUFFER_NUM] = {EVENT_ID0, EVENT_ID1};
};

extern "C" __global__ __aicore__ void sync_event_id_array(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 256);
    yGm.SetGlobalBuffer((__gm__ float *)y, 256);
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> a = ub.Alloc<float, 256>();
    DataCopy(a, xGm, 256);
    int32_t ids[2];
    ids[0] = 2;
    ids[1] = 3;
    SetFlag<HardEvent::MTE2_MTE3>(ids[0]);
    SetFlag<HardEvent::MTE2_MTE3>(ids[1]);
    WaitFlag<HardEvent::MTE2_MTE3>(ids[0]);
    WaitFlag<HardEvent::MTE2_MTE3>(ids[1]);
    PingPong p;
    p.Run(yGm, a);
}
