// Cross-core flags kept in an array of small objects and picked by a run-time stage index
// (`CrossCoreWaitFlag(flagList[stageId].id)`, as catlass's multi-stage workspaces do): each stage, every core
// doubles its half of x into y, raises the stage's flag (mode 0, all vector cores), waits on it, then copies
// the other core's half of y into z. The flags' ids come from the array, filled at run time.
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t HALF = 64;
constexpr uint32_t STAGES = 2;

struct Flag {
    __aicore__ inline Flag() : id(0) {}
    __aicore__ inline Flag(uint16_t id) : id(id) {}
    uint16_t id;
};

extern "C" __global__ __aicore__ void flag_list(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm, zGm;
    int32_t me = GetBlockIdx();
    int32_t other = 1 - me;
    xGm.SetGlobalBuffer((__gm__ float *)x, 2 * STAGES * HALF);
    yGm.SetGlobalBuffer((__gm__ float *)y, 2 * STAGES * HALF);
    zGm.SetGlobalBuffer((__gm__ float *)z, 2 * STAGES * HALF);
    pipe.InitBuffer(inQueue, 1, HALF * sizeof(float));
    pipe.InitBuffer(outQueue, 1, HALF * sizeof(float));
    Flag flags[STAGES];
    uint16_t next = 3;
    for (uint32_t s = 0; s < STAGES; ++s) {
        flags[s] = Flag(next++);
    }
    for (uint32_t stage = 0; stage < STAGES; ++stage) {
        int32_t base = stage * 2 * HALF;
        LocalTensor<float> in = inQueue.AllocTensor<float>();
        DataCopy(in, xGm[base + me * HALF], HALF);
        inQueue.EnQue(in);
        LocalTensor<float> xs = inQueue.DeQue<float>();
        LocalTensor<float> out = outQueue.AllocTensor<float>();
        Muls(out, xs, 2.0f, HALF);
        outQueue.EnQue(out);
        inQueue.FreeTensor(xs);
        LocalTensor<float> ys = outQueue.DeQue<float>();
        DataCopy(yGm[base + me * HALF], ys, HALF);
        outQueue.FreeTensor(ys);

        CrossCoreSetFlag<0, PIPE_MTE3>(flags[stage].id);
        CrossCoreWaitFlag(flags[stage].id);

        LocalTensor<float> back = inQueue.AllocTensor<float>();
        DataCopy(back, yGm[base + other * HALF], HALF);
        inQueue.EnQue(back);
        LocalTensor<float> got = inQueue.DeQue<float>();
        LocalTensor<float> copy = outQueue.AllocTensor<float>();
        Adds(copy, got, 0.0f, HALF);
        outQueue.EnQue(copy);
        inQueue.FreeTensor(got);
        LocalTensor<float> zs = outQueue.DeQue<float>();
        DataCopy(zGm[base + me * HALF], zs, HALF);
        outQueue.FreeTensor(zs);
    }
}
