// Event ids are 0..7 on Atlas A2 (910B2, the default chip): 8 and -1 do not exist.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void bad_ids(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 1.0f, 1024);
    SetFlag<HardEvent::V_S>(8);    // expected-error {{SetFlag with event id 8; 910B2 has event ids 0..7}} [ASC705]
    WaitFlag<HardEvent::V_S>(8);   // expected-error {{WaitFlag with event id 8}} [ASC705]
    SetFlag<HardEvent::V_S>(EVENT_ID7);
    WaitFlag<HardEvent::V_S>(EVENT_ID7);
    float v = t.GetValue(0);
    t.SetValue(1, v);
}
