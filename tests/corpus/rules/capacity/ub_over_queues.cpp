// Double-buffered 64 KB tiles for two inputs and one output: 6 x 64 KB = 384 KB of UB on a 192 KB chip.
// The finding sits on the InitBuffer that crosses the limit and points at the largest buffers.
#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE_LENGTH = 16384;

class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x, TILE_LENGTH * 8);
        yGm.SetGlobalBuffer((__gm__ float *)y, TILE_LENGTH * 8);
        zGm.SetGlobalBuffer((__gm__ float *)z, TILE_LENGTH * 8);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        // expected-error@+1 {{UB buffers need 262144 bytes; the 910B2 UB holds 196608}} [ASC301]
        pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueZ;
    GlobalTensor<float> xGm, yGm, zGm;
};

extern "C" __global__ __aicore__ void add_big_tiles(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelAdd op;
    op.Init(x, y, z);
}
