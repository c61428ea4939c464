// sim-check ASC959: a repeat count over 255
// sim-launch: block_dim=1 tiling=n:256,repeat:300 inputs=x:256:float32 outputs=y:256:float32
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void bad_repeat(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, td.n);
    yGm.SetGlobalBuffer((__gm__ float *)y, td.n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, td.n * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, td.n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
#ifdef SIM_BUG
    const uint32_t repeat = td.repeat;
#else
    const uint32_t repeat = td.n / 64;
#endif
    Muls(t, t, 2.0f, (uint64_t)64, repeat, {1, 1, 8, 8}); // expected-finding ASC959
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, t, td.n);
}
