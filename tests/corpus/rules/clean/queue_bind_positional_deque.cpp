// Clean: a TQueBind<VECIN, VECOUT> queue that copies GM -> UB -> GM with no vector compute, moved with the
// positional forms EnQue<srcPos, dstPos, T>(t) and DeQue<srcPos, dstPos, T>() (NPUKernelBench FeedsRepeat's
// answer). The element type is the third template argument, not the first (a TPosition).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void queue_bind_positional_deque(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                                  GM_ADDR tiling)
{
    TPipe pipe;
    TQueBind<QuePosition::VECIN, QuePosition::VECOUT, 1> bindQueue;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 4096);
    yGm.SetGlobalBuffer((__gm__ float *)y, 4096);
    pipe.InitBuffer(bindQueue, 2, 1024 * sizeof(float));
    LocalTensor<float> row;
    for (int32_t i = 0; i < 4; i++) {
        row = bindQueue.AllocTensor<float>();
        DataCopy(row, xGm[i * 1024], 1024);
        bindQueue.EnQue<QuePosition::VECIN, QuePosition::VECOUT, float>(row);
        row = bindQueue.DeQue<QuePosition::VECIN, QuePosition::VECOUT, float>();
        DataCopy(yGm[i * 1024], row, 1024);
        bindQueue.FreeTensor(row);
    }
}
