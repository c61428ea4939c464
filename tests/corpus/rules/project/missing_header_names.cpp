// A project header the check cannot find may declare the helpers and constants the kernel uses: names it
// does not know are not reported, and a call of an unknown free function is a warning, not an error.
#include "kernel_operator.h"
#include "common/kernel_utils.h"  // expected-warning {{cannot find include file 'common/kernel_utils.h'}} [ASC002]

extern "C" __global__ __aicore__ void tiles(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    AscendC::GlobalTensor<float> xGm;
    uint32_t length = defaultTileLength * 2;
    xGm.SetGlobalBuffer((__gm__ float *)x, length);
    uint32_t tiles = CeilDiv(1000u, 256u);  // expected-warning {{unknown AscendC API 'CeilDiv'}} [ASC100]
    (void)tiles;
}
