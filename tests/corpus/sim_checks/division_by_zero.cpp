// sim-check ASC960: a tile count divided by a tiling field that is 0
// sim-launch: block_dim=1 tiling=n:256,tileLength:0 inputs=x:256:float32 outputs=y:256:float32
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void div_zero(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, td.n);
    yGm.SetGlobalBuffer((__gm__ float *)y, td.n);
#ifdef SIM_BUG
    const uint32_t tile = td.tileLength;
#else
    const uint32_t tile = td.tileLength == 0 ? td.n : td.tileLength;
#endif
    const uint32_t tiles = td.n / tile; // expected-finding ASC960
    for (uint32_t t = 0; t < tiles; ++t) {
        for (uint32_t i = 0; i < tile; ++i) {
            yGm.SetValue(t * tile + i, xGm.GetValue(t * tile + i));
        }
    }
}
