// PipeBarrier<PIPE_S> is illegal; barriers on other pipes are fine.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void barrier_s(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 1.0f, 1024);
    PipeBarrier<PIPE_V>();
    Exp(t, t, 1024);
    PipeBarrier<PIPE_S>();  // expected-error {{PipeBarrier<PIPE_S> is illegal; order scalar work with SetFlag/WaitFlag or use PipeBarrier<PIPE_ALL>}} [ASC704]
    AscendC::PipeBarrier<PIPE_S>();  // expected-error {{PipeBarrier<PIPE_S> is illegal}} [ASC704]
    PipeBarrier<PIPE_ALL>();
}
