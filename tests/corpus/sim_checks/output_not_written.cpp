// sim-check ASC961: an even split that drops the remainder
// sim-launch: block_dim=4 tiling=total:1002 inputs=x:1002:float32 outputs=y:1002:float32
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void not_written(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
#ifdef SIM_BUG
    const uint32_t per = td.total / GetBlockNum();
    const uint32_t mine = per;
#else
    // whole 64-byte lines (16 floats) per core, so that no two cores' SetValues share one (ASC964); the last core
    // takes the rest
    const uint32_t per = td.total / GetBlockNum() / 16 * 16;
    const uint32_t mine = GetBlockIdx() == GetBlockNum() - 1 ? td.total - per * GetBlockIdx() : per;
#endif
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + per * GetBlockIdx(), mine);
    yGm.SetGlobalBuffer((__gm__ float *)y + per * GetBlockIdx(), mine);
    for (uint32_t i = 0; i < mine; ++i) {
        yGm.SetValue(i, xGm.GetValue(i) + 1.0f);
    }
}
