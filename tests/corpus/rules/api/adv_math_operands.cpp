// The advanced math APIs (Acos, Round, Silu, ...) take dst and src tensors of one element type T, an
// optional sharedTmpBuffer of uint8_t and an optional count; some are for half and float only.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void adv_math(GM_ADDR x, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> floatBuf;
    TBuf<TPosition::VECCALC> halfBuf;
    TBuf<TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(floatBuf, 4096);
    pipe.InitBuffer(halfBuf, 4096);
    pipe.InitBuffer(tmpBuf, 4096);
    LocalTensor<float> values = floatBuf.Get<float>();
    LocalTensor<half> halves = halfBuf.Get<half>();
    LocalTensor<int32_t> ints = halfBuf.Get<int32_t>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    Acos(values, values, tmp, 256);
    Acos(values, values, 256);
    Cos<float, false>(values, values, 256);
    Trunc(values, values, tmp);
    Silu(halves, halves, 128);
    Acosh(values, halves, 256);  // expected-error {{no matching function for call to 'Acosh'}} [ASC101]
    Round(ints, ints, 256);  // expected-error {{Round does not support int32_t on 910B2 (arch 2201); supported element types: half, float}} [ASC502]
    GeGLU(values, values, values, tmp, 256);
    GeGLU(values, values, halves, 256);  // expected-error {{no matching function for call to 'GeGLU'}} [ASC101]
}
