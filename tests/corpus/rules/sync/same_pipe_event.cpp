// A HardEvent from a pipe to itself: ordering within the vector pipe needs PipeBarrier<PIPE_V>.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void same_pipe(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 1.0f, 1024);
    SetFlag<HardEvent::V_V>(EVENT_ID0);   // expected-error {{SetFlag<HardEvent::V_V> syncs pipe V with itself; use PipeBarrier<PIPE_V>() to order one pipe}} [ASC706]
    WaitFlag<HardEvent::V_V>(EVENT_ID0);  // expected-error {{WaitFlag<HardEvent::V_V> syncs pipe V with itself}} [ASC706]
    Exp(t, t, 1024);
    PipeBarrier<PIPE_V>();
    Ln(t, t, 1024);
}
