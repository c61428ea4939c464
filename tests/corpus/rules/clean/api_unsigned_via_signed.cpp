// Unsigned counts reach float through a signed integer, or implicitly, never by an explicit cast.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void mean_ok(GM_ADDR x, uint32_t rows, uint32_t cols, float bias)
{
    float invCols = 1.0f / static_cast<float>(static_cast<int32_t>(cols));
    float invRows = 1.0f / rows;
    int32_t whole = static_cast<int32_t>(bias);
    uint32_t positive = static_cast<uint32_t>(whole > 0 ? whole : 0);
    float back = static_cast<float>(static_cast<int64_t>(positive));
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    xGm.SetValue(0, invCols + invRows + back);
}
