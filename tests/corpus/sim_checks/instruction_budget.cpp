// sim-check ASC957: an unsigned loop counter that never goes below zero
// sim-launch: block_dim=1 budget=200000 tiling=n:256 inputs=x:256:float32 outputs=y:256:float32
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void runaway(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, td.n);
    yGm.SetGlobalBuffer((__gm__ float *)y, td.n);
#ifdef SIM_BUG
    for (uint32_t i = td.n - 1; i >= 0; --i) { // expected-finding ASC957
#else
    for (int32_t i = td.n - 1; i >= 0; --i) {
#endif
        yGm.SetValue(i, xGm.GetValue(i) * 2.0f);
    }
}
