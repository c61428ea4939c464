// Without `using namespace AscendC`, calls whose arguments are not AscendC types need the prefix.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void unqualified(GM_ADDR x, GM_ADDR tiling)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    AscendC::GlobalTensor<float> xGm;
    uint32_t core = GetBlockIdx();  // expected-error {{'GetBlockIdx' is not declared here: AscendC APIs need 'AscendC::' or 'using namespace AscendC'}} [ASC509]
    xGm.SetGlobalBuffer((__gm__ float *)x + core * 1024, 1024);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::DataCopy(t, xGm, 1024);
    SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);  // expected-error {{'SetFlag' is not declared here}} [ASC509]
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    Exp(t, t, 1024);  // found through its LocalTensor arguments
    PipeBarrier<PIPE_V>();  // expected-error {{'PipeBarrier' is not declared here}} [ASC509]
    AscendC::Adds(t, t, 1.0f, 1024);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(xGm, t, 1024);
    SetSysWorkSpacePtr((__gm__ uint8_t *)tiling);  // global scope, like GetSysWorkSpacePtr: no prefix needed
}
