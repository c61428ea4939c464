// No double precision on the AI Core: neither arithmetic nor casts to/from double.
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline float Mish(float x, float softplus)
{
    const double xv = static_cast<double>(x);  // expected-error {{cast from float to double in device code: the AI Core has no double precision}} [ASC508]
    return static_cast<float>(xv * softplus);  // expected-error {{double-precision arithmetic in device code}} [ASC508]
}

extern "C" __global__ __aicore__ void mish_scalar(GM_ADDR x, GM_ADDR tiling)
{
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    float v = xGm.GetValue(0);
    float half_v = v * 0.5;  // expected-error {{double-precision arithmetic in device code}} [ASC508]
    float ok = v * 0.5f;
    xGm.SetValue(0, Mish(v, ok) + half_v);
}
