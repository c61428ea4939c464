// A vector-only kernel (no KERNEL_TASK_TYPE) that synchronises all its cores with CrossCoreSetFlag<0> and
// CrossCoreWaitFlag, as the hardware SyncAll does (NPUKernelBench's ForeachNorm): each core doubles its half of
// x into y, then, after the barrier, copies the other core's half of y into z.
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t HALF = 64;

extern "C" __global__ __aicore__ void aiv_barrier(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm, zGm;
    int32_t me = GetBlockIdx();
    int32_t other = 1 - me;
    xGm.SetGlobalBuffer((__gm__ float *)x, 2 * HALF);
    yGm.SetGlobalBuffer((__gm__ float *)y, 2 * HALF);
    zGm.SetGlobalBuffer((__gm__ float *)z, 2 * HALF);
    pipe.InitBuffer(inQueue, 1, HALF * sizeof(float));
    pipe.InitBuffer(outQueue, 1, HALF * sizeof(float));

    LocalTensor<float> in = inQueue.AllocTensor<float>();
    DataCopy(in, xGm[me * HALF], HALF);
    inQueue.EnQue(in);
    LocalTensor<float> xs = inQueue.DeQue<float>();
    LocalTensor<float> out = outQueue.AllocTensor<float>();
    Muls(out, xs, 2.0f, HALF);
    outQueue.EnQue(out);
    inQueue.FreeTensor(xs);
    LocalTensor<float> ys = outQueue.DeQue<float>();
    DataCopy(yGm[me * HALF], ys, HALF);
    outQueue.FreeTensor(ys);

    CrossCoreSetFlag<0, PIPE_MTE3>(1);
    CrossCoreWaitFlag(1);

    LocalTensor<float> back = inQueue.AllocTensor<float>();
    DataCopy(back, yGm[other * HALF], HALF);
    inQueue.EnQue(back);
    LocalTensor<float> got = inQueue.DeQue<float>();
    LocalTensor<float> copy = outQueue.AllocTensor<float>();
    Adds(copy, got, 0.0f, HALF);
    outQueue.EnQue(copy);
    inQueue.FreeTensor(got);
    LocalTensor<float> zs = outQueue.DeQue<float>();
    DataCopy(zGm[me * HALF], zs, HALF);
    outQueue.FreeTensor(zs);
}
