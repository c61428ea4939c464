// Several TPipes in one kernel, used one after the other: each is destroyed before the next gets buffers.
// A fallback pipe declared before the branches that make their own is never used, and is fine too.
#include "kernel_operator.h"
using namespace AscendC;

class StageCopy {
public:
    __aicore__ inline StageCopy() {}
    __aicore__ inline void Init(GM_ADDR src, GM_ADDR dst, TPipe* pipe)
    {
        srcGm.SetGlobalBuffer((__gm__ float*)src, 256);
        dstGm.SetGlobalBuffer((__gm__ float*)dst, 256);
        pipe->InitBuffer(stage, 256 * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> t = stage.Get<float>();
        DataCopy(t, srcGm, 256);
        SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
        DataCopy(dstGm, t, 256);
    }

private:
    TBuf<TPosition::VECCALC> stage;
    GlobalTensor<float> srcGm;
    GlobalTensor<float> dstGm;
};

extern "C" __global__ __aicore__ void two_stages(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe firstPipe;
    TPipe secondPipe;
    StageCopy first;
    first.Init(x, y, &firstPipe);
    first.Process();
    firstPipe.Destroy();
    StageCopy second;
    second.Init(y, z, &secondPipe);
    second.Process();
}

extern "C" __global__ __aicore__ void per_key_pipes(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    if (TILING_KEY_IS(1)) {
        StageCopy op;
        op.Init(x, y, &pipe);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        TPipe keyPipe;
        StageCopy op;
        op.Init(x, y, &keyPipe);
        op.Process();
    }
}
