// An output tensor already enqueued for the copy-out, read again by the vector pipe that wrote it (ops-nn's
// add_rms_norm_cast casts the bf16 result back to float after EnQue): the EnQue orders the copy-out after
// the writes before it, and the copy-out only reads, so a later vector read races with nothing. A vector
// write to it, a copy-out without DeQue and a scalar read stay use-before-DeQue.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void cast_back(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQueueY;
    TBuf<TPosition::VECCALC> calc;
    GlobalTensor<bfloat16_t> yGm;
    GlobalTensor<float> zGm;
    yGm.SetGlobalBuffer((__gm__ bfloat16_t *)y, 1024);
    zGm.SetGlobalBuffer((__gm__ float *)z, 1024);
    pipe.InitBuffer(outQueueY, 1, 1024 * sizeof(bfloat16_t));
    pipe.InitBuffer(calc, 2 * 1024 * sizeof(float));

    LocalTensor<float> acc = calc.Get<float>();
    LocalTensor<float> back = acc[1024];
    Duplicate(acc, 1.0f, 1024);
    LocalTensor<bfloat16_t> yLocal = outQueueY.AllocTensor<bfloat16_t>();
    Cast(yLocal, acc, RoundMode::CAST_RINT, 1024);
    outQueueY.EnQue(yLocal);
    Cast(back, yLocal, RoundMode::CAST_NONE, 1024);
    Cast(yLocal, back, RoundMode::CAST_RINT, 1024);  // expected-error {{Cast uses a tensor of outQueueY that is enqueued and not yet dequeued}} [ASC202]
    DataCopy(yGm, yLocal, 1024);  // expected-error {{DataCopy uses a tensor of outQueueY that is enqueued and not yet dequeued}} [ASC202]
    bfloat16_t first = yLocal.GetValue(0);  // expected-error {{GetValue uses a tensor of outQueueY that is enqueued}} [ASC202]
    LocalTensor<bfloat16_t> yOut = outQueueY.DeQue<bfloat16_t>();
    DataCopy(yGm, yOut, 1024);
    outQueueY.FreeTensor(yOut);
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, back, 1024);
}
