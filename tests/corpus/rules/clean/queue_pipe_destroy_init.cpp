// One TPipe object reused for two stages with different buffer layouts: Destroy() releases the first
// stage's buffers and Init() sets the same pipe up again for the second.
#include "kernel_operator.h"

template <typename T, uint32_t LENGTH>
__aicore__ inline void CopyStage(GM_ADDR src, GM_ADDR dst, AscendC::TPipe *pipe)
{
    AscendC::GlobalTensor<T> srcGm;
    AscendC::GlobalTensor<T> dstGm;
    srcGm.SetGlobalBuffer((__gm__ T *)src, LENGTH);
    dstGm.SetGlobalBuffer((__gm__ T *)dst, LENGTH);
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    pipe->InitBuffer(inQueue, 1, LENGTH * sizeof(T));
    AscendC::LocalTensor<T> t = inQueue.AllocTensor<T>();
    AscendC::DataCopy(t, srcGm, LENGTH);
    inQueue.EnQue(t);
    AscendC::LocalTensor<T> in = inQueue.DeQue<T>();
    AscendC::DataCopy(dstGm, in, LENGTH);
    inQueue.FreeTensor(in);
}

extern "C" __global__ __aicore__ void two_stages_one_pipe(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    AscendC::TPipe pipe;
    CopyStage<float, 128>(x, y, &pipe);
    pipe.Destroy();

    pipe.Init();
    CopyStage<float, 256>(x, y, &pipe);
    pipe.Destroy();
}
