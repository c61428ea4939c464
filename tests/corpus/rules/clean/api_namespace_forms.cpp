// Without `using namespace AscendC`: qualified calls, using-declarations, code inside namespace AscendC,
// calls found through their AscendC-typed arguments, and the few APIs the headers declare outside the
// namespace (GetSysWorkSpacePtr) all compile.
#include "kernel_operator.h"

using AscendC::GetBlockNum;

namespace AscendC {
class KernelOffset {
public:
    __aicore__ inline KernelOffset() {}
    __aicore__ inline uint32_t Get(uint32_t perCore)
    {
        PipeBarrier<PIPE_ALL>();
        return perCore * GetBlockIdx();
    }
};
}  // namespace AscendC

extern "C" __global__ __aicore__ void ns_forms(GM_ADDR x, GM_ADDR tiling)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    AscendC::GlobalTensor<float> xGm;
    if (GetSysWorkSpacePtr() == nullptr) {
        return;
    }
    uint32_t cores = GetBlockNum();
    AscendC::KernelOffset offset;
    xGm.SetGlobalBuffer((__gm__ float *)x + offset.Get(1024), 1024);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, 1024);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    Muls(t, t, 2.0f, 1024);
    Adds(t, t, static_cast<float>(static_cast<int32_t>(cores)), 1024);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(xGm, t, 1024);
}
