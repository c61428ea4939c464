// Device code has no libm: expf, sqrtf, logf are undeclared (the vendor compiler says the same).
// The lowering reports these as ASC102; use the vector APIs (Exp, Sqrt, Ln) on a LocalTensor instead.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void libm(GM_ADDR x, GM_ADDR tiling)
{
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    float v = xGm.GetValue(0);
    float e = expf(v);  // expected-error {{use of undeclared identifier 'expf'}} [ASC102]
    float r = 1.0f / sqrtf(v);  // expected-error {{use of undeclared identifier 'sqrtf'}} [ASC102]
    // expected-error@+1 {{use of undeclared identifier 'logf'}} [ASC102]
    float l = logf(v);
    xGm.SetValue(1, e + r + l);
}
