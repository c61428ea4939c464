// Scalar math in float only, with f-suffixed literals.
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline float Gelu(float x)
{
    const float inner = 0.7978845608f * (x + 0.044715f * x * x * x);
    return 0.5f * x * (1.0f + inner / (1.0f + (inner > 0.0f ? inner : -inner)));
}

extern "C" __global__ __aicore__ void float_math(GM_ADDR x, GM_ADDR tiling)
{
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    for (int32_t i = 0; i < 64; ++i) {
        float v = xGm.GetValue(i);
        xGm.SetValue(i, Gelu(v) * 0.5f + static_cast<float>(i));
    }
}
