// Two TPipes one after the other: Destroy() ends the first before the second is created, which is how a
// kernel runs stages with different buffer layouts.
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

extern "C" __global__ __aicore__ void two_stages(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    AscendC::TPipe firstPipe;
    CopyStage<float, 128>(x, y, &firstPipe);
    firstPipe.Destroy();

    AscendC::TPipe secondPipe;
    CopyStage<float, 256>(x, y, &secondPipe);
    secondPipe.Destroy();
}
