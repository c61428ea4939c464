// sim-check ASC964: the cores take every fourth element of y, so every 64-byte line of it is written by all four
// sim-launch: block_dim=4 tiling=blockLength:256 inputs=x:1024:float32 outputs=y:1024:float32
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void shared_line(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, td.blockLength * GetBlockNum());
    yGm.SetGlobalBuffer((__gm__ float *)y, td.blockLength * GetBlockNum());
#ifdef SIM_BUG
    for (uint32_t i = GetBlockIdx(); i < td.blockLength * GetBlockNum(); i += GetBlockNum()) {
        yGm.SetValue(i, xGm.GetValue(i) * 2.0f); // expected-finding ASC964
    }
#else
    // a contiguous range per core: 256 floats, 1024 bytes, whole lines
    for (uint32_t i = td.blockLength * GetBlockIdx(); i < td.blockLength * (GetBlockIdx() + 1); ++i) {
        yGm.SetValue(i, xGm.GetValue(i) * 2.0f);
    }
#endif
}
