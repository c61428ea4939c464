// AllocTensor on a queue whose InitBuffer buffers are all held: a single-buffer queue asked for a second
// tensor, and a double-buffered queue asked for a third. Freeing first makes the later alloc fine.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void alloc_exhausted(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> single;
    TQue<TPosition::VECOUT, 2> twice;
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 4096);
    pipe.InitBuffer(single, 1, 512 * sizeof(float));
    pipe.InitBuffer(twice, 2, 512 * sizeof(float));

    LocalTensor<float> a = single.AllocTensor<float>();
    LocalTensor<float> b = single.AllocTensor<float>();  // expected-error {{AllocTensor on single blocks forever: all 1 of its buffer is taken}} [ASC206]

    LocalTensor<float> c = twice.AllocTensor<float>();
    LocalTensor<float> d = twice.AllocTensor<float>();
    LocalTensor<float> e = twice.AllocTensor<float>();  // expected-error {{AllocTensor on twice blocks forever: all 2 of its buffers are taken}} [ASC206]
}
