// Straight-line TBuf reuse: the first tile is written back to GM and the second tile is loaded into
// the same TBuf right after, with nothing that makes PIPE_MTE2 wait for PIPE_MTE3.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void abs_two_tiles(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> work;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 2048);
    yGm.SetGlobalBuffer((__gm__ float *)y, 2048);
    pipe.InitBuffer(work, 1024 * sizeof(float));
    LocalTensor<float> tile = work.Get<float>();

    DataCopy(tile, xGm, 1024);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Abs(tile, tile, 1024);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, tile, 1024);

    DataCopy(tile, xGm[1024], 1024);  // expected-error {{DataCopy reloads TBuf work while an earlier DataCopy may still be writing it back to GM}} [ASC708]
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Abs(tile, tile, 1024);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm[1024], tile, 1024);
}
