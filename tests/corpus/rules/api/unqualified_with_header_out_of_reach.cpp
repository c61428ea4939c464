// No `using namespace AscendC` in sight, but a project header could not be read: it may hold the
// using-directive (ops-nn kernels take it from a shared base header), so the bare AscendC names are
// warnings, with the header named in a note.
#include "kernel_operator.h"
#include "../common/shared_base.h"  // expected-warning {{cannot find include file}} [ASC002]

extern "C" __global__ __aicore__ void bare_names(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;  // expected-warning {{unknown type name 'TPipe': AscendC types need 'AscendC::'}} [ASC509]
    AscendC::GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 1024);
    PipeBarrier<PIPE_ALL>();  // expected-warning {{'PipeBarrier' is not declared here}} [ASC509]
}
