/**
 * @file full_nan.cpp
 * @brief y = full_like(x, NaN), fp32: every core fills its slice of y with NaN.
 *
 * NAN (like INFINITY) comes from the C math headers the device compiler brings in; the
 * kernel fills one UB tile with Duplicate and writes it to each tile of its slice.
 */
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TILE = 1024;

extern "C" __global__ __aicore__ void full_nan(GM_ADDR y, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    const uint32_t perCore = tilingData.tilesPerCore * TILE;
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * perCore, perCore);

    TPipe pipe;
    TQue<TPosition::VECOUT, 1> outQueue;
    pipe.InitBuffer(outQueue, 1, TILE * sizeof(float));
    for (uint32_t t = 0; t < tilingData.tilesPerCore; ++t) {
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        Duplicate(yLocal, static_cast<float>(NAN), TILE);
        outQueue.EnQue(yLocal);
        yLocal = outQueue.DeQue<float>();
        DataCopy(yGm[t * TILE], yLocal, TILE);
        outQueue.FreeTensor(yLocal);
    }
}
