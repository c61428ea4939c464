// Explicit casts between floating-point and unsigned integers are rejected in aicore functions.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void mean_scale(GM_ADDR x, uint32_t rows, uint32_t cols, float bias)
{
    // expected-error@+1 {{cast from uint32_t to float: device code may not cast between floating-point and unsigned integer types}} [ASC507]
    float invCols = 1.0f / static_cast<float>(cols);
    float invRows = 1.0f / (float)rows;  // expected-error {{cast from uint32_t to float}} [ASC507]
    uint32_t whole = static_cast<uint32_t>(bias);  // expected-error {{cast from float to uint32_t}} [ASC507]
    float fromSigned = static_cast<float>(static_cast<int32_t>(cols));
    float implicitly = 1.0f / rows;
    float castLiteral = (float)1.0 / cols;  // the cast is of the literal; cols converts implicitly
    int32_t truncated = static_cast<int32_t>(bias);
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    xGm.SetValue(0, invCols + invRows + fromSigned + implicitly + castLiteral);
    xGm.SetValue(1, (float)(truncated + static_cast<int32_t>(whole)));
}
